// `gpusizer recommend --workload w.json report1.json ...`: thin CLI over run_recommend.
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "gpusizer/sizing/commands.hpp"

namespace gpusizer::cli {

void register_recommend(CLI::App& app, Action& action) {
  auto options = std::make_shared<sizing::RecommendOptions>();
  auto max_instances = std::make_shared<int>(0);
  auto format = std::make_shared<std::string>("table");
  CLI::App* cmd = app.add_subcommand(
      "recommend", "Size a workload: instance type x count x purchase option, from reports");
  cmd->add_option("--workload,-w", options->workloads,
                  "workload file (repeat to pack several on MIG)")
      ->allow_extra_args(false)
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("reports", options->reports, "gpusizer report files")->check(CLI::ExistingFile);
  cmd->add_option("--catalog", options->catalog.catalog,
                  "catalog file replacing the shipped one (default: "
                  "$GPUSIZER_DATA_DIR/catalog/aws-<region>.json, else aws-us-east-1.json)");
  cmd->add_option("--catalog-overlay", options->catalog.overlays,
                  "overlay file overriding single prices (repeatable; gpusizer catalog import-aws "
                  "writes them)")
      ->allow_extra_args(false);
  cmd->add_option("--region", options->catalog.region,
                  "AWS Region to price in (default: the catalog's); a Region without a shipped "
                  "catalog keeps the specs and takes prices only from overlays");
  cmd->add_option("--instance-types", options->instance_types,
                  "only these instance types, comma-separated (p5.48xlarge,g6e.12xlarge)")
      ->delimiter(',')
      ->allow_extra_args(false);
  cmd->add_option("--families", options->families,
                  "only these instance families, comma-separated (p5,g6e)")
      ->delimiter(',')
      ->allow_extra_args(false);
  cmd->add_option(
         "--quotas", options->quotas,
         "aws service-quotas list-service-quotas --service-code ec2 (or get-service-quota) "
         "output: compare each option's vCPUs with the account's quota (repeatable)")
      ->allow_extra_args(false)
      ->check(CLI::ExistingFile);
  cmd->add_option("--max-price-age-days", options->catalog.max_price_age_days,
                  "prices older than this are marked stale (default 90)")
      ->check(CLI::Range(0, 36500));
  cmd->add_option("--today", options->catalog.today,
                  "date prices are aged to, YYYY-MM-DD (default: today, UTC)");
  cmd->add_option("--format", *format,
                  "table | md | json | csv (one row per ranked option, for spreadsheets) | html "
                  "(a self-contained page for a capacity request)")
      ->check(CLI::IsMember({"table", "md", "json", "csv", "html"}));
  cmd->add_option("--out,-o", options->out, "write the plan (JSON, with evidence) to this file");
  CLI::Option* max =
      cmd->add_option("--max-instances", *max_instances, "largest instance count an option may use")
          ->check(CLI::Range(1, 1000000000));
  cmd->callback([options, format, max_instances, max, &action] {
    options->format = text_format_from_string(*format);
    if (max->count() > 0) options->max_instances = *max_instances;
    action = [options] { return sizing::run_recommend(*options, std::cout); };
  });
}

}  // namespace gpusizer::cli
