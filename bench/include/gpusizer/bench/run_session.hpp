// `gpusizer run`, from the request to the finished report: the one entry point the CLI calls
// (harness/cli/run.cpp parses the flags and prints what comes back). The steps, in order:
//   1. check every flag (prepare_run: nothing is written before it passed);
//   2. the report's lock, the refusal to overwrite, the skeleton on disk (report_lock.hpp);
//   3. the instance type, telemetry, the devices chosen by NVML UUID;
//   4. the suite: run_suite (runner.hpp: plan, resume, measure each case, checkpoint), or this
//      rank's share of an MPI fleet run (fleet.hpp);
//   5. the MIG slices in child processes, and the report finished (mig_runs.hpp);
//   6. the exit code and the closing line (run_finish.hpp).
#pragma once

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "gpusizer/bench/run_finish.hpp"
#include "gpusizer/bench/run_request.hpp"
#include "gpusizer/bench/runner.hpp"

namespace gpusizer::bench {

// A request checked and turned into run options, with nothing written yet.
struct PreparedRun {
  RunRequest request;  // with --resume: the report's settings filled in
  RunOptions options;
  std::vector<int> requested_gpus;  // --gpus
  double telemetry_period_seconds = 0.1;
  std::vector<Concurrency> mig_modes;
  std::vector<Concurrency> gpu_modes;  // --gpu-mode: isolated and/or concurrent
  // The report this run goes on writing: --resume's, except under MPI, where request.resume is
  // this rank's own part of the fleet report and `continued` the fleet report itself.
  std::string continued;
};

// Step 1: every flag checked (InputError naming it), --resume's settings inherited,
// --benchmark_list_tests taken as --list, the Google Benchmark flags given to Google Benchmark.
// Touches no file. `continued`: see PreparedRun (empty: request.resume).
PreparedRun prepare_run(RunRequest request, std::string continued = {});

struct RunSessionResult {
  RunResult result;
  std::filesystem::path out;
  bool list_only = false;                   // result.planned_ids holds the plan; nothing ran
  std::vector<std::string> device_notes;    // with --list: how the devices were chosen
  bool print_summary = false;               // the caller prints the targets and the records
  std::optional<RunConclusion> conclusion;  // the closing line to print (none for a MIG child)
  int exit_code = 0;
};

// Steps 1 to 6. A StopSignals held by the caller makes SIGINT/SIGTERM stop the run cleanly.
// `err`: progress and notes. A refused run (InputError) leaves no report behind.
RunSessionResult run_session(RunRequest request, std::ostream& err);

}  // namespace gpusizer::bench
