#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "gpusizer/bench/sampler.hpp"

namespace gpusizer::bench {
namespace {

// A workload whose timer returns scripted per-op times, so the sampler's decisions are exact.
class ScriptedWorkload final : public kernels::Workload {
 public:
  explicit ScriptedWorkload(std::vector<double> per_op) : per_op_(std::move(per_op)) {}
  double run(std::size_t repeats) override {
    double t = per_op_[std::min(calls_, per_op_.size() - 1)];
    ++calls_;
    repeats_seen_.push_back(repeats);
    return t * static_cast<double>(repeats);
  }
  Verification verify() override { return {}; }
  kernels::WorkAmount work_per_op() const override { return {}; }
  Timer timer() const override { return Timer::steady_clock; }
  std::size_t calls_ = 0;
  std::vector<std::size_t> repeats_seen_;

 private:
  std::vector<double> per_op_;
};

SamplingPolicy policy() {
  SamplingPolicy p;
  p.min_samples = 5;
  p.min_time_seconds = 0.0;
  p.max_noise = 0.01;
  p.time_cap_seconds = 10;
  p.min_sample_seconds = 0.001;
  return p;
}

TEST(Sampler, StopsAsSoonAsConvergedAfterMinSamples) {
  // Constant 1 ms per op: calibration + 5 samples, CV 0 -> "converged".
  ScriptedWorkload w({0.001});
  SampleSet s = take_samples(w, policy());
  EXPECT_EQ(s.stop_text(), "converged");
  EXPECT_EQ(s.seconds_per_op.size(), 5u);
  EXPECT_EQ(s.ops_per_sample, 1u);
  EXPECT_EQ(s.total_ops, 6u);  // 1 calibration op + 5 samples
  EXPECT_NEAR(s.measured_seconds, 0.005, 1e-12);
}

TEST(Sampler, BatchesShortOpsToTheMinimumSampleTime) {
  // 10 us per op, samples must last >= 1 ms: 100 ops per sample.
  ScriptedWorkload w({1e-5});
  SampleSet s = take_samples(w, policy());
  EXPECT_EQ(s.ops_per_sample, 100u);
  EXPECT_EQ(w.repeats_seen_.front(), 1u);
  EXPECT_EQ(w.repeats_seen_.back(), 100u);
}

TEST(Sampler, KeepsSamplingWhileNoisy) {
  // Alternating 1 ms / 2 ms never gets under 1 % CV; the noise estimate settles, so the
  // noise-stability rule ends it (not the sample cap).
  std::vector<double> times;
  for (int i = 0; i < 400; ++i) times.push_back(i % 2 ? 0.002 : 0.001);
  ScriptedWorkload w(times);
  SampleSet s = take_samples(w, policy());
  EXPECT_EQ(s.stop_text(), "noise_stable");
  EXPECT_GT(s.seconds_per_op.size(), 32u);
}

TEST(Sampler, StopReasonRules) {
  SamplingPolicy p = policy();
  p.min_time_seconds = 1.0;
  std::vector<double> flat(5, 0.001);
  // Converged noise but not enough measured time: continue.
  EXPECT_EQ(to_string(stop_reason(flat, 0.005, 0.1, {}, p)), "");
  EXPECT_EQ(to_string(stop_reason(flat, 1.0, 0.1, {}, p)), "converged");
  std::vector<double> noisy{0.001, 0.002, 0.001, 0.002, 0.001};
  EXPECT_EQ(to_string(stop_reason(noisy, 1.0, 0.1, {}, p)), "");
  EXPECT_EQ(to_string(stop_reason(noisy, 1.0, 10.0, {}, p)), "time_cap");
  // Fewer than min_samples: the cap waits for min_samples, unless twice the cap has passed.
  std::vector<double> two{1.0, 1.0};
  EXPECT_EQ(to_string(stop_reason(two, 2.0, 15.0, {}, p)), "");
  EXPECT_EQ(to_string(stop_reason(two, 2.0, 20.0, {}, p)), "time_cap");
  p.max_samples = 5;
  EXPECT_EQ(to_string(stop_reason(noisy, 0.0, 0.0, {}, p)), "sample_cap");
}

// A workload that takes real wall time (the telemetry window is wall time), with constant
// per-op times so the statistical rule is met after min_samples.
class SleepingWorkload final : public kernels::Workload {
 public:
  double run(std::size_t repeats) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    ++calls_;
    return 0.002 * static_cast<double>(repeats);
  }
  Verification verify() override { return {}; }
  kernels::WorkAmount work_per_op() const override { return {}; }
  Timer timer() const override { return Timer::steady_clock; }
  std::size_t calls_ = 0;
};

TEST(Sampler, TelemetryWindowKeepsSamplingTheBenchmarkUntilItIsLongEnough) {
  // Converged after 5 samples (~12 ms of wall time); a 0.15 s minimum window keeps the
  // benchmark running (more samples, never idle) and the stop reason says why.
  SamplingPolicy p = policy();
  p.min_sample_seconds = 0.001;
  SleepingWorkload quick;
  SampleSet plain = take_samples(quick, p);
  EXPECT_EQ(plain.stop_text(), "converged");
  EXPECT_LT(plain.wall_seconds, 0.1);
  p.min_window_seconds = 0.15;
  SleepingWorkload w;
  SampleSet s = take_samples(w, p);
  EXPECT_EQ(s.stop_text(), "converged+telemetry_window");
  EXPECT_GE(s.wall_seconds, 0.15);
  EXPECT_GT(s.seconds_per_op.size(), 5u * 5);  // sampled all along: ~70 samples of 2 ms
  EXPECT_NEAR(s.measured_seconds, 0.002 * static_cast<double>(s.seconds_per_op.size()), 1e-9);
}

TEST(Sampler, TheWindowRuleHoldsBackOnlyStatisticalStops) {
  using R = StopReason;
  bool held = false;
  EXPECT_EQ(apply_min_window(R::converged, 0.3, 1.0, held), R::none);
  EXPECT_TRUE(held);
  EXPECT_EQ(apply_min_window(R::noise_stable, 1.2, 1.0, held), R::noise_stable);
  EXPECT_TRUE(held);  // the record says "noise_stable+telemetry_window"
  SampleSet after_window;
  after_window.stop = R::noise_stable;
  after_window.held_for_window = held;
  EXPECT_EQ(after_window.stop_text(), "noise_stable+telemetry_window");
  bool fresh = false;
  EXPECT_EQ(apply_min_window(R::converged, 1.2, 1.0, fresh), R::converged);  // never held back
  EXPECT_FALSE(fresh);
  EXPECT_EQ(apply_min_window(R::time_cap, 0.3, 1.0, fresh), R::time_cap);  // caps always stop
  EXPECT_EQ(apply_min_window(R::sample_cap, 0.3, 1.0, fresh), R::sample_cap);
  EXPECT_EQ(apply_min_window(R::none, 0.3, 1.0, fresh), R::none);
  EXPECT_EQ(apply_min_window(R::converged, 0.01, 0.0, fresh), R::converged);  // off
  EXPECT_FALSE(fresh);
}

// A workload that raises the stop flag (as the SIGTERM handler does) during its n-th run.
class StoppingWorkload final : public kernels::Workload {
 public:
  StoppingWorkload(std::atomic<bool>& flag, std::size_t stop_during_call)
      : flag_(flag), stop_during_(stop_during_call) {}
  double run(std::size_t repeats) override {
    if (++calls_ == stop_during_) flag_.store(true);
    return 0.001 * static_cast<double>(repeats) * (calls_ % 2 ? 1.0 : 1.5);  // noisy: no converging
  }
  Verification verify() override { return {}; }
  kernels::WorkAmount work_per_op() const override { return {}; }
  Timer timer() const override { return Timer::steady_clock; }
  std::size_t calls_ = 0;

