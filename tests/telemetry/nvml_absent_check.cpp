// Built only in a configuration without nvml.h (by the telemetry.configure_without_nvml test):
// a GPU target's telemetry window, its idle power, the inventory and `monitor` must all say
// "built without nvml.h: ...". Exit 0 when they do; prints what it found.
#include <iostream>
#include <sstream>
#include <string>

#include "gpusizer/error.hpp"
#include "gpusizer/telemetry/monitor.hpp"
#include "gpusizer/telemetry/nvml_inventory.hpp"
#include "gpusizer/telemetry/telemetry.hpp"

namespace {

bool says_why(const std::string& what, const std::string& text) {
  const bool ok = text.find("built without nvml.h: ") != std::string::npos;
  std::cout << (ok ? "ok   " : "FAIL ") << what << ": " << text << "\n";
  return ok;
}

}  // namespace

int main() {
  using namespace gpusizer;
  auto provider = make_telemetry_provider(telemetry::TelemetryOptions{});
  Target gpu;
  gpu.id = "gpu0";
  gpu.kind = TargetKind::gpu;
  gpu.index = 0;
  auto probe = provider->probe_for(gpu);
  probe->begin();
  const TelemetryWindow w = probe->end();
  bool ok = w.source == TelemetrySource::unavailable &&
            says_why("GPU record telemetry", w.unavailable_reason);
  const nlohmann::json idle = provider->measure_idle({gpu});
  ok = says_why("GPU idle power", idle.at("gpu0").at("unavailable").get<std::string>()) && ok;
  const telemetry::NvmlInventory inventory = telemetry::nvml_inventory();
  ok = !inventory.available && says_why("inventory", inventory.unavailable_reason) && ok;
  try {
    std::ostringstream out;
    telemetry::run_monitor(telemetry::MonitorOptions{}, out);
    std::cout << "FAIL monitor ran\n";
    ok = false;
  } catch (const RuntimeError& e) {
    ok = says_why("monitor", e.what()) && ok;
  }
  return ok ? 0 : 1;
}
