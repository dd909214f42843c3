// gpusizer devices [--json]: the targets a run would measure, and why GPUs are missing if they are.
#include <iostream>

#include "commands.hpp"
#include "gpusizer/kernels/discovery.hpp"
#include "gpusizer/printers.hpp"

namespace gpusizer::cli {

void register_devices(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("devices", "List the CPU, GPUs and MIG slices on this machine");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "Print JSON");
  cmd->callback([&action, json] {
    action = [json] {
      kernels::Discovery d = kernels::discover({});
      std::vector<Target> targets;
      for (const auto& b : d.backends) targets.push_back(b->target());
      if (*json) {
        print_targets(targets, std::cout, TextFormat::json);
        return 0;
      }
      print_targets(targets, std::cout, TextFormat::table);
      if (!d.gpu_unavailable_reason.empty()) {
        std::cout << "0 GPUs: " << d.gpu_unavailable_reason << "\n";
      }
      for (const auto& w : d.warnings) std::cout << "warning: " << w << "\n";
      return 0;
    };
  });
}

}  // namespace gpusizer::cli
