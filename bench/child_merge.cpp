// The parent's side after a child: its records, not_run entries and start barrier merged into
// the parent report (merge_child_result, child_runs.hpp).
#include <algorithm>
#include <cstdio>

#include "gpusizer/bench/child_runs.hpp"
#include "gpusizer/bench/run_control.hpp"

namespace gpusizer::bench {
namespace {

std::string replace_segment(std::string id, const std::string& from, const std::string& to) {
  const std::string needle = "/" + from + "/";
  auto pos = id.find(needle);
  if (pos != std::string::npos) id.replace(pos, needle.size(), "/" + to + "/");
  return id;
}

std::string barrier_summary(const StartBarrierResult& b) {
  if (!b.setup_error.empty()) return b.setup_error;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "%zu of %zu slices ready; released together %.3f s after the first child started "
                "(%s)%s",
                b.children_ready, b.children, b.released_after_seconds,
                b.timed_out ? "barrier timeout" : "all ready or exited",
                b.reached ? "" : "; this slice was NOT ready at the release");
  return buf;
}

nlohmann::json barrier_json(const StartBarrierResult& b) {
  if (!b.setup_error.empty()) return {{"unavailable", b.setup_error}};
  nlohmann::json j{{"reached", b.reached},
                   {"released_after_seconds", b.released_after_seconds},
                   {"released_at", b.released_at},
                   {"slices", b.children},
                   {"slices_ready", b.children_ready},
                   {"released_by", b.timed_out ? "timeout" : "all ready or exited"}};
  if (b.reached) {
    j["ready_after_seconds"] = b.ready_after_seconds;
    j["ready_at"] = b.ready_at;
    j["waited_seconds"] = b.released_after_seconds - b.ready_after_seconds;
  }
  return j;
}

// How warnings and not_run ids name a child's target: a MIG slice or a whole GPU.
std::string target_noun(const Target& t) {
  return t.kind == TargetKind::mig ? "MIG slice " : "GPU ";
}
std::string not_started_id(const Target& t, const std::string& mode) {
  return (t.kind == TargetKind::mig ? "mig/" : "gpu/") + t.id + "/mode=" + mode;
}

}  // namespace

void merge_child_result(Report& parent, const ChildResult& result, Concurrency concurrency) {
  const std::string mode(to_string(concurrency));
  if (parent.find_target(result.target.id) == nullptr) parent.targets.push_back(result.target);
  if (result.not_started) {
    parent.not_run.emplace_back(not_started_id(result.target, mode), result.not_run_reason);
    return;
  }
  if (result.stopped && result.records.empty() && result.not_run.empty()) {
    // Stopped before it planned anything (e.g. at the start barrier): nothing of it was measured.
    parent.not_run.emplace_back(not_started_id(result.target, mode),
                                result.not_run_reason.empty()
                                    ? "stopped before it measured anything"
                                    : result.not_run_reason);
  }
  for (const auto& [id, reason] : result.not_run) {
    // Named as the child named its slice (its records' targets), as the records are.
    std::string as_child = result.child_target_id;
    for (const auto& t : result.child_targets) {
      if (t.kind != TargetKind::cpu && id.find("/" + t.id + "/") != std::string::npos)
        as_child = t.id;
    }
    const std::string mapped = replace_segment(id, as_child, result.target.id) + "/mode=" + mode;
    if (std::none_of(parent.not_run.begin(), parent.not_run.end(),
                     [&](const auto& nr) { return nr.first == mapped; }))
      parent.not_run.emplace_back(mapped, reason);
  }
  auto is_the_slice = [&](const std::string& target) {
    if (target == result.child_target_id || target == result.target.id) return true;
    for (const auto& t : result.child_targets)
      if (t.id == target && t.kind != TargetKind::cpu) return true;
    return false;
  };
  for (Record r : result.records) {
    // Inside the child the slice is its only CUDA device (named by its UUID as the slice's id,
    // or "gpu0"): the record names the slice and its mode. The child's CPU baseline is not the
    // slice's.
    if (r.targets.size() != 1 || !is_the_slice(r.targets.front())) continue;
    r.id = replace_segment(r.id, r.targets.front(), result.target.id) + "/mode=" + mode;
    r.targets = {result.target.id};
    r.concurrency = concurrency;
    if (result.start_barrier) r.details["start_barrier"] = barrier_summary(*result.start_barrier);
    if (parent.find_record(r.id) == nullptr) parent.records.push_back(std::move(r));
  }
  if (const auto& b = result.start_barrier) {
    const std::string who = result.target.kind == TargetKind::mig ? "MIG " : "GPUs ";
    nlohmann::json& facts = parent.target_telemetry[result.target.id];
    if (!facts.is_object()) facts = nlohmann::json::object();
    facts[mode + "_start_barrier"] = barrier_json(*b);
    if (!b->setup_error.empty()) {
      add_warning_once(parent, who + mode + ": " + b->setup_error +
                                   "; the slices started measuring unsynchronised");
    } else if (b->children_ready < b->children) {
      add_warning_once(parent, who + mode + ": start barrier released with " +
                                   std::to_string(b->children_ready) + " of " +
                                   std::to_string(b->children) + " slices ready (" +
                                   (b->timed_out ? "timeout" : "the others exited first") +
                                   "); a late slice may have measured while others were idle");
    }
  }
  if (result.failure.empty() && result.records.empty() && !result.stopped) {
    std::string why =
        result.warnings.empty() ? "" : " (the child said: " + result.warnings.front() + ")";
    parent.warnings.push_back(target_noun(result.target) + result.target.id + " (" + mode +
                              "): the child measured nothing" + why);
  }
  if (!result.failure.empty()) {
    parent.warnings.push_back(target_noun(result.target) + result.target.id + " (" + mode +
                              "): " + result.failure + "; " +
                              std::to_string(result.records.size()) + " finished records kept");
  }
}

}  // namespace gpusizer::bench
