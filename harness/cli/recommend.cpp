// `gpusizer recommend --workload w.json report1.json ...`: thin CLI over run_recommend.
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "gpusizer/sizing/commands.hpp"

namespace gpusizer::cli {

void register_recommend(CLI::App& app, Action& action) {
  auto options = std::make_shared<sizing::RecommendOptions>();
  auto max_instances = std::make_shared<int>(0);
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
                  "$GPUSIZER_DATA_DIR/catalog/aws-us-east-1.json)");
  cmd->add_option("--catalog-overlay", options->catalog.overlays,
                  "overlay file overriding single prices (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--format", options->format, "table | md | json")
      ->check(CLI::IsMember({"table", "md", "json"}));
  cmd->add_option("--out,-o", options->out, "write the plan (JSON, with evidence) to this file");
  CLI::Option* max =
      cmd->add_option("--max-instances", *max_instances, "largest instance count an option may use")
          ->check(CLI::Range(1, 1000000000));
  cmd->callback([options, max_instances, max, &action] {
    if (max->count() > 0) options->max_instances = *max_instances;
    action = [options] { return sizing::run_recommend(*options, std::cout); };
  });
}

}  // namespace gpusizer::cli
