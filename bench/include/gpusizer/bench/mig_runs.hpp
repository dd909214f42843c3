// After the parent's own run, measure each MIG slice in a child `gpusizer run` (child_runs.hpp)
// and fold the children's records into the parent report: which slices run in which mode and
// turn (the partition), each turn's share of the time left, the children's command lines, and the
// end of a run with MIG children.
#pragma once

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "gpusizer/bench/runner.hpp"
#include "gpusizer/clock.hpp"

namespace gpusizer::bench {

struct MigRunSettings {
  std::vector<Concurrency> modes;  // isolated, concurrent
  std::string suite;
  bool tiny = false;
  std::string filter;
  std::vector<std::string> benchmark_args;
  double timeout_seconds = 600;
  // The parent's deadline (--deadline, --time-budget): each child is given its share of what is
  // left (--deadline) and a timeout to match.
  std::optional<SystemTime> deadline;
  std::ostream* progress = nullptr;  // one line per mode and per finished child; null: none
  // What each child measures, for the progress lines: a MIG slice, or a whole GPU loaded
  // together with the others (concurrent_gpus.hpp).
  TargetKind children = TargetKind::mig;
  // Tests only (concurrent_gpus.hpp, GPUSIZER_TEST_GPU_STAND_IN=cpu): each child measures its CPU
  // cases as a stand-in for its target, whose records say so; never on a real run.
  bool cpu_stand_in = false;
  // Called with the report after each mode's children are merged, before its checkpoint.
  std::function<void(Report&)> before_checkpoint;
};

// A child given less than this is not started (its slice/mode is recorded as not run).
inline constexpr double kMinChildSeconds = 5;

// --mig-mode: "both" is isolated then concurrent; "isolated", "concurrent" alone; "off" none.
// InputError for anything else.
std::vector<Concurrency> mig_modes(const std::string& mig_mode);

// The slices one mode still has to measure: all of them, less those a resumed report measured
// already (records of that slice and mode, and no not_run entry left for them).
struct MigModeRun {
  Concurrency mode = Concurrency::isolated;
  std::vector<Target> slices;
  // Children run one at a time (isolated: one turn each) or all at once (concurrent: one turn).
  std::size_t turns() const;
};
std::vector<MigModeRun> mig_partition(const std::vector<Target>& slices,
                                      const std::vector<Concurrency>& modes, const Report& report);

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
                   RunResult& result, const std::filesystem::path& report_path);

// run_mig_slices, then the stop cause: the signal's, else, when the children left benchmarks out,
// "time budget: <n> <what> did not fit". A failed child sets result.exit_code to 1.
void run_children_under_run_control(const std::vector<Target>& targets,
                                    const MigRunSettings& settings, RunResult& result,
                                    const std::filesystem::path& report_path,
                                    const std::string& what);

// The end of a run whose parent measured its own targets already: the slices' children run
// (unless the parent was stopped: then every slice and mode is recorded as not run with the
// parent's stop cause), the stop cause covers what they left out, and the report is finished and
// saved at `report_path`.
void finish_with_mig_children(const std::vector<Target>& slices, const MigRunSettings& settings,
                              RunResult& result, const std::filesystem::path& report_path);

}  // namespace gpusizer::bench
