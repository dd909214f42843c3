// `gpusizer run --gpu-mode concurrent|both`: every whole GPU measured at the same time, the
// production-like case (shared power, cooling and host link) and, on an 8-GPU machine, about 8x
// faster than one GPU after another. Each GPU gets a child `gpusizer run` (child_runs.hpp, the
// machinery of MIG's concurrent mode) that sees only that GPU and measures its per-GPU cases; the
// children meet at the start barrier and are released together. Their records carry mode
// "concurrent"; per case an aggregate record over the GPUs is added (concurrent_aggregate.hpp).
// Multi-GPU families (P2P, collectives) and the CPU baseline stay in the parent, as in isolated
// mode.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "gpusizer/bench/mig_runs.hpp"
#include "gpusizer/bench/runner.hpp"

namespace gpusizer::bench {

// --gpu-mode: "isolated" (default: one GPU after another, in this process, as before),
// "concurrent" (all at once, in children), "both" (isolated, then concurrent). InputError else.
std::vector<Concurrency> gpu_modes(const std::string& gpu_mode);

// A test seam, for machines without a GPU (there is no fake CUDA): with
// GPUSIZER_TEST_GPU_STAND_IN=cpu each GPU's child measures its CPU cases instead, as a stand-in
// for its GPU, so the orchestration (children, barrier, per-GPU records, aggregates, resume,
// stop) runs end to end. Every such record carries the flag "simulated" and says so in its
// details, the report says so in its warnings, and sizing never uses them.
inline constexpr const char* kGpuStandInEnv = "GPUSIZER_TEST_GPU_STAND_IN";
inline constexpr const char* kSimulatedFlag = "simulated";
bool gpu_stand_in_requested();

// After the parent's own run (and before MIG children, finish_with_mig_children): one child per
// GPU, all released together, merged into result.report with the aggregates, and a checkpoint.
// When the parent was stopped already, every GPU is recorded as not run ("gpu/<id>/mode=
// concurrent"); a stop during the children (signal, time budget) sets result.stop_cause.
// A failed child sets result.exit_code to 1 (its finished records are kept). --resume: GPUs
// measured already (mig_partition's rule) are not run again.
void run_concurrent_gpus(const std::vector<Target>& gpus, MigRunSettings settings,
                         RunResult& result, const std::filesystem::path& report_path);

}  // namespace gpusizer::bench
