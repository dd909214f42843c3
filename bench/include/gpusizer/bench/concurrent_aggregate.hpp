// Whole GPUs loaded together (concurrent_gpus.hpp) give one record per GPU and case; this adds,
// per case, the aggregate over the GPUs that ran it at the same time: what the machine delivers
// with every GPU busy (shared power, cooling and host link).
#pragma once

#include <string>
#include <vector>

#include "gpusizer/report.hpp"

namespace gpusizer::bench {

// The flag an aggregate record carries; sizing never takes it for one device's figure.
inline constexpr const char* kAggregateFlag = "aggregate";

// How a record's target was loaded: "isolated" | "concurrent" (MIG slices and whole GPUs loaded
// together), "" for whole-GPU records of the default mode. The one place bench reads it.
Concurrency load_mode(const Record& r);

// Per case (the record id less its target), one aggregate record over the concurrent whole-GPU
// records of status "ok" on two or more GPUs whose wall windows (started_at + duration_seconds)
// overlap: target "gpuA+gpuB+...", id "<family>/<operation>/gpuA+gpuB/<params>/mode=concurrent",
// mode "concurrent", flag "aggregate". Rates (units ".../s") are summed, every other metric is
// the mean over the GPUs (each metric's description says which); the telemetry windows are
// combined across devices; details give the GPUs, the overlap of their windows and the spread of
// their start times. Records already in the report (by id) are not returned again.
std::vector<Record> concurrent_aggregates(const Report& report);

}  // namespace gpusizer::bench
