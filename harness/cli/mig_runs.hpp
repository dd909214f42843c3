// After the parent's own run, measure each MIG slice in a child `gpusizer run` (see
// bench/child_runs.hpp) and fold the children's records into the parent report.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpusizer/bench/runner.hpp"
#include "gpusizer/clock.hpp"

namespace gpusizer::cli {

struct MigRunSettings {
  std::vector<std::string> modes;  // "isolated", "concurrent"
  std::string suite;
  bool tiny = false;
  std::string filter;
  std::vector<std::string> benchmark_args;
  double timeout_seconds = 600;
  // The parent's deadline (--deadline, --time-budget): each child is given its share of what is
  // left (--deadline) and a timeout to match.
  std::optional<SystemTime> deadline;
  bool progress = false;  // one line on stderr per mode and per finished child
};

// A child given less than this is not started (its slice/mode is recorded as not run).
inline constexpr double kMinChildSeconds = 5;

// Each child's share of the time left: an equal part per turn still to come (an isolated child is
// one turn, a concurrent batch one), so time a child leaves unused goes to the later ones.
double child_time_share(double seconds_left, std::size_t turns_left);

// The child's command line: `run --child` on its slice, the parent's suite, sizes, filter and
// Google Benchmark flags, and its own deadline when the parent has one.
std::vector<std::string> child_argv(const std::string& exe, const MigRunSettings& settings,
                                    const std::filesystem::path& report,
                                    std::optional<SystemTime> child_deadline);

// Returns 1 when a child failed (its finished records are still kept), else 0. A SIGTERM/SIGINT
// (StopSignals::requested()) is forwarded to the running children; the slices not started are
// recorded as not run.
int run_mig_slices(const std::vector<Target>& slices, const MigRunSettings& settings,
                   bench::RunResult& result, const std::filesystem::path& report_path);

}  // namespace gpusizer::cli
