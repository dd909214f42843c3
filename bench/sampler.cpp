#include "gpusizer/bench/sampler.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "gpusizer/stats.hpp"

namespace gpusizer::bench {
namespace {

// nvbench's fallback for inherently noisy work: once enough noise estimates exist, stop when
// they no longer move (their spread is under 5 % of their mean).
constexpr std::size_t kNoiseWindow = 32;
constexpr double kNoiseStability = 0.05;

}  // namespace

StopReason stop_reason(const std::vector<double>& seconds_per_op, double measured_seconds,
                       double wall_seconds, const std::vector<double>& noise_history,
                       const SamplingPolicy& policy) {
  const std::size_t n = seconds_per_op.size();
  if (n >= policy.min_samples && measured_seconds >= policy.min_time_seconds) {
    Summary s = summarize(seconds_per_op);
    if (s.cv < policy.max_noise) return StopReason::converged;
    if (noise_history.size() >= kNoiseWindow) {
      std::vector<double> recent(noise_history.end() - kNoiseWindow, noise_history.end());
      Summary ns = summarize(recent);
      if (ns.stddev < kNoiseStability * ns.mean) return StopReason::noise_stable;
    }
  }
  if (n >= policy.min_samples && wall_seconds >= policy.time_cap_seconds)
    return StopReason::time_cap;
  if (n >= policy.max_samples) return StopReason::sample_cap;
  // Never run forever, even if a sample takes longer than the cap: at least one sample counts.
  if (n >= 1 && wall_seconds >= 2 * policy.time_cap_seconds) return StopReason::time_cap;
  return StopReason::none;
}

StopReason apply_min_window(StopReason reason, double wall_seconds, double min_window_seconds,
                            bool& held_back) {
  const bool statistical = reason == StopReason::converged || reason == StopReason::noise_stable;
  if (!statistical) return reason;  // none (continue) or a cap
  if (wall_seconds < min_window_seconds) {
    held_back = true;
    return StopReason::none;
  }
  return reason;
}

std::string SampleSet::stop_text() const {
  return std::string(to_string(stop)) + (held_for_window ? "+telemetry_window" : "");
}

StopReason limit_reason(bool stop_requested, std::optional<double> seconds_left,
                        double last_sample_seconds) {
  if (stop_requested) return StopReason::signal;
  if (seconds_left && *seconds_left < last_sample_seconds) return StopReason::deadline;
  return StopReason::none;
}

SampleSet take_samples(kernels::Workload& w, const SamplingPolicy& policy,
                       const SamplingLimits& limits) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  auto wall = [&] { return std::chrono::duration<double>(clock::now() - start).count(); };

  SampleSet set;
  // Calibrate: time one op, then batch so a sample lasts at least min_sample_seconds, but keep a
  // sample short enough that min_samples of them fit in the time cap.
  double one = w.run(1);
  set.total_ops = 1;
  std::size_t repeats = 1;
  if (one > 0 && one < policy.min_sample_seconds) {
    repeats = static_cast<std::size_t>(std::ceil(policy.min_sample_seconds / one));
    double per_sample_cap = policy.time_cap_seconds / static_cast<double>(2 * policy.min_samples);
    auto cap = static_cast<std::size_t>(std::max(1.0, per_sample_cap / one));
    repeats = std::clamp<std::size_t>(repeats, 1, cap);
  }
  set.ops_per_sample = repeats;

  std::vector<double> noise_history;
  bool held_back = false;  // met the rule before min_window_seconds: sampling went on
  while (true) {
    const double sample_start = wall();
    double seconds = w.run(repeats);
    set.total_ops += repeats;
    set.measured_seconds += seconds;
    set.seconds_per_op.push_back(seconds / static_cast<double>(repeats));
    if (set.seconds_per_op.size() >= 2) noise_history.push_back(summarize(set.seconds_per_op).cv);
    const double elapsed = wall();
    set.stop = apply_min_window(
        stop_reason(set.seconds_per_op, set.measured_seconds, elapsed, noise_history, policy),
        elapsed, policy.min_window_seconds, held_back);
    if (set.stop != StopReason::none) {
      set.held_for_window = held_back;
      break;
    }
    std::optional<double> left;
    if (limits.deadline) {
      left = std::chrono::duration<double>(*limits.deadline - clock::now()).count();
    }
    set.stop = limit_reason(limits.stop_requested && limits.stop_requested->load(), left,
                            wall() - sample_start);
    if (set.stop != StopReason::none) break;
  }
  set.wall_seconds = wall();
  return set;
}

}  // namespace gpusizer::bench
