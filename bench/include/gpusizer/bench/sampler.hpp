// The sampler decides how many timed samples a measurement takes. One rule for every backend,
// after nvbench's stdrel criterion: keep sampling until the relative standard deviation of the
// per-operation time is under `max_noise`, after at least `min_samples` samples and `min_time`
// of measured time; stop anyway when the noise estimate itself has stabilised (inherently noisy
// work), or at the wall-time cap. Each sample runs the operation back to back enough times that
// it lasts at least `min_sample_seconds` (timer resolution, launch overhead).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "gpusizer/kernels/workload.hpp"
#include "gpusizer/vocabulary.hpp"

namespace gpusizer {

// Why a sampling loop stopped: the rule (converged, noise_stable), a cap (time_cap, sample_cap),
// or a limit that cut it short (signal, deadline); none: keep sampling. The record's
// Timing::stop_reason is the text of SampleSet::stop_text(), several repetitions' joined by ','.
#define GPUSIZER_STOP_REASON_VALUES(X) \
  X(none, "")                          \
  X(converged, "converged")            \
  X(noise_stable, "noise_stable")      \
  X(time_cap, "time_cap") X(sample_cap, "sample_cap") X(signal, "signal") X(deadline, "deadline")
GPUSIZER_VOCABULARY(StopReason, GPUSIZER_STOP_REASON_VALUES)

}  // namespace gpusizer

namespace gpusizer::bench {

struct SamplingPolicy {
  std::size_t min_samples = 10;
  std::size_t max_samples = 2000;
  double min_time_seconds = 0.5;      // sum of measured time before convergence may be declared
  double max_noise = 0.005;           // coefficient of variation to reach (0.5 %)
  double time_cap_seconds = 15;       // wall time cap for the sampling loop
  double min_sample_seconds = 0.002;  // each sample at least this long (ops batched)
  // Telemetry on a GPU: the loop (and so the telemetry window around it) lasts at least this
  // long. NVML's energy counter updates about every 100 ms, so a 0.1-0.5 s window sees only 1-5
  // updates and its energy can be off by 20-100 %. A statistical stop before then is held back
  // and the benchmark keeps being sampled (never idle padding); the caps still stop it. 0: off.
  double min_window_seconds = 0;
};

struct SampleSet {
  std::vector<double> seconds_per_op;  // one entry per sample
  std::size_t ops_per_sample = 1;
  std::size_t total_ops = 0;    // including the calibration run
  double measured_seconds = 0;  // sum of timed seconds of all samples
  double wall_seconds = 0;      // wall time of the whole loop
  StopReason stop = StopReason::none;
  // The rule was met earlier and sampling went on to fill min_window_seconds.
  bool held_for_window = false;

  // "converged", "time_cap", ...; "+telemetry_window" appended when held for the window.
  std::string stop_text() const;
};

// What may end a sampling loop before its rule does, checked between samples: a stop request
// (SIGTERM/SIGINT, StopSignals::requested()) and a deadline (the run's budget or --deadline,
// less the margin kept for writing the report).
struct SamplingLimits {
  const std::atomic<bool>* stop_requested = nullptr;
  std::optional<std::chrono::steady_clock::time_point> deadline;
};

// Pure, unit-tested: after a sample, signal when a stop was requested, deadline when the next
// sample (as long as the last one) would end past the deadline, else none.
StopReason limit_reason(bool stop_requested, std::optional<double> seconds_left,
                        double last_sample_seconds);

// Runs `w` (already warmed up) until the policy says stop, or a limit cuts it short (at least one
// sample is always taken). Throws whatever the workload throws.
SampleSet take_samples(kernels::Workload& w, const SamplingPolicy& policy,
                       const SamplingLimits& limits = {});

// The telemetry-window rule on top of stop_reason(), pure: a statistical stop (converged,
// noise_stable) before `min_window_seconds` of wall time becomes none (keep sampling) and sets
// `held_back`; once the window is long enough the stop is returned and `held_back` says it was
// held ("converged+telemetry_window" in the record). The caps (time_cap, sample_cap) always stop.
StopReason apply_min_window(StopReason reason, double wall_seconds, double min_window_seconds,
                            bool& held_back);

// Pure decision function, unit-tested: given per-op times so far, measured time and the history
// of noise estimates, should sampling stop, and why (none = continue).
StopReason stop_reason(const std::vector<double>& seconds_per_op, double measured_seconds,
                       double wall_seconds, const std::vector<double>& noise_history,
                       const SamplingPolicy& policy);

}  // namespace gpusizer::bench
