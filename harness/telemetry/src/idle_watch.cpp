#include "gpusizer/telemetry/idle_watch.hpp"

#include <cstdio>

namespace gpusizer::telemetry {

std::optional<IdleDecision> IdleWatch::update(double t, const std::vector<IdleReading>& round) {
  if (fired_ || !(policy_.idle_after_seconds > 0)) return std::nullopt;
  bool idle = !round.empty();
  undecidable_ = round.empty() ? "no GPU gave a reading" : "";
  for (const auto& g : round) {
    if (!g.utilization_percent || !g.memory_activity_percent) {
      idle = false;
      undecidable_ = g.gpu + ": utilization or memory activity unavailable";
      break;
    }
    if (!(*g.utilization_percent < policy_.max_utilization_percent) ||
        !(*g.memory_activity_percent < policy_.max_memory_activity_percent)) {
      idle = false;
      break;
    }
  }
  if (!idle) {
    idle_since_.reset();
    return std::nullopt;
  }
  if (!idle_since_) idle_since_ = t;
  if (t - *idle_since_ < policy_.idle_after_seconds || t < policy_.grace_seconds)
    return std::nullopt;
  fired_ = true;
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "all %zu GPU(s) idle (utilization < %g %%, memory activity < %g %%) for %.1f s, "
                "since %.1f s after the start (rule: idle for %g s, not before %g s)",
                round.size(), policy_.max_utilization_percent, policy_.max_memory_activity_percent,
                t - *idle_since_, *idle_since_, policy_.idle_after_seconds, policy_.grace_seconds);
  return IdleDecision{*idle_since_, t, buf};
}

}  // namespace gpusizer::telemetry
