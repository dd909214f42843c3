// gpusizer run: the main job on a rented machine. Measures every target (CPU, each GPU), writes
// the report after every finished benchmark, and prints the devices and the results.
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "commands.hpp"
#include "gpusizer/bench/child_runs.hpp"
#include "gpusizer/bench/fleet.hpp"
#include "gpusizer/bench/gbench_bridge.hpp"
#include "gpusizer/bench/run_control.hpp"
#include "gpusizer/bench/runner.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/exit_codes.hpp"
#include "gpusizer/host_info.hpp"
#include "gpusizer/imds.hpp"
#include "gpusizer/printers.hpp"
#include "gpusizer/report_io.hpp"
#include "gpusizer/report_lock.hpp"
#include "gpusizer/stop_signals.hpp"
#include "gpusizer/telemetry/device_selection.hpp"
#include "gpusizer/telemetry/nvml_inventory.hpp"
#include "gpusizer/telemetry/telemetry.hpp"
#include "mig_runs.hpp"

namespace gpusizer::cli {
namespace {

struct RunArgs {
  std::string suite = "quick";
  std::string out;
  std::string resume;
  std::string time_budget;
  std::string deadline;
  std::string filter;
  std::string io_dir;
  std::string instance_type;
  std::string gpus;
  std::string format = "table";
  bool tiny = false;
  bool no_gpu = false;
  bool no_cpu = false;
  bool list = false;
  bool no_telemetry = false;
  bool progress = false;
  bool no_progress = false;
  bool imds = false;   // opt-in: ask the EC2 metadata service for the type
  bool child = false;  // set on MIG children: no recursion
  bool force = false;  // --force: replace an existing report
  bool allow_mixed_resume = false;
  std::string mig_mode = "both";  // isolated | concurrent | both | off
  std::string telemetry_period = "100ms";
  std::vector<std::string> command_line;
};

constexpr int kMaxGpuIndex = 1023;  // NVML indices; no machine has more GPUs than this

std::vector<int> parse_gpu_list(const std::string& text) {
  std::vector<int> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    int index = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), index);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size() || index < 0 ||
        index > kMaxGpuIndex) {
      throw InputError("--gpus: expected a comma-separated list of GPU indices (0 to " +
                       std::to_string(kMaxGpuIndex) + "), got \"" + text + "\"");
    }
    out.push_back(index);
  }
  return out;
}

std::string default_report_name(const std::string& suite) {
  std::string stamp = now_iso8601_utc();  // 2026-11-30T10:11:12.123Z
  std::string compact;
  for (char c : stamp.substr(0, 19)) {
    if (c != '-' && c != ':') compact += c;
  }
  Host host = collect_host();
  std::string name = host.hostname.empty() ? "host" : host.hostname;
  return "gpusizer-" + name + "-" + suite + "-" + compact + "Z.json";
}

// --resume continues the same plan: the suite, filter, sizes, I/O folder and Google Benchmark flags
// recorded in the report apply unless given again on the command line.
void inherit_settings(RunArgs& a, std::vector<std::string>& extras, const CLI::App& cmd) {
  Report previous = load_report(a.resume);
  const auto& s = previous.settings;
  auto text = [&](const char* key) {
    return s.contains(key) && s[key].is_string() ? s[key].get<std::string>() : std::string();
  };
  if (cmd.count("--suite") == 0 && !text("suite").empty()) a.suite = text("suite");
  if (cmd.count("--filter") == 0) a.filter = text("filter");
  if (cmd.count("--io-dir") == 0) a.io_dir = text("io_directory");
  if (cmd.count("--tiny") == 0 && s.contains("tiny") && s["tiny"].is_boolean()) {
    a.tiny = s["tiny"].get<bool>();
  }
  if (extras.empty() && s.contains("benchmark_flags") && s["benchmark_flags"].is_array()) {
    for (const auto& f : s["benchmark_flags"]) {
      if (f.is_string()) extras.push_back(f.get<std::string>());
    }
  }
}

