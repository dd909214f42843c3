// A benchmark case is data: what to run (a factory for the Workload), on which targets, with which
// parameters, how important it is. Families (memory, gemm, io, p2p, collectives) turn a suite and
// the discovered backends into cases; the runner registers each case with Google Benchmark, runs
// it through one generic body (sampler + telemetry + verification) and records the result.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusizer/kernels/discovery.hpp"
#include "gpusizer/kernels/workload.hpp"

namespace gpusizer::bench {

enum class Suite { quick, standard, full };
std::string to_string(Suite s);
Suite suite_from_string(const std::string& s);  // throws InputError

struct BenchCase {
  // Unique, stable id; also the Google Benchmark name. Convention:
  // "<family>/<operation>/<target>/<param>=<value>/..." e.g.
  // "memory/stream_triad/cpu/bytes=268435456"
  std::string id;
  Family family = Family::memory;
  std::string operation;  // "stream_triad", "h2d_pinned", "bf16", "all_reduce", "p2p_ce_read"...
  std::vector<std::string> targets;  // target ids; several for multi-GPU cases
  nlohmann::json parameters = nlohmann::json::object();
  // Lower runs first. Under a time budget, the most informative cases for sizing come first:
  // 0 headline (peak GEMM per dtype, STREAM triad, pinned H2D), 1 sweeps, 2 secondary.
  int priority = 1;
  double estimated_seconds = 1;  // for progress and for skipping what cannot fit a budget
  // Prepares the workload (allocations, inputs). Throws gpusizer::Unsupported with the reason when
  // the target cannot run this case.
  std::function<std::unique_ptr<kernels::Workload>()> make;
};

struct SuiteContext {
  Suite suite = Suite::quick;
  kernels::Discovery* discovery = nullptr;
  std::string io_directory;  // where I/O benchmarks create their files
  bool tiny = false;         // smoke-test sizes (tests, CI): every case, smallest sizes
};

using CaseList = std::vector<BenchCase>;

// Each family appends its cases for every backend that can take them.
void add_memory_cases(const SuiteContext& ctx, CaseList& out);
void add_gemm_cases(const SuiteContext& ctx, CaseList& out);
void add_io_cases(const SuiteContext& ctx, CaseList& out);
void add_collective_cases(const SuiteContext& ctx, CaseList& out);  // NCCL; multi-GPU
void add_p2p_cases(const SuiteContext& ctx, CaseList& out);         // GPU pairs, all-to-host

// All families, in priority order, for one suite.
CaseList plan_cases(const SuiteContext& ctx);

}  // namespace gpusizer::bench
