// `gpusizer run`: discover targets, plan the suite's cases, run each under Google Benchmark
// through one generic body, and checkpoint the report after every case.
#pragma once

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "gpusizer/bench/case.hpp"
#include "gpusizer/clock.hpp"
#include "gpusizer/kernels/backend.hpp"
#include "gpusizer/report.hpp"
#include "gpusizer/telemetry_probe.hpp"

namespace gpusizer::bench {

struct RunOptions {
  Suite suite = Suite::quick;
  std::filesystem::path out;                            // report path (required unless resume)
  std::optional<std::filesystem::path> resume;          // continue this report
  double time_budget_seconds = 0;                       // 0 = none
  std::optional<SystemTime> deadline;                   // absolute UTC end
  SystemTime start = std::chrono::system_clock::now();  // the time budget counts from here
  bool allow_mixed_resume = false;  // --resume a report of another version/host/suite/GPU model
  // Refuse (InputError) a budget or deadline that leaves no time for any planned case. Off for MIG
  // children: the parent gives each its share of what is left.
  bool check_budget = true;
  // Finish the report (status, history) at the end of run_suite. Off when MIG children follow: the
  // caller calls finish_report (run_control.hpp) after them, and the report stays "running".
  bool finish = true;
  std::string filter;        // regex on case ids; leading '-' negates (Google Benchmark's)
  std::string io_directory;  // where I/O benchmarks create their files
  bool tiny = false;         // smoke sizes (tests)
  bool cpu = true;
  bool gpus = true;
  std::vector<int> gpu_indices;  // CUDA ordinals (only when NVML cannot name the devices)
  // From device selection (harness/telemetry/device_selection.hpp): the devices NVML lists, by
  // which each CUDA device is named, the MIG GPUs whose slices NVML could not list, and what was
  // selected and why (recorded as settings["device_selection"]; null: not recorded).
  std::vector<Target> known_devices;
  std::vector<std::string> gpus_with_unlisted_slices;
  nlohmann::json device_selection;
  std::optional<InstanceType> instance_type;
  bool list_only = false;                   // plan only: RunResult::planned_ids, nothing runs
  int progress = -1;                        // -1 auto (stderr is a terminal), 0 off, 1 on
  std::vector<std::string> benchmark_args;  // --benchmark_* flags passed to Google Benchmark
  std::vector<std::string> command_line;
  // Found by the caller before the run (e.g. GPUs in MIG mode, measured per slice instead):
  // added to the report as they are.
  std::vector<Target> extra_targets;
  // --gpu-mode (concurrent_gpus.hpp), recorded in the report's settings unless "isolated". With
  // "concurrent" alone, the cases of one whole GPU are left to the children: this process plans
  // only the multi-GPU and CPU cases.
  std::string gpu_mode = "isolated";
  std::vector<std::string> extra_warnings;
  // Called once after setup (discovery, idle power, report created) and before the first case
  // is measured: MIG children in concurrent mode wait there at the start barrier.
  std::function<void()> before_first_case;
  // Called after each case's checkpoint with the report so far. A non-empty answer stops the run
  // there: it is the reason recorded for the cases not run (an MPI fleet run, where every rank
  // stops at the same boundary: bench/mpi/fleet_run.cpp).
  std::function<std::string(const Report&)> after_case;
};

// GPU telemetry windows last at least this long: NVML's energy counter updates about every
// 100 ms (median 100.0 ms on an H200, driver 580), so a shorter window misjudges energy.
inline constexpr double kGpuTelemetryWindowSeconds = 1.0;

// Opens each GPU backend's context, then measures idle power: the baseline is a device with a
// context open and nothing running, the state every benchmark starts from. A backend whose
// context cannot be opened is named in `warnings`. Returns the provider's idle facts, each GPU
// entry with its "conditions".
nlohmann::json measure_idle_with_contexts(const std::vector<kernels::Backend*>& backends,
                                          const std::vector<Target>& targets,
                                          TelemetryProvider& telemetry,
                                          std::vector<std::string>& warnings);

struct RunResult {
  Report report;
  int exit_code = 0;                     // 0 ok, 1 a verification failed or a benchmark errored
  std::vector<std::string> planned_ids;  // with list_only: what would run, in order
  std::string stop_cause;                // why the run stopped early ("" when it did not)
};

// Runs the suite into `report` (start_report, run_control.hpp: the caller may have written it as
// the skeleton already). `telemetry` may be null (then every window says telemetry is
// unavailable). `extra_targets` are added to the report (e.g. MIG slices run by child processes).
// A SIGINT/SIGTERM handled by a StopSignals the caller holds ends the run cleanly.
RunResult run_suite(const RunOptions& options, Report report, TelemetryProvider* telemetry,
                    std::ostream& err);

}  // namespace gpusizer::bench