// Chooses the devices by NVML UUID (device_selection.hpp) and makes this process see exactly the
// chosen whole GPUs: CUDA_VISIBLE_DEVICES is set here, before the first CUDA call. GPUs in MIG
// mode become targets (the slices' parents) whose slices the children measure.
telemetry::DeviceSelection select_and_apply(const telemetry::NvmlInventory& inventory,
                                            const std::vector<int>& gpus, bench::RunOptions& o) {
  telemetry::DeviceSelection s = telemetry::select_devices(
      inventory, {telemetry::cuda_visible_devices_from_environment(), gpus});
  if (s.set_cuda_visible_devices)
    ::setenv("CUDA_VISIBLE_DEVICES", s.set_cuda_visible_devices->c_str(), 1);
  o.gpus = s.parent_measures_gpus;
  o.gpu_indices = s.cuda_ordinals;
  o.known_devices = s.known_devices;
  o.gpus_with_unlisted_slices = s.gpus_with_unlisted_slices;
  for (const auto& t : s.mig_parents) o.extra_targets.push_back(t);
  for (const auto& w : s.warnings) o.extra_warnings.push_back(w);
  o.device_selection = telemetry::to_json(s);
  return s;
}

int conclude(const bench::RunResult& result, const bench::RunOptions& o, const RunArgs& a);
int exit_code_of(const bench::RunResult& result);

// Everything after the report skeleton: devices, instance type, the suite, MIG children, output.
// `fleet`: this process is one rank of an MPI run (MPI started, devices shared already).
int measure(const RunArgs& a, const std::vector<std::string>& extras, bench::RunOptions& o,
            Report report, const std::vector<int>& requested_gpus, double telemetry_period,
            TextFormat format, bench::FleetSession* fleet) {
  if (!a.instance_type.empty()) {
    o.instance_type = InstanceType{a.instance_type, "--instance-type"};
  } else if (a.imds) {
    ImdsResult imds = query_imds_instance_type();
    o.instance_type = imds.instance_type;
    if (!imds.instance_type) {
      std::cerr << "gpusizer: --imds: instance type not recorded (" << imds.error << ")\n";
      o.instance_type = detect_instance_type_dmi();
    } else if (!imds.identity_error.empty()) {
      std::cerr << "gpusizer: --imds: signed instance identity not recorded ("
                << imds.identity_error << "); gpusizer verify will not verify this report\n";
    }
  } else {
    o.instance_type = detect_instance_type_dmi();
  }
  if (!o.resume && o.instance_type) report.host.instance_type = o.instance_type;

  telemetry::TelemetryOptions topt;
  topt.enabled = !a.no_telemetry;
  topt.sample_period_seconds = telemetry_period;
  if (a.tiny || a.child) topt.idle_seconds = a.tiny ? 0.2 : topt.idle_seconds;
  if (const auto deadline = bench::run_deadline(o)) {  // idle power takes at most 10 % of it
    const double left = std::chrono::duration<double>(*deadline - o.start).count();
    topt.idle_seconds = std::min(topt.idle_seconds, std::max(0.2, left / 10));
  }
  std::unique_ptr<TelemetryProvider> telemetry = make_telemetry_provider(topt);

  // Devices are chosen by NVML UUID before anything touches CUDA (a process that sees a GPU in
  // MIG mode without CUDA_VISIBLE_DEVICES gets one slice and none of the other GPUs); GPUs in MIG
  // mode are measured per slice, in the child processes below. A child is given its slice in
  // CUDA_VISIBLE_DEVICES and only names it (by UUID) from the inventory.
  telemetry::NvmlInventory inventory;
  telemetry::DeviceSelection selection;
  if (o.gpus) {
    ::setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 0);  // CUDA's indices = NVML's (unless set)
    inventory = telemetry::nvml_inventory();
    if (a.child) {
      o.known_devices = telemetry::known_devices(inventory);
      o.gpus_with_unlisted_slices = telemetry::gpus_with_unlisted_slices(inventory);
      o.gpu_indices = requested_gpus;
    } else {
      selection = select_and_apply(inventory, requested_gpus, o);
    }
  }
  if (a.list && !a.child && !selection.explanation.empty()) {
    std::cerr << "devices: " << selection.explanation << "\n";
    for (const auto& m : selection.mig_slices)
      std::cerr << "  MIG child: " << m.id << " (" << m.uuid.value_or("") << ")\n";
  }
  // No MIG children under a fleet: the ranks share the host's devices among themselves.
  const bool mig_children =
      !a.child && !fleet && a.mig_mode != "off" && !selection.mig_slices.empty();
  o.finish = !mig_children;  // with children, the report is finished after them

  // A MIG child in concurrent mode: wait for the other slices' children after setup.
  o.before_first_case = [] { bench::wait_at_start_barrier(); };
  if (o.list_only) report = bench::start_report(o);
  bench::RunResult result =
      fleet ? fleet->run(o, std::move(report), telemetry.get(), std::cerr)
            : bench::run_suite(o, std::move(report), telemetry.get(), std::cerr);
  if (fleet && fleet->place().rank != 0) return exit_code_of(result);  // rank 0 reports the fleet
  if (o.list_only) {
    for (const auto& id : result.planned_ids) std::cout << id << "\n";
    return 0;
  }

  // MIG slices: one child process per slice (a CUDA process sees one MIG device only).
  if (mig_children) {
    MigRunSettings ms;
    if (a.mig_mode == "both") {
      ms.modes = {"isolated", "concurrent"};
    } else {
      ms.modes = {a.mig_mode};
    }
    ms.suite = a.suite;
    ms.tiny = a.tiny;
    ms.filter = a.filter;
    ms.benchmark_args = extras;
    ms.timeout_seconds = o.suite == bench::Suite::quick ? 900 : 7200;
    ms.deadline = bench::run_deadline(o);
    ms.progress = o.progress == 1 || (o.progress < 0 && ::isatty(2));
    const std::size_t not_run_before = result.report.not_run.size();
    if (result.stop_cause.empty()) {
      if (run_mig_slices(selection.mig_slices, ms, result, o.out) != 0) result.exit_code = 1;
      result.stop_cause = bench::signal_stop_cause();
      if (result.stop_cause.empty() && result.report.not_run.size() > not_run_before) {
        result.stop_cause =
            "time budget: " + std::to_string(result.report.not_run.size() - not_run_before) +
            " MIG benchmark(s) or slice run(s) did not fit";
      }
    } else {
      for (const auto& slice : selection.mig_slices) {
        for (const auto& mode : ms.modes)
          result.report.not_run.emplace_back("mig/" + slice.id + "/mode=" + mode,
                                             result.stop_cause);
      }
    }
    bench::finish_report(result.report, result.stop_cause);
    save_report(result.report, o.out);
  }
  if (a.child) return conclude(result, o, a);  // the parent prints the results
  if (format == TextFormat::table) {
    print_targets(result.report.targets, std::cout, TextFormat::table);
    std::cout << "\n";
  }
  print_report(result.report, std::cout, format);
  return conclude(result, o, a);
}

