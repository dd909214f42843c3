#include "gpusizer/bench/run_session.hpp"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <memory>
#include <ostream>
#include <sstream>

#include "gpusizer/bench/child_runs.hpp"
#include "gpusizer/bench/concurrent_gpus.hpp"
#include "gpusizer/bench/fleet.hpp"
#include "gpusizer/bench/gbench_bridge.hpp"
#include "gpusizer/bench/mig_runs.hpp"
#include "gpusizer/bench/resume.hpp"
#include "gpusizer/bench/run_control.hpp"
#include "gpusizer/bench/run_plan.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/host_info.hpp"
#include "gpusizer/imds.hpp"
#include "gpusizer/report_io.hpp"
#include "gpusizer/report_lock.hpp"
#include "gpusizer/telemetry/device_selection.hpp"
#include "gpusizer/telemetry/nvml_inventory.hpp"
#include "gpusizer/telemetry/telemetry.hpp"

namespace gpusizer::bench {
namespace {

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

// --benchmark_list_tests[=true] is --list (Google Benchmark's own listing would print each case's
// name as it is registered, one at a time); the flag itself goes no further.
void take_list_tests(RunRequest& request, const BenchmarkFlags& flags) {
  if (flags.list_tests) request.list = true;
  std::erase_if(request.benchmark_args, [](const std::string& a) {
    return a == "--benchmark_list_tests" || a.rfind("--benchmark_list_tests=", 0) == 0;
  });
}

// Folders the run writes into: the report's, and the I/O benchmarks'.
void check_folders(const RunOptions& o) {
  std::filesystem::path out_dir = std::filesystem::absolute(o.out).parent_path();
  if (!std::filesystem::is_directory(out_dir)) {
    throw InputError("--out: folder " + out_dir.string() + " does not exist");
  }
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
}

// Chooses the devices by NVML UUID (device_selection.hpp) and makes this process see exactly the
// chosen whole GPUs: CUDA_VISIBLE_DEVICES is set here, before the first CUDA call. GPUs in MIG
// mode become targets (the slices' parents) whose slices the children measure.
telemetry::DeviceSelection select_and_apply(const telemetry::NvmlInventory& inventory,
                                            const std::vector<int>& gpus, RunOptions& o) {
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

// Never write over a report by accident: an existing --out needs --force, unless it is the report
// being continued (--resume's; the fleet report under MPI).
void refuse_to_overwrite(const RunOptions& o, const std::string& continued, bool force) {
  std::error_code ec;
  if (force || !std::filesystem::exists(o.out, ec)) return;
  if (!continued.empty() && std::filesystem::equivalent(o.out, continued, ec)) return;
  throw InputError(o.out.string() +
                   ": a report is already there; pass --force to replace it, or --resume " +
                   o.out.string() + " to continue it");
}

std::optional<InstanceType> instance_type_of(const RunRequest& r, std::ostream& err) {
  if (!r.instance_type.empty()) return InstanceType{r.instance_type, "--instance-type"};
  if (!r.imds) return detect_instance_type_dmi();
  ImdsResult imds = query_imds_instance_type();
  if (imds.instance_type) {
    if (!imds.identity_error.empty()) {
      err << "gpusizer: --imds: signed instance identity not recorded (" << imds.identity_error
          << "); gpusizer verify will not verify this report\n";
    }
    return imds.instance_type;
  }
  err << "gpusizer: --imds: instance type not recorded (" << imds.error << ")\n";
  return detect_instance_type_dmi();
}

std::unique_ptr<TelemetryProvider> telemetry_for(const PreparedRun& p) {
  telemetry::TelemetryOptions topt;
  topt.enabled = !p.request.no_telemetry;
  topt.sample_period_seconds = p.telemetry_period_seconds;
  if (p.request.tiny || p.request.child)
    topt.idle_seconds = p.request.tiny ? 0.2 : topt.idle_seconds;
  if (const auto deadline = run_deadline(p.options)) {  // idle power takes at most 10 % of it
    const double left = std::chrono::duration<double>(*deadline - p.options.start).count();
    topt.idle_seconds = std::min(topt.idle_seconds, std::max(0.2, left / 10));
  }
  return make_telemetry_provider(topt);
}

MigRunSettings mig_settings(const PreparedRun& p, std::ostream& err) {
  const RunOptions& o = p.options;
  MigRunSettings ms;
  ms.modes = p.mig_modes;
  ms.suite = p.request.suite;
  ms.tiny = p.request.tiny;
  ms.filter = p.request.filter;
  ms.benchmark_args = p.request.benchmark_args;
  ms.timeout_seconds = o.suite == Suite::quick ? 900 : 7200;
  ms.deadline = run_deadline(o);
  if (o.progress == 1 || (o.progress < 0 && ::isatty(2))) ms.progress = &err;
  return ms;
}

// Steps 3 to 6, after the report skeleton. `fleet`: this process is one rank of an MPI run (MPI
// started, devices shared already).
RunSessionResult measure(PreparedRun& p, Report report, FleetSession* fleet, std::ostream& err) {
  const RunRequest& a = p.request;
  RunOptions& o = p.options;
  RunSessionResult out;
  out.out = o.out;
  out.list_only = o.list_only;
  o.instance_type = instance_type_of(a, err);
  if (!o.resume && o.instance_type) report.host.instance_type = o.instance_type;
  std::unique_ptr<TelemetryProvider> telemetry = telemetry_for(p);

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
      o.gpu_indices = p.requested_gpus;
    } else {
      selection = select_and_apply(inventory, p.requested_gpus, o);
    }
  }
  const bool wants_concurrent = std::find(p.gpu_modes.begin(), p.gpu_modes.end(),
                                          Concurrency::concurrent) != p.gpu_modes.end();
  if (a.list && !a.child && !selection.explanation.empty()) {
    out.device_notes.push_back("devices: " + selection.explanation);
    for (const auto& m : selection.mig_slices)
      out.device_notes.push_back("  MIG child: " + m.id + " (" + m.uuid.value_or("") + ")");
    if (wants_concurrent) {
      for (const auto& g : selection.whole_gpus)  // their cases run in children, all at once
        out.device_notes.push_back("  concurrent GPU child: " + g.id + " (" + g.uuid.value_or("") +
                                   ")");
    }
  }
  // No MIG children under a fleet: the ranks share the host's devices among themselves.
  const bool mig_children =
      !a.child && !fleet && !p.mig_modes.empty() && !selection.mig_slices.empty();
  // Whole GPUs loaded together: one child per GPU after the parent's own cases. Where there can
  // be none, the parent measures its GPUs itself, one at a time, and says so.
  const bool gpu_children =
      wants_concurrent && !a.child && !fleet && o.gpus && !selection.whole_gpus.empty();
  if (wants_concurrent && !gpu_children && !a.child && o.gpus) {
    o.extra_warnings.push_back("--gpu-mode " + a.gpu_mode + ": no concurrent GPU run (" +
                               (fleet ? std::string("under MPI the ranks share the host's GPUs")
                                      : std::string("NVML lists no whole GPU to give a child")) +
                               "); whole GPUs measured one at a time");
    o.gpu_mode = "isolated";
  }
  o.finish = !mig_children && !gpu_children;  // with children, the report is finished after them

