#include "gpusizer/bench/runner.hpp"

#include <unistd.h>

#include <chrono>
#include <map>
#include <ostream>

#include "gpusizer/bench/checkpoint.hpp"
#include "gpusizer/bench/measure_case.hpp"
#include "gpusizer/bench/progress.hpp"
#include "gpusizer/bench/run_control.hpp"
#include "gpusizer/bench/run_plan.hpp"
#include "gpusizer/run_history.hpp"
#include "gpusizer/stop_signals.hpp"

namespace gpusizer::bench {

nlohmann::json measure_idle_with_contexts(const std::vector<kernels::Backend*>& backends,
                                          const std::vector<Target>& targets,
                                          TelemetryProvider& telemetry,
                                          std::vector<std::string>& warnings) {
  std::vector<std::string> opened;
  for (kernels::Backend* b : backends) {
    if (b->target().kind == TargetKind::cpu) continue;
    try {
      b->open_context();
      opened.push_back(b->target().id);
    } catch (const std::exception& e) {
      warnings.push_back("idle power of " + b->target().id +
                         " measured without a context: " + e.what());
    }
  }
  nlohmann::json idle = telemetry.measure_idle(targets);
  for (const auto& id : opened) {
    if (idle.contains(id) && idle[id].is_object() && idle[id].contains("idle_power_watts"))
      idle[id]["conditions"] = "CUDA context open on every measured GPU, nothing running";
  }
  return idle;
}

// The steps, in order: plan (run_plan.hpp, resume.hpp), idle power, then per case the budget
// check (run_control.hpp), the measurement (measure_case.hpp) and the checkpoint
// (checkpoint.hpp), and the end of the run.
RunResult run_suite(const RunOptions& options, Report report, TelemetryProvider* telemetry,
                    std::ostream& err) {
  RunPlan plan = plan_settings(options);
  const std::optional<SystemTime>& deadline = plan.deadline;
  auto seconds_left = [&]() -> std::optional<double> {
    if (!deadline) return std::nullopt;
    return std::chrono::duration<double>(*deadline - std::chrono::system_clock::now()).count() -
           kDeadlineMarginSeconds;
  };

  kernels::DiscoveryOptions dopt{options.cpu, options.gpus, options.gpu_indices,
                                 options.known_devices, options.gpus_with_unlisted_slices};
  kernels::Discovery discovery = kernels::discover(dopt);
  plan_cases_into(plan, options, telemetry != nullptr, discovery, report);
  const CaseList& cases = plan.cases;

  if (options.list_only) {
    RunResult listed{std::move(report), 0, {}, {}};
    for (const auto& c : cases) listed.planned_ids.push_back(c.id);
    return listed;
  }
  check_budget_fits(options, cases);

  Progress progress(progress_style(options.progress, ::isatty(2) != 0), err, cases.size(),
                    deadline);

  if (telemetry && !options.resume && !StopSignals::requested()) {
    progress.note("measuring idle power (contexts open, nothing running)...");
    std::vector<kernels::Backend*> backends;
    for (const auto& b : discovery.backends) backends.push_back(b.get());
    std::vector<std::string> idle_warnings;
    report.target_telemetry =
        measure_idle_with_contexts(backends, report.targets, *telemetry, idle_warnings);
    for (const auto& w : idle_warnings) add_warning_once(report, w);
  }

  const BenchmarkFlags& gb = plan.benchmark_flags;
  Checkpoint checkpoint(report, options.out, gb.out);
  checkpoint.save(nullptr);

  initialize_google_benchmark(gb.passthrough);
  GbenchCollector collector;
  // SIGINT/SIGTERM (a StopSignals held by the caller): the case in flight stops after its current
  // sample, the rest is recorded as not run, the report is written.
  const auto steady_deadline = [&]() -> std::optional<std::chrono::steady_clock::time_point> {
    if (!deadline) return std::nullopt;
    return std::chrono::steady_clock::now() +
           std::chrono::duration_cast<std::chrono::steady_clock::duration>(
               *deadline - std::chrono::system_clock::now() -
               std::chrono::duration<double>(kDeadlineMarginSeconds));
  }();

  std::map<std::string, std::unique_ptr<TelemetryProbe>> probes;
  CaseSetting setting;
  setting.report = &report;
  setting.limits = SamplingLimits{&StopSignals::requested(), steady_deadline};
  setting.seconds_left = seconds_left;
  setting.requested_repetitions = gb.repetitions.value_or(1);
  setting.collector = &collector;
  setting.probe_for = [&](const std::string& target_id) -> TelemetryProbe& {
    auto it = probes.find(target_id);
    if (it != probes.end()) return *it->second;
    const Target* t = report.find_target(target_id);
    std::unique_ptr<TelemetryProbe> p;
    if (telemetry && t) {
      p = telemetry->probe_for(*t);
    } else {
      p = std::make_unique<UnavailableProbe>(
          t && t->kind == TargetKind::cpu ? "CPU package (RAPL)" : "GPU board power (NVML)",
          "telemetry disabled (--no-telemetry)");
    }
    return *probes.emplace(target_id, std::move(p)).first->second;
  };

  double spent_seconds = 0;
  double estimated_done = 0;
  double estimated_total = 0;
  for (const auto& c : cases) estimated_total += c.estimated_seconds;
  int exit_code = 0;
  std::string stop_cause;
  std::size_t budget_skips = 0;  // cases left out because they no longer fit before the deadline

  if (options.before_first_case) options.before_first_case();

  for (std::size_t i = 0; i < cases.size(); ++i) {
    const BenchCase& c = cases[i];
    if (stop_cause.empty()) stop_cause = signal_stop_cause();
    setting.policy = plan.base_policy;
    setting.seconds_left_at_start = seconds_left();
    if (stop_cause.empty() && setting.seconds_left_at_start) {
      const double left = *setting.seconds_left_at_start;
      if (const std::string why = budget_refusal(c.estimated_seconds, left, *deadline);
          !why.empty()) {
        report.not_run.emplace_back(c.id, why);
        progress.note("not run: " + c.id + " (" + why + ")");
        ++budget_skips;
        continue;
      }
      // Never let one case's sampling run past the deadline.
      setting.policy.time_cap_seconds = sampling_cap_for(setting.policy.time_cap_seconds, left);
    }
    if (!stop_cause.empty()) {
      report.not_run.emplace_back(c.id, stop_cause);
      continue;
    }

    double ratio = estimated_done > 0 ? spent_seconds / estimated_done : 1.0;
    progress.begin(i, c, (estimated_total - estimated_done) * ratio);
    MeasuredCase measured = measure_case(c, setting);
    spent_seconds += measured.seconds;
    estimated_done += c.estimated_seconds;

    Record& record = measured.record;
    if (!measured.cut_short.empty() && stop_cause.empty()) {
      stop_cause = signal_stop_cause();
      if (stop_cause.empty()) stop_cause = "time budget: deadline reached during " + c.id;
    }
    // A record cut short by an earlier run is measured again and replaced.
    if (std::erase_if(report.records, [&](const Record& r) { return r.id == record.id; }) > 0)
      forget_earlier_record(report, record.id);
    if (record.status == RecordStatus::failed || record.status == RecordStatus::error)
      exit_code = 1;
    progress.note(one_line_summary(record));
    report.records.push_back(std::move(record));
    checkpoint.save(&collector);
    if (options.after_case && stop_cause.empty()) stop_cause = options.after_case(report);
  }

  if (stop_cause.empty() && budget_skips > 0) {
    stop_cause = "time budget: " + std::to_string(budget_skips) +
                 " benchmark(s) did not fit before " + iso8601_utc(*deadline);
  }
  if (options.finish) {
    checkpoint.finish(stop_cause, collector);
  } else {
    checkpoint.save(&collector);
  }
  return RunResult{std::move(report), exit_code, {}, stop_cause};
}

}  // namespace gpusizer::bench
