// Statistics of a telemetry window from its samples: energy (counter delta, cross-checked with
// integrated power), power mean/peak/p5/p95, mean clocks and utilisation, throttle and ECC flags,
// remapped-row / retired-page deltas and the memory-error flag.
// Pure: the sampler collects, this computes.
#pragma once

#include <vector>

#include "gpu_sample.hpp"
#include "gpusizer/telemetry_window.hpp"

namespace gpusizer::telemetry {

inline constexpr double kThrottleClockRatio = 0.75;  // nvbench: clocks under 75% of default

// Scope and source are set ("nvml", "GPU board power (NVML)"); attribution is left to the caller.
TelemetryWindow summarize_gpu_window(const std::vector<GpuSample>& samples,
                                     const GpuStatics& statics, double sample_period_seconds);

// Trapezoidal integral of power over time (J) for samples that have power; nullopt for < 2.
std::optional<double> integrate_power_joules(const std::vector<GpuSample>& samples);

}  // namespace gpusizer::telemetry
