#include "gpusizer/bench/concurrent_aggregate.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include "gpusizer/clock.hpp"
#include "gpusizer/telemetry_combine.hpp"
#include "gpusizer/text.hpp"

namespace gpusizer::bench {
namespace {

// The record id with its target segment as "*": one key per case across the GPUs.
std::string case_key(const Record& r) {
  std::string id = r.id;
  const std::string needle = "/" + join_target_ids(r.targets) + "/";
  const auto pos = id.find(needle);
  if (pos != std::string::npos) id.replace(pos, needle.size(), "/*/");
  return id;
}

bool whole_gpu_concurrent(const Report& report, const Record& r) {
  if (load_mode(r) != Concurrency::concurrent || r.status != RecordStatus::ok) return false;
  if (r.targets.size() != 1) return false;
  if (std::find(r.flags.begin(), r.flags.end(), kAggregateFlag) != r.flags.end()) return false;
  const Target* t = report.find_target(r.targets.front());
  return t != nullptr && t->kind == TargetKind::gpu;
}

// started_at to the millisecond (parse_utc_time keeps whole seconds).
SystemTime started(const Record& r) {
  SystemTime t = parse_utc_time(r.started_at, "started_at");
  const auto dot = r.started_at.find('.');
  if (dot != std::string::npos) {
    double fraction = 0, scale = 0.1;
    for (std::size_t i = dot + 1;
         i < r.started_at.size() && std::isdigit(static_cast<unsigned char>(r.started_at[i]));
         ++i, scale /= 10)
      fraction += (r.started_at[i] - '0') * scale;
    t += std::chrono::duration_cast<SystemTime::duration>(std::chrono::duration<double>(fraction));
  }
  return t;
}

double seconds_between(SystemTime a, SystemTime b) {
  return std::chrono::duration<double>(b - a).count();
}

Metric combined_metric(const std::vector<const Record*>& group, std::size_t index) {
  Metric m = group.front()->metrics[index];
  const bool rate = m.unit.ends_with("/s");
  double sum = 0;
  for (const Record* r : group) sum += r->metrics[index].value;
  m.value = rate ? sum : sum / static_cast<double>(group.size());
  m.description = (rate ? "sum over the " : "mean over the ") + std::to_string(group.size()) +
                  " GPUs loaded together of each GPU's own figure (" + m.description + ")";
  return m;
}

Record aggregate(const std::vector<const Record*>& group, const std::string& key,
                 double overlap_seconds, SystemTime first_start, SystemTime last_start,
                 SystemTime last_end) {
  const Record& first = *group.front();
  std::vector<std::string> ids;
  for (const Record* r : group) ids.push_back(r->targets.front());
  const std::string targets = join_target_ids(ids);
  Record a;
  a.id = key;
  a.id.replace(a.id.find("/*/"), 3, "/" + targets + "/");
  a.family = first.family;
  a.operation = first.operation;
  a.targets = ids;
  a.parameters = first.parameters;
  a.status = RecordStatus::ok;
  for (std::size_t i = 0; i < first.metrics.size(); ++i)
    a.metrics.push_back(combined_metric(group, i));
  a.bytes_per_op = first.bytes_per_op * static_cast<double>(group.size());
  a.flops_per_op = first.flops_per_op * static_cast<double>(group.size());
  a.work_rule = "aggregate of " + std::to_string(group.size()) +
                " GPUs loaded together: rates summed (each GPU's rate over its own timed "
                "samples, the GPUs' windows overlapping), other metrics the mean; per GPU: " +
                first.work_rule;
  a.verification.status = VerificationStatus::passed;
  a.verification.method = "each GPU's own verification";
  for (const Record* r : group) {
    if (r->verification.status != VerificationStatus::passed)
      a.verification.status = VerificationStatus::not_applicable;
  }
  for (const Record* r : group) {
    if (r->verification.status == VerificationStatus::failed)
      a.verification.status = VerificationStatus::failed;
  }
  std::vector<TelemetryWindow> windows;
  for (const Record* r : group) {
    if (r->telemetry) windows.push_back(*r->telemetry);
  }
  if (windows.size() == group.size()) a.telemetry = combine_across_devices(windows);
  a.details["aggregate_of"] = targets;
  a.details["aggregate_rule"] =
      "rates (B/s, FLOP/s) summed over the GPUs, other metrics averaged; telemetry: each GPU's "
      "own board power, summed";
  a.details["overlap_seconds"] = fixed(overlap_seconds, 3);
  a.details["start_spread_seconds"] = fixed(seconds_between(first_start, last_start), 3);
  a.details["window"] =
      "each GPU record's started_at + duration_seconds (set-up and "
      "verification included); overlap: all GPUs measuring at once";
  a.flags = {kAggregateFlag};
  for (const Record* r : group) {
    for (const auto& f : r->flags) {
      if (std::find(a.flags.begin(), a.flags.end(), f) == a.flags.end()) a.flags.push_back(f);
    }
  }
  a.started_at = iso8601_utc(first_start);
  a.duration_seconds = seconds_between(first_start, last_end);
  a.repetitions = first.repetitions;
  a.concurrency = Concurrency::concurrent;
  return a;
}

}  // namespace

Concurrency load_mode(const Record& r) {
  return r.concurrency;
}

std::vector<Record> concurrent_aggregates(const Report& report) {
  std::map<std::string, std::vector<const Record*>> cases;
  for (const auto& r : report.records) {
    if (whole_gpu_concurrent(report, r)) cases[case_key(r)].push_back(&r);
  }
  std::vector<Record> out;
  for (const auto& [key, group] : cases) {
    if (group.size() < 2 || key.find("/*/") == std::string::npos) continue;
    bool same_metrics = true;
    for (const Record* r : group) {
      if (r->metrics.size() != group.front()->metrics.size()) same_metrics = false;
      for (std::size_t i = 0; same_metrics && i < r->metrics.size(); ++i) {
        same_metrics = r->metrics[i].name == group.front()->metrics[i].name &&
                       r->metrics[i].unit == group.front()->metrics[i].unit;
      }
    }
    if (!same_metrics) continue;
    std::vector<SystemTime> starts, ends;
    for (const Record* r : group) {
      const SystemTime s = started(*r);
      starts.push_back(s);
      ends.push_back(s + std::chrono::duration_cast<SystemTime::duration>(
                             std::chrono::duration<double>(r->duration_seconds)));
    }
    const SystemTime latest_start = *std::max_element(starts.begin(), starts.end());
    const SystemTime earliest_end = *std::min_element(ends.begin(), ends.end());
    const double overlap = seconds_between(latest_start, earliest_end);
    if (overlap <= 0) continue;  // not measured at the same time (e.g. resumed apart)
    Record a = aggregate(group, key, overlap, *std::min_element(starts.begin(), starts.end()),
                         latest_start, *std::max_element(ends.begin(), ends.end()));
    if (report.find_record(a.id) == nullptr) out.push_back(std::move(a));
  }
  return out;
}

}  // namespace gpusizer::bench
