// gpusizer devices [--json]: the targets a run would measure, and why GPUs are missing if they are.
#include <iostream>

#include "commands.hpp"
#include "gpusizer/kernels/discovery.hpp"
#include "gpusizer/printers.hpp"
#include "gpusizer/telemetry/nvml_inventory.hpp"

namespace gpusizer::cli {

void register_devices(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("devices", "List the CPU, GPUs and MIG slices on this machine");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "Print JSON");
  cmd->callback([&action, json] {
    action = [json] {
      kernels::Discovery d = kernels::discover({});
      std::vector<Target> targets;
      telemetry::NvmlInventory inventory = telemetry::nvml_inventory();
      for (const auto& b : d.backends) {
        targets.push_back(b->target());
        // MIG slices listed under their parent GPU.
        for (const auto& m : inventory.mig_targets) {
          if (m.parent && *m.parent == b->target().id) targets.push_back(m);
        }
      }
      for (const auto& m : inventory.mig_targets) {  // slices of GPUs CUDA did not list
        bool listed = false;
        for (const auto& t : targets) listed = listed || t.id == m.id;
        if (!listed) targets.push_back(m);
      }
      if (*json) {
        print_targets(targets, std::cout, TextFormat::json);
        return 0;
      }
      print_targets(targets, std::cout, TextFormat::table);
      if (!d.gpu_unavailable_reason.empty()) {
        std::cout << "0 GPUs: " << d.gpu_unavailable_reason << "\n";
      }
      for (const auto& w : d.warnings) std::cout << "warning: " << w << "\n";
      if (!inventory.available) {
        std::cout << "telemetry/MIG: unavailable: " << inventory.unavailable_reason << "\n";
      }
      for (const auto& g : inventory.gpus) {
        std::cout << g.id << ": MIG " << g.mig_mode
                  << (g.mig_pending_mode != g.mig_mode ? " (pending " + g.mig_pending_mode + ")"
                                                       : "")
                  << "\n";
      }
      return 0;
    };
  });
}

}  // namespace gpusizer::cli
