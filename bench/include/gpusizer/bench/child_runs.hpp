// MIG slices are measured in child processes: a CUDA process sees one MIG device only, so the
// parent starts `gpusizer run` once per slice with CUDA_VISIBLE_DEVICES=MIG-<uuid>, one at a time
// ("isolated": each slice's own ceiling) or all at once ("concurrent": what a packed GPU delivers
// per slice). A child that crashes or hangs is stopped (timeout), its failure is recorded, and
// whatever it had checkpointed is kept; the parent goes on.
//
// Concurrent children start measuring together: a start barrier. Each child gets two inherited
// descriptors, named in GPUSIZER_START_BARRIER="<ready fd>,<go fd>"; when its setup is done
// (discovery, CUDA context, idle power) it writes one byte to the first and blocks reading the
// second. The parent closes the go pipe, releasing every child at once, when all are ready (or
// have exited), or after the barrier timeout; how long it waited and who was ready is recorded.
#pragma once

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpusizer/report.hpp"

namespace gpusizer::bench {

struct ChildSpec {
  Target target;                  // the slice (kind "mig") the child measures
  std::vector<std::string> argv;  // full command line; argv[0] is the program path
  std::vector<std::pair<std::string, std::string>> env;  // added to the parent's environment
  std::filesystem::path report;                          // where the child writes its report
  std::string child_target_id = "gpu0";  // how the child names the slice (its only CUDA device)
};

// What the concurrent-mode start barrier saw, from one child's side.
struct StartBarrierResult {
  std::string setup_error;            // not empty: no barrier (the children started unsynchronised)
  bool reached = false;               // this child signalled ready before the release
  double ready_after_seconds = 0;     // from the first child's start to this child's signal
  std::string ready_at;               // ISO 8601 UTC; empty when not reached
  double released_after_seconds = 0;  // from the first child's start to the release
  std::string released_at;            // ISO 8601 UTC
  std::size_t children = 0;           // started together
  std::size_t children_ready = 0;     // ready before the release
  bool timed_out = false;             // released by the timeout, not because all were ready
};

struct ChildResult {
  Target target;
  std::string child_target_id = "gpu0";
  std::vector<Record> records;        // from the child's report (even after a crash)
  std::vector<Target> child_targets;  // the child report's targets (how it named the slice)
  std::vector<std::string> warnings;  // the child report's own warnings
  // The child report's not_run entries (the child's own benchmark ids) and whether the child
  // stopped early: it exited with kExitStopped, or it was stopped for the parent (SIGTERM
  // forwarded; a child gone by that signal counts too). A stop is not a failure.
  std::vector<std::pair<std::string, std::string>> not_run;
  bool stopped = false;
  // Not started: the parent was stopped (signal) before this child's turn; `not_run_reason` says
  // why (also set for a child stopped by the parent's signal). Nothing else is set.
  bool not_started = false;
  std::string not_run_reason;
  std::string failure;  // "" when the child exited 0, 3 (stopped) or 4 (empty)
  int exit_code = 0;    // child's exit code, or 128 + signal
  double seconds = 0;
  std::optional<StartBarrierResult> start_barrier;  // concurrent mode only
};

inline constexpr const char* kStartBarrierEnv = "GPUSIZER_START_BARRIER";
inline constexpr double kStartBarrierTimeoutSeconds = 120;

// After a stop request, how long the parent waits for its children to write their reports and
// exit before it kills them.
inline constexpr double kChildStopGraceSeconds = 30;

// Runs the children isolated (one after another) or concurrently, each within timeout_seconds
// (SIGTERM, then SIGKILL 5 s later). Concurrent children pass the start barrier, released at
// the latest barrier_timeout_seconds after the first started. Once `*stop_requested` is set (the
// parent got SIGTERM/SIGINT) the barrier is released, SIGTERM is forwarded to every running child
// (which stops after its current sample and writes its report; SIGKILL after
// kChildStopGraceSeconds), and no further child starts (not_started). Never throws for a child's
// failure.
std::vector<ChildResult> run_children(const std::vector<ChildSpec>& children, bool concurrent,
                                      double timeout_seconds,
                                      double barrier_timeout_seconds = kStartBarrierTimeoutSeconds,
                                      const std::atomic<bool>* stop_requested = nullptr);

// In a child: when GPUSIZER_START_BARRIER names the barrier's descriptors, signals ready and
// blocks until the parent releases it; returns the seconds it waited (nullopt without a
// barrier). Never throws: a broken barrier only means the child starts at once.
std::optional<double> wait_at_start_barrier();

// Adds a child's records to the parent report: the record ids and targets name the slice (the
// child saw it as its only GPU and named it by its UUID, or "gpu0" where it could not) and each
// record carries the mode. Failures become warnings.
// A child's not_run entries are added with their ids mapped the same way; a child not started,
// or stopped before it recorded anything, adds one entry, "mig/<slice>/mode=<mode>" ("gpu/<gpu>/
// mode=<mode>" for a whole GPU), with its reason (not_run_reason).
// The start barrier goes into target_telemetry[slice]["concurrent_start_barrier"] and each
// record's details ("start_barrier"); a child that missed it, or a timeout, becomes a warning.
void merge_child_result(Report& parent, const ChildResult& result, Concurrency concurrency);

}  // namespace gpusizer::bench
