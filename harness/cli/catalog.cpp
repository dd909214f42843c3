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
  CLI::App* cmd = app.add_subcommand("catalog", "List and filter the instance catalog");
  cmd->add_option("--catalog", options->catalog.catalog, "catalog file replacing the shipped one");
  cmd->add_option("--catalog-overlay", options->catalog.overlays,
                  "overlay file overriding single prices (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--family", options->family, "instance family, e.g. p5, g6e");
  cmd->add_option("--accelerator", options->accelerator, "accelerator id, e.g. H100, L40S");
  CLI::Option* mem = cmd->add_option("--min-memory-gib", *min_memory,
                                     "accelerator memory per device at least this (GiB)");
  CLI::Option* price = cmd->add_option("--max-price", *max_price, "on-demand $/h at most this");
  cmd->add_option("--format", options->format, "table | md | json")
      ->check(CLI::IsMember({"table", "md", "json"}));
  CLI::App* import =
      cmd->add_subcommand("import-aws",
                          "Read an AWS Price List file (bulk offer or pricing get-products output) "
                          "into a price overlay");
  import->add_option("file", options->import_file, "Price List JSON file")
      ->required()
      ->check(CLI::ExistingFile);
  import->add_option("--out,-o", options->out, "overlay file to write (default: stdout)");
  import->add_option("--region", options->region, "region code to keep (default us-east-1)");
  cmd->callback([options, min_memory, max_price, mem, price, &action] {
    if (mem->count() > 0) options->min_memory_gib = *min_memory;
    if (price->count() > 0) options->max_price = *max_price;
    action = [options] { return sizing::run_catalog(*options, std::cout); };
  });
}

}  // namespace gpusizer::cli
