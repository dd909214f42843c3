// `gpusizer catalog [filters]` and `gpusizer catalog import-aws <file>`: thin CLI over
// run_catalog.
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "gpusizer/sizing/commands.hpp"

namespace gpusizer::cli {

void register_catalog(CLI::App& app, Action& action) {
  auto options = std::make_shared<sizing::CatalogOptions>();
  auto min_memory = std::make_shared<double>(0);
  auto max_price = std::make_shared<double>(0);
  auto format = std::make_shared<std::string>("table");
  CLI::App* cmd = app.add_subcommand("catalog", "List and filter the instance catalog");
  cmd->add_option("--catalog", options->catalog.catalog, "catalog file replacing the shipped one");
  cmd->add_option("--catalog-overlay", options->catalog.overlays,
                  "overlay file overriding single prices (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--region", options->catalog.region,
                  "AWS Region (default: the catalog's); a Region without a shipped catalog lists "
                  "the specs with the prices of its overlays only");
  cmd->add_option("--family", options->family, "instance family, e.g. p5, g6e");
  cmd->add_option("--accelerator", options->accelerator,
                  "accelerator, case-insensitive: id, alias or family (H100, a100, inf2)");
  CLI::Option* mem = cmd->add_option("--min-memory-gib", *min_memory,
                                     "accelerator memory per device at least this (GiB)")
                         ->check(finite_non_negative());
  CLI::Option* price = cmd->add_option("--max-price", *max_price, "on-demand $/h at most this")
                           ->check(finite_non_negative());
  cmd->add_option("--max-price-age-days", options->catalog.max_price_age_days,
                  "prices older than this are marked stale (default 90)")
      ->check(CLI::Range(0, 36500));
  cmd->add_option("--today", options->catalog.today,
                  "date prices are aged to, YYYY-MM-DD (default: today, UTC)");
  cmd->add_option("--format", *format, "table | md | json")
      ->check(CLI::IsMember({"table", "md", "json"}));
  CLI::App* import = cmd->add_subcommand(
      "import-aws",
      "Read AWS CLI output into a dated price overlay: aws pricing get-products or the Price "
      "List bulk file (on-demand), aws ec2 describe-spot-price-history (spot), aws ec2 "
      "describe-capacity-block-offerings (capacity blocks)");
  import->add_option("file", options->import_file, "the AWS CLI output (JSON)")
      ->required()
      ->check(CLI::ExistingFile);
  import->add_option("--out,-o", options->out, "overlay file to write (default: stdout)");
  import->add_option("--region", options->catalog.region,
                     "Region whose rows to keep (default: the catalog's, us-east-1)");
  const auto set_statistic = [options](const std::string& name) {
    options->statistic = *parse<SpotStatistic>(name);  // checked by CLI11 against the names
  };
  import
      ->add_option_function<std::string>(
          "--statistic", set_statistic,
          "spot: max | p90 | p50 | min across Availability Zones of each zone's "
          "highest price in the window (default max)")
      ->check(CLI::IsMember(std::vector<std::string>(all_names<SpotStatistic>().begin(),
                                                     all_names<SpotStatistic>().end())));
  import
      ->add_option("--window-days", options->window_days,
                   "spot: days up to the newest change in the file (default 7)")
      ->check(CLI::Range(1, 90));
  cmd->callback([options, format, min_memory, max_price, mem, price, &action] {
    options->format = text_format_from_string(*format);
    if (mem->count() > 0) options->min_memory_gib = *min_memory;
    if (price->count() > 0) options->max_price = *max_price;
    action = [options] { return sizing::run_catalog(*options, std::cout, std::cerr); };
  });
}

}  // namespace gpusizer::cli
