// NVML clock-event reason bits (nvml.h nvmlClocksEventReason* / nvmlClocksThrottleReason*).
#include <nvml.h>

#include <array>
#include <utility>

#include "gpu_sample.hpp"

namespace gpusizer::telemetry {
namespace {

struct ReasonBit {
  unsigned long long bit;
  const char* name;
  bool power_or_thermal;
};

constexpr std::array<ReasonBit, 9> kReasons{{
    {nvmlClocksEventReasonGpuIdle, "gpu_idle", false},
    {nvmlClocksEventReasonApplicationsClocksSetting, "applications_clocks_setting", false},
    {nvmlClocksEventReasonSwPowerCap, "sw_power_cap", true},
    {nvmlClocksThrottleReasonHwSlowdown, "hw_slowdown", true},
    {nvmlClocksEventReasonSyncBoost, "sync_boost", false},
    {nvmlClocksEventReasonSwThermalSlowdown, "sw_thermal_slowdown", true},
    {nvmlClocksThrottleReasonHwThermalSlowdown, "hw_thermal_slowdown", true},
    {nvmlClocksThrottleReasonHwPowerBrakeSlowdown, "hw_power_brake_slowdown", true},
    {nvmlClocksEventReasonDisplayClockSetting, "display_clock_setting", false},
}};

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

bool is_power_or_thermal_reason(std::uint64_t bits) {
  for (const auto& r : kReasons) {
    if (r.power_or_thermal && (bits & r.bit)) return true;
  }
  return false;
}

}  // namespace gpusizer::telemetry
