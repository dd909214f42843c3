// After the parent's own run, measure each MIG slice in a child `gpusizer run` (see
// bench/child_runs.hpp) and fold the children's records into the parent report.
#pragma once

#include <string>
#include <vector>

#include "gpusizer/bench/runner.hpp"

namespace gpusizer::cli {

struct MigRunSettings {
  std::vector<std::string> modes;  // "isolated", "concurrent"
  std::string suite;
  bool tiny = false;
  std::string filter;
  std::vector<std::string> benchmark_args;
  double timeout_seconds = 600;
  bool progress = false;  // one line on stderr per mode and per finished child
};

// Returns 1 when a child failed (its finished records are still kept), else 0.
int run_mig_slices(const std::vector<Target>& slices, const MigRunSettings& settings,
                   bench::RunResult& result, const std::filesystem::path& report_path);

}  // namespace gpusizer::cli
