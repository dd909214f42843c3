#include "gpusizer/bench/combined_probe.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>

namespace gpusizer::bench {
namespace {

// Adds an optional field across windows; absent in any window -> absent in the sum.
std::optional<double> add_all(const std::vector<TelemetryWindow>& ws,
                              std::optional<double> TelemetryWindow::*field) {
  double sum = 0;
  for (const auto& w : ws) {
    if (!(w.*field)) return std::nullopt;
    sum += *(w.*field);
  }
  return sum;
}

}  // namespace

void CombinedProbe::begin() {
  for (auto* p : probes_) p->begin();
}

TelemetryWindow CombinedProbe::end() {
  std::vector<TelemetryWindow> windows;
  for (auto* p : probes_) windows.push_back(p->end());
  return sum_windows(windows);
}

TelemetryWindow sum_windows(const std::vector<TelemetryWindow>& windows) {
  if (windows.size() == 1) return windows.front();
  TelemetryWindow s;
  if (windows.empty()) return s;
  s.source = windows.front().source;
  s.scope = windows.front().scope + ", sum over " + std::to_string(windows.size()) + " devices";
  for (const auto& w : windows) {
    if (w.source == "unavailable") {
      s.source = "unavailable";
      s.unavailable_reason = w.unavailable_reason;
    }
  }
  std::set<std::string> reasons;
  for (const auto& w : windows) {
    s.duration_seconds = std::max(s.duration_seconds, w.duration_seconds);
    s.sample_count = std::max(s.sample_count, w.sample_count);
    s.sample_period_seconds = std::max(s.sample_period_seconds, w.sample_period_seconds);
    reasons.insert(w.throttle_reasons.begin(), w.throttle_reasons.end());
    s.throttled = s.throttled || w.throttled;
    s.power_capped = s.power_capped || w.power_capped;
    s.energy_counter_disagrees = s.energy_counter_disagrees || w.energy_counter_disagrees;
    s.transient_errors += w.transient_errors;
    // Per reason, the largest share on any one GPU.
    for (const auto& [name, share] : w.throttle_reason_shares)
      s.throttle_reason_shares[name] = std::max(s.throttle_reason_shares[name], share);
    // The fewest counter updates any GPU saw: the coarsest of the summed counter deltas.
    if (w.energy_counter_updates)
      s.energy_counter_updates = std::min(
          s.energy_counter_updates.value_or(*w.energy_counter_updates), *w.energy_counter_updates);
    // Memory health: any device's error is the case's error. States are "at the window's end"
    // on each device, so a state set on any device is set for the case.
    s.ecc_errors_during_run = s.ecc_errors_during_run || w.ecc_errors_during_run;
    s.memory_errors_during_run = s.memory_errors_during_run || w.memory_errors_during_run;
    s.row_remap_pending = s.row_remap_pending || w.row_remap_pending;
    s.row_remap_failure = s.row_remap_failure || w.row_remap_failure;
    s.retired_pages_pending = s.retired_pages_pending || w.retired_pages_pending;
    s.notes.insert(s.notes.end(), w.notes.begin(), w.notes.end());
  }
  s.throttle_reasons.assign(reasons.begin(), reasons.end());
  s.ecc_corrected_delta = sum_counts(windows, &TelemetryWindow::ecc_corrected_delta);
  s.ecc_uncorrected_delta = sum_counts(windows, &TelemetryWindow::ecc_uncorrected_delta);
  s.remapped_rows_corrected_delta =
      sum_counts(windows, &TelemetryWindow::remapped_rows_corrected_delta);
  s.remapped_rows_uncorrected_delta =
      sum_counts(windows, &TelemetryWindow::remapped_rows_uncorrected_delta);
  s.retired_pages_delta = sum_counts(windows, &TelemetryWindow::retired_pages_delta);
  s.energy_joules = add_all(windows, &TelemetryWindow::energy_joules);
  s.energy_integrated_joules = add_all(windows, &TelemetryWindow::energy_integrated_joules);
  s.energy_method = windows.front().energy_method;
  s.power_field = windows.front().power_field;
  s.power_mean_watts = add_all(windows, &TelemetryWindow::power_mean_watts);
  // Peaks of different devices need not coincide: the sum is an upper bound, and says so.
  s.power_peak_watts = add_all(windows, &TelemetryWindow::power_peak_watts);
  if (s.power_peak_watts) s.notes.push_back("power_peak_watts is the sum of per-device peaks");
  return s;
}

void merge_clock_events(const std::vector<TelemetryWindow>& windows, TelemetryWindow& merged) {
  // Shares weighted by each window's sample count; counts and transient errors add up.
  std::map<std::string, double> weighted_shares;
  double samples = 0;
  merged.transient_errors = 0;
  for (const auto& w : windows) {
    if (w.source != "nvml") continue;
    for (const auto& [name, share] : w.throttle_reason_shares)
      weighted_shares[name] += share * static_cast<double>(w.sample_count);
    samples += static_cast<double>(w.sample_count);
    merged.transient_errors += w.transient_errors;
  }
  merged.throttle_reason_shares.clear();
  if (samples > 0) {
    for (const auto& [name, sum] : weighted_shares)
      merged.throttle_reason_shares[name] = sum / samples;
  }
  merged.energy_counter_updates = sum_counts(windows, &TelemetryWindow::energy_counter_updates);
  merged.busy_sample_count = sum_counts(windows, &TelemetryWindow::busy_sample_count);
}

std::optional<std::uint64_t> sum_counts(const std::vector<TelemetryWindow>& windows,
                                        std::optional<std::uint64_t> TelemetryWindow::*field) {
  std::optional<std::uint64_t> sum;
  for (const auto& w : windows) {
    if (w.*field) sum = sum.value_or(0) + *(w.*field);
  }
  return sum;
}

}  // namespace gpusizer::bench
