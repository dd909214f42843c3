// gpusizer devices [--json]: the targets a run would measure, and why GPUs are missing if they are.
// Devices are chosen as `run` chooses them (device_selection.hpp): the table ends with what the
// run measures in its own process and what it measures in one child process per MIG slice.
#include <cstdlib>
#include <iostream>

#include "commands.hpp"
#include "gpusizer/kernels/discovery.hpp"
#include "gpusizer/printers.hpp"
#include "gpusizer/report_io.hpp"
#include "gpusizer/table.hpp"
#include "gpusizer/telemetry/device_selection.hpp"
#include "gpusizer/telemetry/nvml_inventory.hpp"
#include "gpusizer/terminal.hpp"
#include "gpusizer/text.hpp"

namespace gpusizer::cli {
namespace {

void print_selection(const telemetry::DeviceSelection& s, std::ostream& out) {
  const auto e = [](const std::string& text) { return escape_control(text); };
  out << "\nmeasured by `gpusizer run`: " << e(s.explanation) << "\n";
  Table table({"measured in", "id", "uuid", "name"});
  for (const auto& t : s.whole_gpus)
    table.add_row({"this process", t.id, t.uuid.value_or(""), t.name});
  for (const auto& t : s.mig_slices)
    table.add_row({"MIG child", t.id, t.uuid.value_or(""), t.name});
  if (!s.whole_gpus.empty() || !s.mig_slices.empty()) table.render(out, TextFormat::table);
  if (s.set_cuda_visible_devices)
    out << "CUDA_VISIBLE_DEVICES=" << e(*s.set_cuda_visible_devices) << " (set by gpusizer)\n";
  for (const auto& w : s.warnings) out << "warning: " << e(w) << "\n";
}

}  // namespace

void register_devices(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("devices", "List the CPU, GPUs and MIG slices on this machine");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "Print JSON");
  cmd->callback([&action, json] {
    action = [json] {
      ::setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 0);
      telemetry::NvmlInventory inventory = telemetry::nvml_inventory();
      const telemetry::DeviceSelection selection = telemetry::select_devices(
          inventory, {telemetry::cuda_visible_devices_from_environment(), {}});
      // As `run` does, before the first CUDA call: CUDA then lists the chosen whole GPUs.
      if (selection.set_cuda_visible_devices)
        ::setenv("CUDA_VISIBLE_DEVICES", selection.set_cuda_visible_devices->c_str(), 1);
      kernels::DiscoveryOptions options;
      options.gpus = selection.parent_measures_gpus;
      options.gpu_indices = selection.cuda_ordinals;
      options.known_devices = selection.known_devices;
      options.gpus_with_unlisted_slices = selection.gpus_with_unlisted_slices;
      kernels::Discovery d = kernels::discover(options);
      std::vector<Target> discovered;
      for (const auto& b : d.backends) discovered.push_back(b->target());
      const std::vector<Target> targets =
          telemetry::device_listing(discovered, selection.mig_parents, inventory.mig_targets);
      if (*json) {
        // The targets and, beside them, why there are no GPUs when there are none: a script
        // reading "0 GPUs" must be able to tell a CPU machine from a broken driver.
        nlohmann::json j;
        j["targets"] = nlohmann::json::array();
        for (const auto& t : targets) j["targets"].push_back(to_json(t));
        j["gpus_unavailable_reason"] =
            selection.parent_measures_gpus && !d.gpu_unavailable_reason.empty()
                ? nlohmann::json(d.gpu_unavailable_reason)
                : nlohmann::json(nullptr);
        j["warnings"] = d.warnings;
        j["nvml"] = to_json(inventory);
        j["device_selection"] = to_json(selection);
        std::cout << json_for_terminal(j) << "\n";
        return 0;
      }
      print_targets(targets, std::cout, TextFormat::table, terminal_columns());
      const auto e = [](const std::string& text) { return escape_control(text); };
      if (selection.parent_measures_gpus && !d.gpu_unavailable_reason.empty()) {
        std::cout << "0 GPUs: " << e(d.gpu_unavailable_reason) << "\n";
      }
      for (const auto& w : d.warnings) std::cout << "warning: " << e(w) << "\n";
      if (!inventory.available) {
        std::cout << "telemetry/MIG: unavailable: " << e(inventory.unavailable_reason) << "\n";
      }
      for (const auto& g : inventory.gpus) {
        std::cout << e(g.id) << ": MIG " << to_string(g.mig_mode)
                  << (g.mig_pending_mode != g.mig_mode
                          ? " (pending " + std::string(to_string(g.mig_pending_mode)) + ")"
                          : "")
                  << "\n";
      }
      print_selection(selection, std::cout);
      return 0;
    };
  });
}

}  // namespace gpusizer::cli
