// Measuring one case, the step run_suite repeats: the case is registered alone with Google
// Benchmark and run through one generic body (warm-up, the sampler inside a telemetry window, per
// repetition), then verified; the outcome becomes the case's record (record_builder.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "gpusizer/bench/case.hpp"
#include "gpusizer/bench/gbench_bridge.hpp"
#include "gpusizer/bench/sampler.hpp"
#include "gpusizer/report.hpp"
#include "gpusizer/telemetry_probe.hpp"

namespace gpusizer::bench {

// What a case needs from the run around it.
struct CaseSetting {
  const Report* report = nullptr;  // targets (kinds) and their idle power
  // The telemetry probe of a target (one per target for the whole run).
  std::function<TelemetryProbe&(const std::string& target_id)> probe_for;
  SamplingPolicy policy;  // already capped by the time left
  SamplingLimits limits;  // stop flag and deadline, checked between samples
  std::function<std::optional<double>()> seconds_left;  // before the deadline, less the margin
  std::optional<double> seconds_left_at_start;          // when the case begins
  std::int64_t requested_repetitions = 1;               // --benchmark_repetitions
  GbenchCollector* collector = nullptr;
};

struct MeasuredCase {
  Record record;
  std::string cut_short;  // why sampling or repetitions stopped early ("" when they did not)
  double seconds = 0;     // wall time of the case
};

MeasuredCase measure_case(const BenchCase& c, const CaseSetting& setting);

}  // namespace gpusizer::bench
