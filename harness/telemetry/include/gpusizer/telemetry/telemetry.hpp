// The telemetry provider the runner uses: NVML for GPUs and MIG slices (the parent board's
// sensors), RAPL for the CPU package. Never throws for a machine without a driver or without
// RAPL access: the probes then return "unavailable" windows that say why.
#pragma once

#include <memory>

#include "gpusizer/telemetry_probe.hpp"

namespace gpusizer::telemetry {

struct TelemetryOptions {
  bool enabled = true;
  double sample_period_seconds = 0.1;  // 100 ms: see docs/telemetry.md, "What is sampled"
  double idle_seconds = 3.0;           // idle power measurement per run, before the suite
};

}  // namespace gpusizer::telemetry

namespace gpusizer {

std::unique_ptr<TelemetryProvider> make_telemetry_provider(
    const telemetry::TelemetryOptions& options);

}  // namespace gpusizer