// Never write over a report by accident: an existing --out needs --force, unless it is the report
// being resumed.
void refuse_to_overwrite(const bench::RunOptions& o, bool force) {
  std::error_code ec;
  if (force || !std::filesystem::exists(o.out, ec)) return;
  if (o.resume && std::filesystem::equivalent(o.out, *o.resume, ec)) return;
  throw InputError(o.out.string() +
                   ": a report is already there; pass --force to replace it, or --resume " +
                   o.out.string() + " to continue it");
}

// The exit code before the "nothing measured" check: a failure, else stopped, else ok. An MPI rank
// other than 0 ends with this alone (its share of a host may well be empty).
int exit_code_of(const bench::RunResult& result) {
  if (result.exit_code != 0) return kExitFailure;
  return result.stop_cause.empty() ? kExitOk : kExitStopped;
}

// The one line on stderr that ends a run, and its exit code (exit_codes.hpp).
int conclude(const bench::RunResult& result, const bench::RunOptions& o, const RunArgs& a) {
  const Report& report = result.report;
  char counts[96];
  std::snprintf(counts, sizeof counts, "%zu records, status %s", report.records.size(),
                report.status.c_str());
  std::string line = "report: " + o.out.string() + " (" + counts;
  int code = exit_code_of(result);
  if (!result.stop_cause.empty()) {  // this run was stopped (a report may list older not-runs)
    line += ": " + result.stop_cause + "; " + std::to_string(report.not_run.size()) +
            " not run; gpusizer run --resume " + o.out.string() + " continues it";
  } else if (report.status == "empty") {
    // A GPU machine whose driver is missing, run with --no-cpu, would otherwise "pass".
    std::string why;
    if (report.targets.empty()) {
      why = std::string("no target: ") + (o.cpu ? "" : "the CPU was skipped with --no-cpu; ") +
            (a.no_gpu ? "GPUs were skipped with --no-gpu"
                      : (o.gpus ? "no GPU was found" : "no whole GPU to measure")) +
            (report.warnings.empty() ? std::string() : "; " + report.warnings.front());
    } else {
      why = report.records.empty() ? "no benchmark matched the filter"
                                   : "every benchmark was skipped (see the records' reasons)";
    }
    line = "gpusizer: nothing was measured (" + why + "); " + line;
    if (code == kExitOk) code = kExitEmpty;
  }
  if (!a.child) std::cerr << line << ")\n";
  return code;
}

