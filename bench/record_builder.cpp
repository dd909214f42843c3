#include "gpusizer/bench/record_builder.hpp"

#include <algorithm>
#include <cstdio>

#include "gpusizer/bench/case_id.hpp"
#include "gpusizer/stats.hpp"
#include "gpusizer/telemetry_combine.hpp"
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

}  // namespace

Record build_record(const BenchCase& c, const CaseOutcome& o, const SamplingPolicy& policy) {
  Record r;
  r.id = c.id;
  r.family = c.family;
  r.operation = c.operation;
  r.targets = c.targets;
  r.parameters = c.parameters;
  r.started_at = o.started_at;
  r.duration_seconds = o.duration_seconds;
  if (o.load_average_start && o.load_average_end)
    r.load_average = LoadAverage{*o.load_average_start, *o.load_average_end};
  r.repetitions = static_cast<int>(std::max<std::size_t>(1, o.repetitions.size()));
  r.details = o.details;
  if (!o.repetitions_capped.empty()) r.details["repetitions_capped"] = o.repetitions_capped;
  if (!o.cut_short.empty()) {
    r.details["cut_short"] = o.cut_short;
    r.flags.push_back(kCutShortFlag);
  }
  if (o.skipped_reason) {
    r.status = RecordStatus::skipped;
    r.reason = *o.skipped_reason;
    return r;
  }
  if (o.error) {
    r.status = RecordStatus::error;
    r.reason = *o.error;
    return r;
  }
  if (o.repetitions.empty()) {
    r.status = RecordStatus::error;
    r.reason = "no samples were taken";
    return r;
  }

  Timing t;
  t.timer = o.timer;
  t.cache_mode = o.mode;
  t.ops_per_sample = o.repetitions.front().ops_per_sample;
  std::size_t total_ops = 0;
  std::vector<std::string> reasons;
  for (const auto& set : o.repetitions) {
    t.samples_seconds.insert(t.samples_seconds.end(), set.seconds_per_op.begin(),
                             set.seconds_per_op.end());
    t.measured_seconds += set.measured_seconds;
    total_ops += set.total_ops;
    if (std::find(reasons.begin(), reasons.end(), set.stop_text()) == reasons.end()) {
      reasons.push_back(set.stop_text());
    }
  }
  t.seconds_per_op = summarize(t.samples_seconds);
  t.stop_reason = join(reasons, ",");
  r.timing = t;

  r.bytes_per_op = o.work.bytes;
  r.flops_per_op = o.work.flops;
  r.work_rule = o.work.rule;
  const bool flop_rate = o.work.rate_metric == RateMetric::throughput;
  const std::string metric(to_string(o.work.rate_metric));
  const double work = flop_rate ? o.work.flops : o.work.bytes;
  const std::string unit = flop_rate ? "FLOP/s" : "B/s";
  const std::string what = flop_rate ? "FLOP" : "bytes";
  const double median = t.seconds_per_op.median;
  const double best = t.seconds_per_op.min;
  if (median > 0 && work > 0) {
    r.metrics.push_back(
        {metric, work / median, unit, what + " per op (" + o.work.rule + ") / median time per op"});
    r.metrics.push_back(
        {metric + "_best", work / best, unit, what + " per op / fastest sample's time per op"});
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
  r.metrics.push_back({"time_per_op", median, "s",
                       "median of " + std::to_string(t.samples_seconds.size()) + " samples (" +
                           std::string(to_string(o.timer)) + ")"});
  for (const auto& [name, value] : o.extra_metrics) {
    r.metrics.push_back({name, value, unit_for_extra(name), "measured by the workload"});
  }

  if (!o.windows.empty()) {
    TelemetryWindow w = combine_over_time(o.windows);
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

  r.verification = o.verification;
  r.status =
      o.verification.status == VerificationStatus::failed ? RecordStatus::failed : RecordStatus::ok;
  if (r.status == RecordStatus::failed) r.flags.push_back("verification_failed");
  return r;
}

}  // namespace gpusizer::bench
