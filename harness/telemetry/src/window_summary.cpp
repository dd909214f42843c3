#include "window_summary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
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

std::string joules_text(double j) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g J", j);
  return buf;
}

// Busy: the GPU ran something. Utilisation > 0 where NVML gives it; otherwise (a MIG-enabled
// GPU has no utilisation) any sample without the gpu_idle reason; with neither, every sample.
bool busy(const GpuSample& s) {
  if (s.gpu_utilization_percent) return *s.gpu_utilization_percent > 0;
  if (s.clock_event_reasons) return !is_idle_reason(*s.clock_event_reasons);
  return true;
}

// How many times the counter advanced between consecutive samples that carry it.
std::optional<std::uint64_t> counter_updates(const std::vector<GpuSample>& samples) {
  std::optional<std::uint64_t> last;
  std::uint64_t updates = 0;
  for (const auto& s : samples) {
    if (!s.energy_millijoules) continue;
    if (last && *s.energy_millijoules != *last) ++updates;
    last = s.energy_millijoules;
  }
  if (!last) return std::nullopt;
  return updates;
}

void cross_check_energy(TelemetryWindow& w) {
  if (w.energy_method != "energy counter delta" || !w.energy_joules ||
      !w.energy_integrated_joules || w.duration_seconds <= 0)
    return;
  const double counter = *w.energy_joules, integrated = *w.energy_integrated_joules;
  const double larger = std::max(counter, integrated);
  if (larger <= 0) return;
  const double difference = std::fabs(counter - integrated) / larger;
  const double margin =
      kEnergyDisagreementMargin + kEnergyCounterPeriodSeconds / w.duration_seconds;
  if (difference <= margin) return;
  w.energy_counter_disagrees = true;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f s", w.duration_seconds);
  w.notes.push_back("energy counter " + joules_text(counter) + " vs integrated power samples " +
                    joules_text(integrated) + ": differ by " + percent_text(difference) +
                    " of the larger (margin " + percent_text(margin) +
                    " = 10% + 0.1 s counter period / " + buf + ")");
}

void summarize_reasons(const std::vector<GpuSample>& samples, TelemetryWindow& w) {
  std::uint64_t any = 0;
  std::size_t with_reasons = 0;
  std::map<std::string, std::size_t> counts;
  for (const auto& s : samples) {
    if (!s.clock_event_reasons) continue;
    ++with_reasons;
    any |= *s.clock_event_reasons;
    for (const auto& name : clock_event_reason_names(*s.clock_event_reasons)) ++counts[name];
  }
  w.throttle_reasons = clock_event_reason_names(any);
  for (const auto& [name, n] : counts)
    w.throttle_reason_shares[name] = static_cast<double>(n) / static_cast<double>(with_reasons);
  w.throttled = is_throttle_reason(any);
  w.power_capped = is_power_cap_reason(any);
}

void summarize_transient_errors(const std::vector<GpuSample>& samples, TelemetryWindow& w) {
  std::map<std::string, std::size_t> counts;
  for (const auto& s : samples) {
    for (const auto& e : s.transient_errors) ++counts[e];
  }
  for (const auto& [error, n] : counts) {
    w.transient_errors += n;
    w.notes.push_back(error + " on " + std::to_string(n) + " of " + std::to_string(samples.size()) +
                      " samples (transient: retried)");
  }
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
  w.source = TelemetrySource::nvml;
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
    w.energy_counter_updates = counter_updates(samples);
  } else if (integrated) {
    w.energy_joules = integrated;
    w.energy_method = "integrated power samples";
  }
  cross_check_energy(w);

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
  std::vector<GpuSample> busy_samples;
  for (const auto& s : samples) {
    if (busy(s)) busy_samples.push_back(s);
  }
  w.busy_sample_count = busy_samples.size();
  w.sm_clock_busy_mean_mhz =
      mean_of(busy_samples, [](const GpuSample& s) { return s.sm_clock_mhz; });
  if (w.sm_clock_busy_mean_mhz && w.sm_clock_default_mhz && *w.sm_clock_default_mhz > 0)
    w.sm_clock_ratio = *w.sm_clock_busy_mean_mhz / *w.sm_clock_default_mhz;

  summarize_reasons(samples, w);
  if (w.sm_clock_ratio && *w.sm_clock_ratio < kThrottleClockRatio) {
    const std::string clock =
        "mean SM clock over busy samples " + percent_text(*w.sm_clock_ratio) + " of default (< 75%";
    if (w.throttled) {
      w.notes.push_back(clock + ", with a throttle reason)");
    } else if (w.power_capped) {
      w.notes.push_back(clock + ") with the SW power cap active: power_capped, not throttled");
    } else {
      w.throttled = true;
      w.notes.push_back(clock + " and no reason: throttled by nvbench's rule)");
    }
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
  summarize_transient_errors(samples, w);
  return w;
}

}  // namespace gpusizer::telemetry