int run_command(RunArgs a, std::vector<std::string> extras, const CLI::App& cmd) {
  // First of all: from here on SIGTERM/SIGINT stop the run cleanly and leave a report.
  StopSignals signals;
  bench::RunOptions o;  // o.start: the time budget counts from here
  if (!a.resume.empty()) {
    if (!std::filesystem::exists(a.resume))
      throw InputError(a.resume + ": no such file (--resume)");
    inherit_settings(a, extras, cmd);
  }
  o.suite = bench::suite_from_string(a.suite);
  o.tiny = a.tiny;
  if (!a.resume.empty()) o.resume = a.resume;
  o.out = !a.out.empty() ? a.out : (!a.resume.empty() ? a.resume : default_report_name(a.suite));
  if (!a.time_budget.empty())
    o.time_budget_seconds = parse_duration_seconds(a.time_budget, "--time-budget");
  if (!a.deadline.empty()) o.deadline = parse_utc_time(a.deadline, "--deadline");
  o.check_budget = !a.child;  // a child gets its share of what its parent has left
  o.allow_mixed_resume = a.allow_mixed_resume;
  bench::check_deadline_ahead(o);
  bench::parse_benchmark_flags(extras);  // bad flags fail here, before anything is written
  o.filter = a.filter;
  std::filesystem::path out_dir = std::filesystem::absolute(o.out).parent_path();
  if (!std::filesystem::is_directory(out_dir)) {
    throw InputError("--out: folder " + out_dir.string() + " does not exist");
  }
  o.io_directory = a.io_dir.empty() ? out_dir.string() : a.io_dir;
  if (!std::filesystem::is_directory(o.io_directory)) {
    throw InputError("--io-dir: " + o.io_directory + " is not a folder");
  }
  if (::access(o.io_directory.c_str(), W_OK) != 0) {
    throw InputError("--io-dir: " + o.io_directory +
                     " is not writable (the I/O benchmarks create "
                     "their files there)");
  }
  if (::access(out_dir.c_str(), W_OK) != 0) {
    throw InputError("--out: folder " + out_dir.string() + " is not writable");
  }
  o.cpu = !a.no_cpu;
  o.gpus = !a.no_gpu;
  std::vector<int> requested_gpus = a.gpus.empty() ? std::vector<int>{} : parse_gpu_list(a.gpus);
  TextFormat format = text_format_from_string(a.format);
  if (a.mig_mode != "isolated" && a.mig_mode != "concurrent" && a.mig_mode != "both" &&
      a.mig_mode != "off") {
    throw InputError("--mig-mode: expected isolated, concurrent, both or off, got \"" + a.mig_mode +
                     "\"");
  }
  const double telemetry_period = parse_duration_seconds(a.telemetry_period, "--telemetry-period");
  o.list_only = a.list;
  o.progress = a.progress ? 1 : (a.no_progress ? 0 : -1);
  o.benchmark_args = extras;
  o.command_line = a.command_line;

  // Launched by mpirun/srun: MPI starts here, before any device is touched, and this rank
  // measures its share of the host (docs/multi-node.md). Rank 0 alone writes the report at --out.
  std::unique_ptr<bench::FleetSession> fleet = a.child ? nullptr : bench::start_fleet_session();
  if (fleet) {
    const std::size_t gpu_count = o.gpus ? telemetry::nvml_inventory().gpus.size() : 0;
    bench::share_local_devices(fleet->place(), o, requested_gpus, gpu_count);
  }
  const bool writes_out = !fleet || fleet->place().rank == 0;

  // One writer per report, never an existing report replaced by accident, and the skeleton on
  // disk before discovery, idle power or the metadata service can take any time.
  std::optional<ReportLock> lock;
  Report report;
  bool wrote_skeleton = false;
  if (!o.list_only && !writes_out) {
    report = bench::start_report(o);  // the rank's own part, sent to rank 0
  } else if (!o.list_only) {
    lock.emplace(ReportLock::acquire(o.out));
    refuse_to_overwrite(o, a.force);
    report = bench::start_report(o);
    std::error_code ec;
    if (!(o.resume && std::filesystem::equivalent(o.out, *o.resume, ec))) {
      save_report(report, o.out);
      wrote_skeleton = true;
    }
  }
  try {
    return measure(a, extras, o, std::move(report), requested_gpus, telemetry_period, format,
                   fleet.get());
  } catch (const InputError&) {
    if (wrote_skeleton) std::filesystem::remove(o.out);  // refused: nothing was measured
    throw;
  }
}

}  // namespace

