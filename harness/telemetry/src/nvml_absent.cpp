// Linked instead of the NVML sources when the build found no nvml.h (see cmake/Dependencies.cmake):
// every GPU telemetry window, idle-power entry, the inventory and `monitor` say why, in the words
// of GPUSIZER_NVML_ABSENT_REASON ("built without nvml.h: ..."). RAPL and everything else work.
#include "gpu_boards.hpp"
#include "gpu_sample.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/telemetry/monitor.hpp"
#include "gpusizer/telemetry/nvml_inventory.hpp"

#ifndef GPUSIZER_NVML_ABSENT_REASON
#error "GPUSIZER_NVML_ABSENT_REASON must be defined by the build"
#endif

namespace gpusizer::telemetry {

std::unique_ptr<GpuBoards> open_gpu_boards(std::string& why_not) {
  why_not = GPUSIZER_NVML_ABSENT_REASON;
  return nullptr;
}

NvmlInventory nvml_inventory() {
  NvmlInventory inventory;
  inventory.unavailable_reason = GPUSIZER_NVML_ABSENT_REASON;
  return inventory;
}

int run_monitor(const MonitorOptions&, std::ostream&) {
  throw RuntimeError(std::string("monitor: telemetry unavailable: ") + GPUSIZER_NVML_ABSENT_REASON);
}

// No NVML sample is ever taken, so no clock-event bits exist to name.
std::vector<std::string> clock_event_reason_names(std::uint64_t) {
  return {};
}

bool is_throttle_reason(std::uint64_t) {
  return false;
}

bool is_power_cap_reason(std::uint64_t) {
  return false;
}

bool is_idle_reason(std::uint64_t) {
  return false;
}

}  // namespace gpusizer::telemetry