  // A MIG child in concurrent mode: wait for the other slices' children after setup.
  o.before_first_case = [] { wait_at_start_barrier(); };
  if (o.list_only) report = start_report(o);
  out.result = fleet ? fleet->run(o, std::move(report), telemetry.get(), err)
                     : run_suite(o, std::move(report), telemetry.get(), err);
  if (fleet && fleet->place().rank != 0) {  // rank 0 reports the fleet (and lists the plan)
    out.list_only = false;
    out.exit_code = exit_code_of(out.result);
    return out;
  }
  if (o.list_only) return out;

  // MIG slices: one child process per slice (a CUDA process sees one MIG device only).
  if (gpu_children)
    run_concurrent_gpus(selection.whole_gpus, mig_settings(p, err), out.result, o.out);
  if (mig_children || gpu_children) {
    finish_with_mig_children(mig_children ? selection.mig_slices : std::vector<Target>{},
                             mig_settings(p, err), out.result, o.out);
  }
  RunConclusion conclusion = conclude(out.result, o.out, o.cpu, a.no_gpu, o.gpus);
  out.exit_code = conclusion.exit_code;
  if (!a.child) {  // the parent prints a child's results
    out.print_summary = true;
    out.conclusion = std::move(conclusion);
  }
  return out;
}

}  // namespace

