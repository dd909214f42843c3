#include "gpusizer/bench/record_builder.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

#include "gpusizer/bench/combined_probe.hpp"
#include "gpusizer/stats.hpp"
#include "gpusizer/text.hpp"

namespace gpusizer::bench {
namespace {

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

std::string unit_for_extra(const std::string& name) {
  auto ends = [&](const std::string& suffix) {
    return name.size() >= suffix.size() &&
           name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (ends("_bytes_per_second")) return "B/s";
  if (ends("_flops_per_second")) return "FLOP/s";
  if (ends("_fraction")) return "1";
  if (ends("_seconds")) return "s";
  if (ends("_bytes")) return "B";
  if (ends("_count")) return "1";
  return "1";
}

template <typename T>
std::optional<T> weighted(const std::vector<TelemetryWindow>& ws,
                          std::optional<T> TelemetryWindow::*field) {
  double sum = 0;
  double weight = 0;
  for (const auto& w : ws) {
    if (w.*field) {
      sum += *(w.*field) * w.duration_seconds;
      weight += w.duration_seconds;
    }
  }
  if (weight <= 0) {
    for (const auto& w : ws) {
      if (w.*field) return w.*field;
    }
    return std::nullopt;
  }
  return sum / weight;
}

std::optional<double> maximum(const std::vector<TelemetryWindow>& ws,
                              std::optional<double> TelemetryWindow::*field) {
  std::optional<double> out;
  for (const auto& w : ws) {
    if (w.*field) out = out ? std::max(*out, *(w.*field)) : *(w.*field);
  }
  return out;
}

}  // namespace

TelemetryWindow merge_windows(const std::vector<TelemetryWindow>& windows) {
  if (windows.empty()) return {};
  if (windows.size() == 1) return windows.front();
  TelemetryWindow m = windows.front();
  m.duration_seconds = 0;
  m.sample_count = 0;
  m.energy_joules.reset();
  bool all_energy = true;
  double energy = 0;
  std::set<std::string> reasons;
  std::uint64_t ecc_c = 0, ecc_u = 0;
  bool any_c = false, any_u = false;
  for (const auto& w : windows) {
    m.duration_seconds += w.duration_seconds;
    m.sample_count += w.sample_count;
    if (w.energy_joules) {
      energy += *w.energy_joules;
    } else {
      all_energy = false;
    }
    reasons.insert(w.throttle_reasons.begin(), w.throttle_reasons.end());
    m.throttled = m.throttled || w.throttled;
    m.power_capped = m.power_capped || w.power_capped;
    m.energy_counter_disagrees = m.energy_counter_disagrees || w.energy_counter_disagrees;
    m.ecc_errors_during_run = m.ecc_errors_during_run || w.ecc_errors_during_run;
    if (w.ecc_corrected_delta) {
      ecc_c += *w.ecc_corrected_delta;
      any_c = true;
    }
    if (w.ecc_uncorrected_delta) {
      ecc_u += *w.ecc_uncorrected_delta;
      any_u = true;
    }
  }
  if (all_energy) m.energy_joules = energy;
  m.throttle_reasons.assign(reasons.begin(), reasons.end());
  merge_clock_events(windows, m);
  if (any_c) m.ecc_corrected_delta = ecc_c;
  if (any_u) m.ecc_uncorrected_delta = ecc_u;
  m.remapped_rows_corrected_delta =
      sum_counts(windows, &TelemetryWindow::remapped_rows_corrected_delta);
  m.remapped_rows_uncorrected_delta =
      sum_counts(windows, &TelemetryWindow::remapped_rows_uncorrected_delta);
  m.retired_pages_delta = sum_counts(windows, &TelemetryWindow::retired_pages_delta);
  for (const auto& w : windows) {
    m.memory_errors_during_run = m.memory_errors_during_run || w.memory_errors_during_run;
    m.row_remap_pending = w.row_remap_pending;  // the state at the last window's end
    m.row_remap_failure = w.row_remap_failure;
    m.retired_pages_pending = w.retired_pages_pending;
  }
  m.power_mean_watts = weighted(windows, &TelemetryWindow::power_mean_watts);
  m.power_peak_watts = maximum(windows, &TelemetryWindow::power_peak_watts);
  m.power_p95_watts = maximum(windows, &TelemetryWindow::power_p95_watts);
  m.power_p5_watts.reset();
  for (const auto& w : windows) {
    if (w.power_p5_watts) {
      m.power_p5_watts =
          m.power_p5_watts ? std::min(*m.power_p5_watts, *w.power_p5_watts) : *w.power_p5_watts;
    }
  }
  m.sm_clock_mean_mhz = weighted(windows, &TelemetryWindow::sm_clock_mean_mhz);
  m.sm_clock_ratio = weighted(windows, &TelemetryWindow::sm_clock_ratio);
  m.sm_clock_busy_mean_mhz = weighted(windows, &TelemetryWindow::sm_clock_busy_mean_mhz);
  m.memory_clock_mean_mhz = weighted(windows, &TelemetryWindow::memory_clock_mean_mhz);
  m.gpu_utilization_mean_percent =
      weighted(windows, &TelemetryWindow::gpu_utilization_mean_percent);
  m.memory_utilization_mean_percent =
      weighted(windows, &TelemetryWindow::memory_utilization_mean_percent);
  m.temperature_max_celsius = maximum(windows, &TelemetryWindow::temperature_max_celsius);
  return m;
}

Record build_record(const BenchCase& c, const CaseOutcome& o, const SamplingPolicy& policy) {
  Record r;
  r.id = c.id;
  r.family = c.family;
  r.operation = c.operation;
  r.target = join(c.targets, "+");
  r.parameters = c.parameters;
  r.started_at = o.started_at;
  r.duration_seconds = o.duration_seconds;
  r.repetitions = static_cast<int>(std::max<std::size_t>(1, o.repetitions.size()));
  r.details = o.details;
  if (!o.repetitions_capped.empty()) r.details["repetitions_capped"] = o.repetitions_capped;
  if (!o.cut_short.empty()) {
    r.details["cut_short"] = o.cut_short;
    r.flags.push_back(kCutShortFlag);
  }
  if (o.skipped_reason) {
    r.status = "skipped";
    r.reason = *o.skipped_reason;
    return r;
  }
  if (o.error) {
    r.status = "error";
    r.reason = *o.error;
    return r;
  }
  if (o.repetitions.empty()) {
    r.status = "error";
    r.reason = "no samples were taken";
    return r;
  }

  Timing t;
  t.timer = o.timer;
  t.mode = o.mode;
  t.ops_per_sample = o.repetitions.front().ops_per_sample;
  std::size_t total_ops = 0;
  std::vector<std::string> reasons;
  for (const auto& set : o.repetitions) {
    t.samples_seconds.insert(t.samples_seconds.end(), set.seconds_per_op.begin(),
                             set.seconds_per_op.end());
    t.measured_seconds += set.measured_seconds;
    total_ops += set.total_ops;
    if (std::find(reasons.begin(), reasons.end(), set.stop_reason) == reasons.end()) {
      reasons.push_back(set.stop_reason);
    }
  }
  t.seconds_per_op = summarize(t.samples_seconds);
  t.stop_reason = join(reasons, ",");
  r.timing = t;

  r.bytes_per_op = o.work.bytes;
  r.flops_per_op = o.work.flops;
  r.work_rule = o.work.rule;
  const bool flop_rate = o.work.rate_metric == "throughput";
  const double work = flop_rate ? o.work.flops : o.work.bytes;
  const std::string unit = flop_rate ? "FLOP/s" : "B/s";
  const std::string what = flop_rate ? "FLOP" : "bytes";
  const double median = t.seconds_per_op.median;
  const double best = t.seconds_per_op.min;
  if (median > 0 && work > 0) {
    r.metrics.push_back({o.work.rate_metric, work / median, unit,
                         what + " per op (" + o.work.rule + ") / median time per op"});
    r.metrics.push_back({o.work.rate_metric + "_best", work / best, unit,
                         what + " per op / fastest sample's time per op"});
    if (o.work.bus_bandwidth_factor > 0) {
      r.metrics.push_back(
          {"busbw", work / median * o.work.bus_bandwidth_factor, unit,
           "median algbw (bytes / median time) x " + short_number(o.work.bus_bandwidth_factor) +
               " (nccl-tests bus bandwidth: 2(n-1)/n all_reduce; (n-1)/n all_gather, "
               "reduce_scatter, all_to_all; 1 broadcast)"});
    }
    if (o.peak_rate > 0) {
      r.metrics.push_back(
          {"fraction_of_peak", (work / median) / o.peak_rate, "1",
           "median rate / " + short_number(o.peak_rate) + " " + unit + " (" + o.peak_source + ")"});
    }
  }
  r.metrics.push_back(
      {"time_per_op", median, "s",
       "median of " + std::to_string(t.samples_seconds.size()) + " samples (" + o.timer + ")"});
  for (const auto& [name, value] : o.extra_metrics) {
    r.metrics.push_back({name, value, unit_for_extra(name), "measured by the workload"});
  }

  if (!o.windows.empty()) {
    TelemetryWindow w = merge_windows(o.windows);
    if (o.shared_board && w.energy_joules && *w.energy_joules > 0 && total_ops > 0) {
      // A MIG slice: the board's energy includes every other slice's draw (and, in concurrent
      // mode, their work), so there is no per-slice energy or efficiency to claim.
      r.metrics.push_back({"board_energy_per_op", *w.energy_joules / static_cast<double>(total_ops),
                           "J",
                           "whole GPU board, shared by every slice: " + w.scope +
                               " energy over the window / " + std::to_string(total_ops) +
                               " ops this slice ran in it; NOT this slice's own energy"});
    } else if (w.energy_joules && *w.energy_joules > 0 && total_ops > 0) {
      double per_op = *w.energy_joules / static_cast<double>(total_ops);
      r.metrics.push_back(
          {"energy_per_op", per_op, "J",
           w.scope + ": energy over the window / " + std::to_string(total_ops) + " ops run in it"});
      if (work > 0) {
        r.metrics.push_back({flop_rate ? "flops_per_joule" : "bytes_per_joule", work / per_op,
                             flop_rate ? "FLOP/J" : "B/J", w.scope});
      }
      // The same without the idle draw: what the work itself costs on top of a powered-on device.
      if (o.idle_power_watts) {
        double above = *w.energy_joules - *o.idle_power_watts * w.duration_seconds;
        if (above > 0) {
          double above_per_op = above / static_cast<double>(total_ops);
          r.metrics.push_back({"energy_per_op_above_idle", above_per_op, "J",
                               w.scope + ": (energy - idle " + short_number(*o.idle_power_watts) +
                                   " W x " + short_number(w.duration_seconds) + " s) / " +
                                   std::to_string(total_ops) + " ops"});
          if (work > 0) {
            r.metrics.push_back(
                {flop_rate ? "flops_per_joule_above_idle" : "bytes_per_joule_above_idle",
                 work / above_per_op, flop_rate ? "FLOP/J" : "B/J",
                 w.scope + ", idle power subtracted"});
          }
        }
      }
    }
    if (w.throttled) r.flags.push_back("throttled");
    if (w.power_capped) r.flags.push_back("power_capped");
    if (w.energy_counter_disagrees) r.flags.push_back("energy_counter_disagrees");
    if (w.ecc_errors_during_run) r.flags.push_back("ecc_errors_during_run");
    if (w.memory_errors_during_run) r.flags.push_back("memory_errors_during_run");
    r.telemetry = std::move(w);
  }
  for (const auto& f : o.flags) r.flags.push_back(f);
  if (t.seconds_per_op.cv > kHighVarianceCv) r.flags.push_back("high_variance");
  if (t.seconds_per_op.cv > policy.max_noise &&
      t.stop_reason.find("time_cap") != std::string::npos) {
    r.flags.push_back("noise_target_not_reached");
  }

  r.verification.status = o.verification.status;
  r.verification.method = o.verification.method;
  r.verification.detail = o.verification.detail;
  r.status = o.verification.status == "failed" ? "failed" : "ok";
  if (r.status == "failed") r.flags.push_back("verification_failed");
  return r;
}

}  // namespace gpusizer::bench
