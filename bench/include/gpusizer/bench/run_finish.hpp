// How a `gpusizer run` ends: its exit code (exit_codes.hpp) and the one line that says where the
// report is, what it holds and, when the run stopped early or measured nothing, why.
#pragma once

#include <filesystem>
#include <string>

#include "gpusizer/bench/runner.hpp"

namespace gpusizer::bench {

// The exit code before the "nothing measured" check: a failure, else stopped, else ok. An MPI rank
// other than 0 ends with this alone (its share of a host may well be empty).
int exit_code_of(const RunResult& result);

struct RunConclusion {
  std::string line;  // "report: <file> (N records, status S...)", without the newline
  int exit_code = 0;
};

// `cpu`, `gpus_skipped`, `gpus`: what the run was asked to measure (--no-cpu, --no-gpu, whether
// GPUs were looked for), to say why a run found no target.
RunConclusion conclude(const RunResult& result, const std::filesystem::path& out, bool cpu,
                       bool gpus_skipped, bool gpus);

}  // namespace gpusizer::bench