PreparedRun prepare_run(RunRequest request, std::string continued) {
  PreparedRun p;
  RunOptions& o = p.options;  // o.start: the time budget counts from here
  p.continued = continued.empty() ? request.resume : std::move(continued);
  if (!request.resume.empty()) {
    if (!std::filesystem::exists(request.resume))
      throw InputError(request.resume + ": no such file (--resume)");
    inherit_settings(request, load_report(request.resume).settings);
  }
  o.suite = suite_from_string(request.suite);
  o.tiny = request.tiny;
  if (!request.resume.empty()) o.resume = request.resume;
  o.out = !request.out.empty()
              ? request.out
              : (!p.continued.empty() ? p.continued : default_report_name(request.suite));
  if (!request.time_budget.empty())
    o.time_budget_seconds = parse_duration_seconds(request.time_budget, "--time-budget");
  if (!request.deadline.empty()) o.deadline = parse_utc_time(request.deadline, "--deadline");
  o.check_budget = !request.child;  // a child gets its share of what its parent has left
  o.allow_mixed_resume = request.allow_mixed_resume;
  check_deadline_ahead(o);
  // Bad flags fail here, before anything is written, Google Benchmark's own included (it would
  // end the process on some of them).
  const BenchmarkFlags gb = parse_benchmark_flags(request.benchmark_args);
  take_list_tests(request, gb);
  initialize_google_benchmark(gb.passthrough);
  o.filter = request.filter;
  o.io_directory = request.io_dir.empty() ? std::filesystem::absolute(o.out).parent_path().string()
                                          : request.io_dir;
  check_folders(o);
  o.cpu = !request.no_cpu;
  o.gpus = !request.no_gpu;
  p.requested_gpus = request.gpus.empty() ? std::vector<int>{} : parse_gpu_list(request.gpus);
  p.mig_modes = mig_modes(request.mig_mode);
  p.gpu_modes = gpu_modes(request.gpu_mode);
  o.gpu_mode = request.gpu_mode;
  p.telemetry_period_seconds =
      parse_duration_seconds(request.telemetry_period, "--telemetry-period");
  o.list_only = request.list;
  o.progress = request.progress ? 1 : (request.no_progress ? 0 : -1);
  o.benchmark_args = request.benchmark_args;
  o.command_line = request.command_line;
  plan_settings(o);  // the filter, as the run will read it
  p.request = std::move(request);
  return p;
}

RunSessionResult run_session(RunRequest request, std::ostream& err) {
  // Launched by mpirun/srun: MPI starts first, before any device is touched and before --resume
  // is read, and this rank measures its share of the host (docs/multi-node.md). Rank 0 alone
  // writes the report at --out. --resume under MPI: the fleet report goes on at --out; each rank
  // resumes its own part of it.
  std::unique_ptr<FleetSession> fleet = request.child ? nullptr : start_fleet_session();
  std::string continued = request.resume;
  if (fleet && !request.resume.empty())
    request.resume = fleet->resume_part(request.resume).string();
  PreparedRun p = prepare_run(std::move(request), std::move(continued));
  RunOptions& o = p.options;
  if (fleet) {
    const std::size_t gpu_count = o.gpus ? telemetry::nvml_inventory().gpus.size() : 0;
    share_local_devices(fleet->place(), o, p.requested_gpus, gpu_count);
  }
  const bool writes_out = !fleet || fleet->place().rank == 0;

  // One writer per report, never an existing report replaced by accident, and the skeleton on
  // disk before discovery, idle power or the metadata service can take any time.
  std::optional<ReportLock> lock;
  Report report;
  bool wrote_skeleton = false;
  if (!o.list_only && !writes_out) {
    report = start_report(o);  // the rank's own part, sent to rank 0
  } else if (!o.list_only) {
    lock.emplace(ReportLock::acquire(o.out));
    refuse_to_overwrite(o, p.continued, p.request.force);
    report = start_report(o);
    std::error_code ec;
    if (p.continued.empty() || !std::filesystem::equivalent(o.out, p.continued, ec)) {
      save_report(report, o.out);
      wrote_skeleton = true;
    }
  }
  try {
    return measure(p, std::move(report), fleet.get(), err);
  } catch (const InputError&) {
    if (wrote_skeleton) std::filesystem::remove(o.out);  // refused: nothing was measured
    throw;
  }
}

}  // namespace gpusizer::bench
