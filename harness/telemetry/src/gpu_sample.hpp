// One reading of a GPU's sensors and counters, and the facts that do not change during a run.
// Every field is optional: a metric the GPU or driver does not support is simply absent.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpusizer::telemetry {

struct GpuSample {
  double t_seconds = 0;  // steady-clock time since the window began
  std::optional<double> power_watts;
  std::optional<std::uint64_t> energy_millijoules;  // total-energy counter (since driver load)
  std::optional<double> gpu_utilization_percent;
  std::optional<double> memory_utilization_percent;
  std::optional<std::uint64_t> memory_used_bytes;   // framebuffer in use (nvmlDeviceGetMemoryInfo)
  std::optional<std::uint64_t> memory_total_bytes;  // framebuffer size
  std::optional<double> sm_clock_mhz;
  std::optional<double> memory_clock_mhz;
  std::optional<double> temperature_celsius;
  std::optional<std::uint64_t> clock_event_reasons;  // NVML bit mask
  std::optional<std::uint64_t> ecc_corrected_volatile;
  std::optional<std::uint64_t> ecc_uncorrected_volatile;
  // Memory health: read only when asked (a window's first and last sample).
  std::optional<std::uint64_t> remapped_rows_corrected;
  std::optional<std::uint64_t> remapped_rows_uncorrected;
  std::optional<bool> row_remap_pending;
  std::optional<bool> row_remap_failure;
  std::optional<std::uint64_t> retired_pages;  // multiple single-bit + double-bit ECC causes
  std::optional<bool> retired_pages_pending;
  // Calls that failed transiently on this sample ("SM clock: Unknown Error (code 999)"); the
  // metric is read again at the next sample.
  std::vector<std::string> transient_errors;
};

struct GpuStatics {
  std::string power_field;  // "instant" | "average (1 s)" | "" (no power reading)
  std::optional<double> default_sm_clock_mhz;
  std::string default_sm_clock_source;  // "default applications clock" | "max SM clock"
  std::vector<std::string> notes;       // metrics that are missing here, and why
};

// Clock-event (throttle) reason bits -> names ("sw_power_cap", "hw_thermal", ...), in bit order.
std::vector<std::string> clock_event_reason_names(std::uint64_t bits);
// Heat or hardware held the clocks back: hw_slowdown, sw/hw thermal slowdown, hw power brake,
// sync boost. The power cap, gpu_idle and user clock settings are not throttling.
bool is_throttle_reason(std::uint64_t bits);
// The board was at its power limit (sw_power_cap).
bool is_power_cap_reason(std::uint64_t bits);
// Nothing ran and the clocks were dropping to idle (gpu_idle).
bool is_idle_reason(std::uint64_t bits);

}  // namespace gpusizer::telemetry
