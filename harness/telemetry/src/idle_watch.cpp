#include "gpusizer/telemetry/idle_watch.hpp"

#include <cstdio>

namespace gpusizer::telemetry {
namespace {

enum class Verdict { idle, busy, unknown };

// One reading against the policy; `by_memory` is set when a MIG slice was judged by memory used.
Verdict judge(const IdleReading& g, const IdlePolicy& p, bool& by_memory) {
  by_memory = false;
  if (g.utilization_percent && g.memory_activity_percent) {
    return *g.utilization_percent < p.max_utilization_percent &&
                   *g.memory_activity_percent < p.max_memory_activity_percent
               ? Verdict::idle
               : Verdict::busy;
  }
  if (g.mig_slice && g.memory_used_mib) {
    by_memory = true;
    return *g.memory_used_mib < p.max_mig_memory_used_mib ? Verdict::idle : Verdict::busy;
  }
  return Verdict::unknown;
}

}  // namespace

std::optional<IdleDecision> IdleWatch::update(double t, const std::vector<IdleReading>& round) {
  if (fired_ || !(policy_.idle_after_seconds > 0)) return std::nullopt;
  bool idle = !round.empty();
  undecidable_ = round.empty() ? "no GPU gave a reading" : "";
  std::size_t gpus = 0, slices = 0, slices_by_memory = 0;
  for (const auto& g : round) {
    bool by_memory = false;
    const Verdict v = judge(g, policy_, by_memory);
    if (v == Verdict::unknown) {
      idle = false;
      undecidable_ = g.gpu + (g.mig_slice ? ": neither utilization nor memory used available"
                                          : ": utilization or memory activity unavailable");
      break;
    }
    if (v == Verdict::busy) {
      idle = false;
      break;
    }
    (g.mig_slice ? slices : gpus) += 1;
    slices_by_memory += by_memory ? 1 : 0;
  }
  if (!idle) {
    idle_since_.reset();
    return std::nullopt;
  }
  if (!idle_since_) idle_since_ = t;
  if (t - *idle_since_ < policy_.idle_after_seconds || t < policy_.grace_seconds)
    return std::nullopt;
  fired_ = true;
  char what[96], thresholds[160], how_long[200];
  if (slices == 0)
    std::snprintf(what, sizeof what, "all %zu GPU(s)", gpus);
  else if (gpus == 0)
    std::snprintf(what, sizeof what, "all %zu MIG slice(s)", slices);
  else
    std::snprintf(what, sizeof what, "all %zu GPU(s) and %zu MIG slice(s)", gpus, slices);
  std::snprintf(thresholds, sizeof thresholds, "utilization < %g %%, memory activity < %g %%",
                policy_.max_utilization_percent, policy_.max_memory_activity_percent);
  std::string rule = thresholds;
  if (slices_by_memory > 0) {
    std::snprintf(thresholds, sizeof thresholds,
                  "; %zu MIG slice(s) without utilization: memory used < %g MiB", slices_by_memory,
                  policy_.max_mig_memory_used_mib);
    rule += thresholds;
  }
  std::snprintf(how_long, sizeof how_long,
                " for %.1f s, since %.1f s after the start (rule: idle for %g s, not before %g s)",
                t - *idle_since_, *idle_since_, policy_.idle_after_seconds, policy_.grace_seconds);
  return IdleDecision{*idle_since_, t, std::string(what) + " idle (" + rule + ")" + how_long};
}

}  // namespace gpusizer::telemetry
