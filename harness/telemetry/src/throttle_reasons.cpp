// NVML clock-event reason bits (nvml.h nvmlClocksEventReason* / nvmlClocksThrottleReason*).
#include <nvml.h>

#include <array>
#include <utility>

#include "gpu_sample.hpp"

namespace gpusizer::telemetry {
namespace {

// What a reason means for a measurement (NVML docs, nvml.h 12.9):
//   power cap: sw_power_cap, the board holding its power limit: a heavy GEMM on an H100/H200
//     sits there by design (seen on every sample on an H200, driver 580). Not a fault.
//   throttle: heat or hardware holding the clocks back (hw_slowdown, sw/hw thermal slowdown,
//     hw power brake from the power supply) and sync boost (held to a slower GPU of its group).
//   none: gpu_idle, clocks set by the user (applications / display clock settings).
enum class ReasonClass { kNone, kPowerCap, kThrottle };

struct ReasonBit {
  unsigned long long bit;
  const char* name;
  ReasonClass kind;
};

constexpr std::array<ReasonBit, 9> kReasons{{
    {nvmlClocksEventReasonGpuIdle, "gpu_idle", ReasonClass::kNone},
    {nvmlClocksEventReasonApplicationsClocksSetting, "applications_clocks_setting",
     ReasonClass::kNone},
    {nvmlClocksEventReasonSwPowerCap, "sw_power_cap", ReasonClass::kPowerCap},
    {nvmlClocksThrottleReasonHwSlowdown, "hw_slowdown", ReasonClass::kThrottle},
    {nvmlClocksEventReasonSyncBoost, "sync_boost", ReasonClass::kThrottle},
    {nvmlClocksEventReasonSwThermalSlowdown, "sw_thermal_slowdown", ReasonClass::kThrottle},
    {nvmlClocksThrottleReasonHwThermalSlowdown, "hw_thermal_slowdown", ReasonClass::kThrottle},
    {nvmlClocksThrottleReasonHwPowerBrakeSlowdown, "hw_power_brake_slowdown",
     ReasonClass::kThrottle},
    {nvmlClocksEventReasonDisplayClockSetting, "display_clock_setting", ReasonClass::kNone},
}};

bool any_of_class(std::uint64_t bits, ReasonClass kind) {
  for (const auto& r : kReasons) {
    if (r.kind == kind && (bits & r.bit)) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> clock_event_reason_names(std::uint64_t bits) {
  std::vector<std::string> names;
  std::uint64_t known = 0;
  for (const auto& r : kReasons) {
    known |= r.bit;
    if (bits & r.bit) names.emplace_back(r.name);
  }
  for (int b = 0; b < 64; ++b) {
    const std::uint64_t bit = std::uint64_t{1} << b;
    if ((bits & bit) && !(known & bit)) names.push_back("unknown_bit_" + std::to_string(b));
  }
  return names;
}

bool is_throttle_reason(std::uint64_t bits) {
  return any_of_class(bits, ReasonClass::kThrottle);
}

bool is_power_cap_reason(std::uint64_t bits) {
  return any_of_class(bits, ReasonClass::kPowerCap);
}

bool is_idle_reason(std::uint64_t bits) {
  return (bits & nvmlClocksEventReasonGpuIdle) != 0;
}

}  // namespace gpusizer::telemetry