void register_run(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("run",
                                 "Run a benchmark suite on every target and write the JSON report "
                                 "(Google Benchmark flags --benchmark_* are passed through)");
  auto a = std::make_shared<RunArgs>();
  cmd->allow_extras();
  cmd->add_option("--suite", a->suite, "quick (default, ~1 min per device) | standard | full");
  cmd->add_option("--out,-o", a->out, "Report file (default gpusizer-<host>-<suite>-<time>.json)");
  cmd->add_option("--resume", a->resume, "Continue this report: skip what it already records");
  cmd->add_option("--time-budget", a->time_budget,
                  "Stop cleanly within this time, e.g. 10m, 1h30m");
  cmd->add_option("--deadline", a->deadline,
                  "Stop cleanly before this UTC time, e.g. 2026-12-01T11:00:00Z");
  cmd->add_option("--filter", a->filter, "Regex on benchmark ids; a leading '-' excludes");
  cmd->add_option("--io-dir", a->io_dir,
                  "Folder for I/O benchmark files (default: the report's folder)");
  cmd->add_option("--instance-type", a->instance_type, "Instance type to record, e.g. p5.48xlarge");
  cmd->add_flag("--imds", a->imds,
                "Ask the EC2 instance metadata service (IMDSv2, link-local) for the instance type");
  cmd->add_option("--gpus", a->gpus,
                  "Only these GPUs, by NVML index (as nvidia-smi numbers them), e.g. 0,1");
  cmd->add_option("--format", a->format, "Summary printed at the end: table | md | csv | json");
  cmd->add_flag("--no-gpu", a->no_gpu, "Skip GPUs");
  cmd->add_flag("--no-cpu", a->no_cpu, "Skip the CPU baseline");
  cmd->add_flag("--no-telemetry", a->no_telemetry, "Do not sample power/clocks");
  cmd->add_flag("--list", a->list, "Print the planned benchmark ids and exit");
  cmd->add_flag("--tiny", a->tiny, "Smoke-test sizes (seconds, not minutes; not for sizing)");
  cmd->add_option(
      "--mig-mode", a->mig_mode,
      "MIG slices: isolated (one at a time), concurrent (all at once), both (default), off");
  cmd->add_option(
      "--telemetry-period", a->telemetry_period,
      "NVML/RAPL sampling period (default 100ms: the NVML energy counter's update period)");
  cmd->add_flag("--force", a->force, "Replace the report at --out if there is one");
  cmd->add_flag("--allow-mixed-resume", a->allow_mixed_resume,
                "With --resume: add to a report from another host, GPU model, suite or gpusizer "
                "version (its history records which run measured what)");
  cmd->add_flag("--child", a->child, "Internal: this run is a MIG child of another gpusizer run")
      ->group("");
  cmd->add_flag("--progress", a->progress, "Progress on stderr even when it is not a terminal");
  cmd->add_flag("--no-progress", a->no_progress, "No progress on stderr");
  cmd->callback([&action, a, cmd, &app] {
    std::vector<std::string> extras = cmd->remaining();
    a->command_line = {app.get_name(), "run"};
    for (const auto* opt : cmd->get_options()) {
      for (const auto& r : opt->results()) {
        if (opt->get_positional()) continue;
        a->command_line.push_back(opt->get_name() + "=" + r);
      }
    }
    for (const auto& e : extras) a->command_line.push_back(e);
    action = [a, extras, cmd] { return run_command(*a, extras, *cmd); };
  });
}

}  // namespace gpusizer::cli