 private:
  std::atomic<bool>& flag_;
  std::size_t stop_during_;
};

TEST(Sampler, AStopRequestEndsTheLoopAfterTheSampleInFlight) {
  std::atomic<bool> stop{false};
  StoppingWorkload w(stop, 4);  // calibration, samples 1 and 2, then the flag rises in sample 3
  SamplingPolicy p = policy();
  p.min_samples = 50;
  SampleSet s = take_samples(w, p, SamplingLimits{&stop, std::nullopt});
  EXPECT_EQ(s.stop_text(), "signal");
  EXPECT_EQ(s.seconds_per_op.size(), 3u);
  EXPECT_EQ(w.calls_, 4u) << "no sample may start after the stop request";
}

TEST(Sampler, ADeadlineAlreadyPassedAllowsOneSample) {
  std::atomic<bool> stop{false};
  StoppingWorkload w(stop, 0);
  SamplingPolicy p = policy();
  p.min_samples = 50;
  const auto past = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  SampleSet s = take_samples(w, p, SamplingLimits{&stop, past});
  EXPECT_EQ(s.stop_text(), "deadline");
  EXPECT_EQ(s.seconds_per_op.size(), 1u);
}

TEST(Sampler, LimitRules) {
  EXPECT_EQ(to_string(limit_reason(true, std::nullopt, 0.1)), "signal");
  EXPECT_EQ(to_string(limit_reason(true, 100.0, 0.1)), "signal");
  EXPECT_EQ(to_string(limit_reason(false, std::nullopt, 0.1)), "");
  EXPECT_EQ(to_string(limit_reason(false, 0.5, 0.1)), "");
  EXPECT_EQ(to_string(limit_reason(false, 0.05, 0.1)), "deadline")
      << "the next sample would end too late";
  EXPECT_EQ(to_string(limit_reason(false, -1.0, 0.0)), "deadline");
}

}  // namespace
}  // namespace gpusizer::bench
