#include "window_summary.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <utility>

#include "gpusizer/stats.hpp"

namespace gpusizer::telemetry {
namespace {

template <typename Get>
std::optional<double> mean_of(const std::vector<GpuSample>& samples, Get get) {
  double sum = 0;
  std::size_t n = 0;
  for (const auto& s : samples) {
    if (auto v = get(s)) {
      sum += static_cast<double>(*v);
      ++n;
    }
  }
  if (n == 0) return std::nullopt;
  return sum / static_cast<double>(n);
}

// Counter delta between the first and last sample that carry it; nullopt if absent or it went
// backwards (driver reload).
template <typename Get>
std::optional<std::uint64_t> counter_delta(const std::vector<GpuSample>& samples, Get get) {
  std::optional<std::uint64_t> first, last;
  for (const auto& s : samples) {
    if (auto v = get(s)) {
      if (!first) first = *v;
      last = *v;
    }
  }
  if (!first || *last < *first) return std::nullopt;
  return *last - *first;
}

// The first and last values of a flag among the samples that carry it.
template <typename Get>
std::pair<std::optional<bool>, std::optional<bool>> first_last(
    const std::vector<GpuSample>& samples, Get get) {
  std::optional<bool> first, last;
  for (const auto& s : samples) {
    if (auto v = get(s)) {
      if (!first) first = *v;
      last = *v;
    }
  }
  return {first, last};
}

// True when the flag is set at the end but was not at the start (appeared during the window).
template <typename Get>
bool appeared(const std::vector<GpuSample>& samples, Get get) {
  const auto [first, last] = first_last(samples, get);
  return first && last && !*first && *last;
}

std::string percent_text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", x * 100.0);
  return buf;
}

}  // namespace

std::optional<double> integrate_power_joules(const std::vector<GpuSample>& samples) {
  const GpuSample* prev = nullptr;
  double joules = 0;
  std::size_t n = 0;
  for (const auto& s : samples) {
    if (!s.power_watts) continue;
    if (prev)
      joules += 0.5 * (*prev->power_watts + *s.power_watts) * (s.t_seconds - prev->t_seconds);
    prev = &s;
    ++n;
  }
  if (n < 2) return std::nullopt;
  return joules;
}

TelemetryWindow summarize_gpu_window(const std::vector<GpuSample>& samples,
                                     const GpuStatics& statics, double sample_period_seconds) {
  TelemetryWindow w;
  w.source = "nvml";
  w.scope = "GPU board power (NVML)";
  w.sample_count = samples.size();
  w.sample_period_seconds = sample_period_seconds;
  w.notes = statics.notes;
  if (samples.empty()) return w;
  w.duration_seconds = samples.back().t_seconds - samples.front().t_seconds;

  std::vector<double> power;
  for (const auto& s : samples) {
    if (s.power_watts) power.push_back(*s.power_watts);
  }
  if (!power.empty()) {
    std::sort(power.begin(), power.end());
    w.power_field = statics.power_field;
    w.power_mean_watts = mean_of(samples, [](const GpuSample& s) { return s.power_watts; });
    w.power_peak_watts = power.back();
    w.power_p5_watts = percentile_sorted(power, 0.05);
    w.power_p95_watts = percentile_sorted(power, 0.95);
  }

  const auto integrated = integrate_power_joules(samples);
  w.energy_integrated_joules = integrated;
  if (auto mj = counter_delta(samples, [](const GpuSample& s) { return s.energy_millijoules; })) {
    w.energy_joules = static_cast<double>(*mj) / 1000.0;
    w.energy_method = "energy counter delta";
  } else if (integrated) {
    w.energy_joules = integrated;
    w.energy_method = "integrated power samples";
  }

  w.sm_clock_mean_mhz = mean_of(samples, [](const GpuSample& s) { return s.sm_clock_mhz; });
  w.memory_clock_mean_mhz = mean_of(samples, [](const GpuSample& s) { return s.memory_clock_mhz; });
  w.gpu_utilization_mean_percent =
      mean_of(samples, [](const GpuSample& s) { return s.gpu_utilization_percent; });
  w.memory_utilization_mean_percent =
      mean_of(samples, [](const GpuSample& s) { return s.memory_utilization_percent; });
  for (const auto& s : samples) {
    if (s.temperature_celsius)
      w.temperature_max_celsius =
          std::max(w.temperature_max_celsius.value_or(-1e9), *s.temperature_celsius);
  }
  w.sm_clock_default_mhz = statics.default_sm_clock_mhz;
  w.sm_clock_default_source = statics.default_sm_clock_source;
  if (w.sm_clock_mean_mhz && w.sm_clock_default_mhz && *w.sm_clock_default_mhz > 0)
    w.sm_clock_ratio = *w.sm_clock_mean_mhz / *w.sm_clock_default_mhz;

  std::uint64_t reasons = 0;
  for (const auto& s : samples) reasons |= s.clock_event_reasons.value_or(0);
  w.throttle_reasons = clock_event_reason_names(reasons);
  w.throttled = is_power_or_thermal_reason(reasons);
  if (w.sm_clock_ratio && *w.sm_clock_ratio < kThrottleClockRatio) {
    w.throttled = true;
    w.notes.push_back("mean SM clock " + percent_text(*w.sm_clock_ratio) +
                      " of default (< 75%: throttled by nvbench's rule)");
  }

  w.ecc_corrected_delta =
      counter_delta(samples, [](const GpuSample& s) { return s.ecc_corrected_volatile; });
  w.ecc_uncorrected_delta =
      counter_delta(samples, [](const GpuSample& s) { return s.ecc_uncorrected_volatile; });
  w.ecc_errors_during_run =
      w.ecc_corrected_delta.value_or(0) > 0 || w.ecc_uncorrected_delta.value_or(0) > 0;

  w.remapped_rows_corrected_delta =
      counter_delta(samples, [](const GpuSample& s) { return s.remapped_rows_corrected; });
  w.remapped_rows_uncorrected_delta =
      counter_delta(samples, [](const GpuSample& s) { return s.remapped_rows_uncorrected; });
  const auto remap_pending = [](const GpuSample& s) { return s.row_remap_pending; };
  const auto remap_failure = [](const GpuSample& s) { return s.row_remap_failure; };
  const auto pages_pending = [](const GpuSample& s) { return s.retired_pages_pending; };
  w.row_remap_pending = first_last(samples, remap_pending).second.value_or(false);
  w.row_remap_failure = first_last(samples, remap_failure).second.value_or(false);
  w.retired_pages_delta =
      counter_delta(samples, [](const GpuSample& s) { return s.retired_pages; });
  w.retired_pages_pending = first_last(samples, pages_pending).second.value_or(false);
  w.memory_errors_during_run = w.remapped_rows_corrected_delta.value_or(0) > 0 ||
                               w.remapped_rows_uncorrected_delta.value_or(0) > 0 ||
                               w.retired_pages_delta.value_or(0) > 0 ||
                               appeared(samples, remap_pending) ||
                               appeared(samples, remap_failure) || appeared(samples, pages_pending);
  return w;
}

}  // namespace gpusizer::telemetry
