// What was observed on a device's power and clock sensors while one measurement ran.
// Filled by the telemetry layer (NVML for GPUs, RAPL for the CPU package); the report model
// stores it on each record. A window that could not be observed says why (`unavailable_reason`)
// instead of carrying zeros.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpusizer/stats.hpp"
#include "gpusizer/vocabulary.hpp"

namespace gpusizer {

struct TelemetryWindow {
  TelemetrySource source = TelemetrySource::unavailable;
  std::string scope;  // "GPU board power (NVML)", "CPU package (RAPL)"; never "wall power"
  std::string unavailable_reason;  // set when source is unavailable

  double duration_seconds = 0;
  std::size_t sample_count = 0;
  double sample_period_seconds = 0;

  // Energy over the window. Primary figure: delta of the device's total-energy counter.
  std::optional<double> energy_joules;
  std::string energy_method;  // "energy counter delta" | "integrated power samples"
  // Cross-check: trapezoidal integral of the power samples over the window (J).
  std::optional<double> energy_integrated_joules;
  // How many times the energy counter advanced between the window's samples (a real driver
  // updates it about every 100 ms; fewer than ~10 updates make the counter delta coarse).
  std::optional<std::uint64_t> energy_counter_updates;
  // Counter and integrated energy differ by more than kEnergyDisagreementMargin + one counter
  // period / duration (the notes give both figures).
  bool energy_counter_disagrees = false;

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
  std::optional<double> sm_clock_ratio;  // busy mean / default
  // Busy samples: GPU utilisation > 0, or (no utilisation reading) no gpu_idle reason.
  std::optional<std::uint64_t> busy_sample_count;
  std::optional<double> sm_clock_busy_mean_mhz;
  std::optional<double> memory_clock_mean_mhz;
  std::optional<double> gpu_utilization_mean_percent;
  std::optional<double> memory_utilization_mean_percent;
  std::optional<double> temperature_max_celsius;

  // Clock-event (throttle) reasons seen in any sample, e.g. "sw_power_cap", "hw_thermal".
  std::vector<std::string> throttle_reasons;
  // Share of the samples that read clock-event reasons in which each reason was active (0..1).
  std::map<std::string, double> throttle_reason_shares;
  // Held back by heat or hardware (hw_slowdown, sw/hw thermal, hw power brake, sync boost), or
  // busy SM clocks under 75 % of default with no power cap to explain them.
  bool throttled = false;
  // At the board's power limit (sw_power_cap): what a heavy GEMM on an H100/H200 is designed to
  // do; not a fault, kept apart from `throttled`.
  bool power_capped = false;
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

  // NVML calls that failed transiently (and were retried at the next sample) in this window.
  std::uint64_t transient_errors = 0;

  // Metrics missing on this device and why ("utilization: Not Supported"), GPU lost, ...
  std::vector<std::string> notes;
};

}  // namespace gpusizer
