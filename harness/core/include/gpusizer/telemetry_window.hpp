// What was observed on a device's power and clock sensors while one measurement ran.
// Filled by the telemetry layer (NVML for GPUs, RAPL for the CPU package); the report model
// stores it on each record. A window that could not be observed says why (`unavailable_reason`)
// instead of carrying zeros.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpusizer/stats.hpp"

namespace gpusizer {

struct TelemetryWindow {
  std::string source;  // "nvml", "rapl" or "unavailable"
  std::string scope;   // "GPU board power (NVML)", "CPU package (RAPL)"; never "wall power"
  std::string unavailable_reason;  // set when source == "unavailable"

  double duration_seconds = 0;
  std::size_t sample_count = 0;
  double sample_period_seconds = 0;

  // Energy over the window. Primary figure: delta of the device's total-energy counter.
  std::optional<double> energy_joules;
  std::string energy_method;  // "energy counter delta" | "integrated power samples"
  // Cross-check: trapezoidal integral of the power samples over the window (J).
  std::optional<double> energy_integrated_joules;

  // Board power statistics from the samples (W).
  std::string power_field;  // "instant" | "average (1 s)" | "rapl energy rate"
  std::optional<double> power_mean_watts;
  std::optional<double> power_peak_watts;
  std::optional<double> power_p5_watts;
  std::optional<double> power_p95_watts;

  // Clocks and utilisation (GPUs).
  std::optional<double> sm_clock_mean_mhz;
  std::optional<double> sm_clock_default_mhz;
  std::string sm_clock_default_source;   // "default applications clock" | "max SM clock"
  std::optional<double> sm_clock_ratio;  // mean / default
  std::optional<double> memory_clock_mean_mhz;
  std::optional<double> gpu_utilization_mean_percent;
  std::optional<double> memory_utilization_mean_percent;
  std::optional<double> temperature_max_celsius;

  // Clock-event (throttle) reasons seen in any sample, e.g. "sw_power_cap", "hw_thermal".
  std::vector<std::string> throttle_reasons;
  bool throttled = false;
  // ECC: corrected/uncorrected volatile error counts that changed during the window.
  std::optional<std::uint64_t> ecc_corrected_delta;
  std::optional<std::uint64_t> ecc_uncorrected_delta;
  bool ecc_errors_during_run = false;
  // Memory health, read at the window's start and end where the GPU supports it.
  // Row remapping (Ampere+): rows remapped for correctable / uncorrectable errors.
  std::optional<std::uint64_t> remapped_rows_corrected_delta;
  std::optional<std::uint64_t> remapped_rows_uncorrected_delta;
  bool row_remap_pending = false;  // a remapping awaits a GPU reset (at the end)
  bool row_remap_failure = false;  // a remapping has ever failed (at the end)
  // Page retirement (pre-Ampere): retired pages, both causes (multiple SBE + DBE).
  std::optional<std::uint64_t> retired_pages_delta;
  bool retired_pages_pending = false;  // pages await retirement at the next reboot (at the end)
  // Remapped rows or retired pages increased, or a remap failure / pending remapping or page
  // retirement appeared during the window.
  bool memory_errors_during_run = false;

  // How the energy of a shared device was attributed (MIG slices share one board).
  std::string attribution;  // "whole device" | "share of concurrently loaded GPU: ..." | ""

  // Metrics missing on this device and why ("utilization: Not Supported"), GPU lost, ...
  std::vector<std::string> notes;
};

}  // namespace gpusizer
