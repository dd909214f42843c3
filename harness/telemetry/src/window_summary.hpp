// Statistics of a telemetry window from its samples: energy (counter delta, cross-checked with
// integrated power, with the disagreement flag), power mean/peak/p5/p95, mean clocks and
// utilisation, the busy-sample SM clock ratio, the share of samples per clock-event reason, the
// power-cap and throttle flags, ECC and remapped-row / retired-page deltas, the memory-error
// flag, and transient NVML errors.
// Pure: the sampler collects, this computes.
#pragma once

#include <vector>

#include "gpu_sample.hpp"
#include "gpusizer/telemetry_window.hpp"

namespace gpusizer::telemetry {

inline constexpr double kThrottleClockRatio = 0.75;  // nvbench: clocks under 75% of default
// Counter vs integrated energy: flagged when they differ by more than this share plus one
// counter period over the window's duration (either end of a counter delta can be up to one
// update stale; measured 100 ms on an H200, driver 580). docs/telemetry.md says why 10 %.
inline constexpr double kEnergyDisagreementMargin = 0.10;
inline constexpr double kEnergyCounterPeriodSeconds = 0.1;

// Scope and source are set ("nvml", "GPU board power (NVML)"); attribution is left to the caller.
TelemetryWindow summarize_gpu_window(const std::vector<GpuSample>& samples,
                                     const GpuStatics& statics, double sample_period_seconds);

// Trapezoidal integral of power over time (J) for samples that have power; nullopt for < 2.
std::optional<double> integrate_power_joules(const std::vector<GpuSample>& samples);

}  // namespace gpusizer::telemetry
