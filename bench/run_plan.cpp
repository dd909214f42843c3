#include "gpusizer/bench/run_plan.hpp"

#include "gpusizer/bench/concurrent_gpus.hpp"
#include "gpusizer/bench/resume.hpp"
#include "gpusizer/bench/run_control.hpp"
#include "gpusizer/bench/suite.hpp"
#include "gpusizer/error.hpp"

namespace gpusizer::bench {
namespace {

void add_target(Report& report, const Target& t) {
  if (report.find_target(t.id) == nullptr) report.targets.push_back(t);
}

}  // namespace

CaseFilter::CaseFilter(const std::string& spec) {
  std::string pattern = spec;
  if (!pattern.empty() && pattern[0] == '-') {
    negate_ = true;
    pattern = pattern.substr(1);
  }
  if (pattern.empty() || pattern == "all") pattern = ".";
  try {
    re_ = std::regex(pattern, std::regex::extended);
  } catch (const std::regex_error& e) {
    throw InputError("--filter: not a valid regular expression \"" + spec + "\": " + e.what());
  }
}

RunPlan plan_settings(const RunOptions& options) {
  if (options.out.empty()) throw InputError("--out: a report path is required");
  RunPlan plan;
  plan.benchmark_flags = parse_benchmark_flags(options.benchmark_args);
  plan.filter_spec = plan.benchmark_flags.filter.value_or(options.filter);
  CaseFilter check(plan.filter_spec);  // a bad regex fails here
  plan.base_policy = sampling_policy(options.suite, options.tiny);
  if (plan.benchmark_flags.min_time_seconds)
    plan.base_policy.min_time_seconds = *plan.benchmark_flags.min_time_seconds;
  // The earlier of --time-budget and --deadline; a margin is kept for the final write.
  plan.deadline = run_deadline(options);
  return plan;
}

void plan_cases_into(RunPlan& plan, const RunOptions& options, bool with_telemetry,
                     kernels::Discovery& discovery, Report& report) {
  const SamplingPolicy& policy = plan.base_policy;
  report.settings = {{"suite", to_string(options.suite)},
                     {"tiny", options.tiny},
                     {"filter", plan.filter_spec},
                     {"io_directory", options.io_directory},
                     {"time_budget_seconds", options.time_budget_seconds},
                     {"deadline", plan.deadline ? iso8601_utc(*plan.deadline) : ""},
                     {"sampling",
                      {{"min_samples", policy.min_samples},
                       {"min_time_seconds", policy.min_time_seconds},
                       {"max_noise_cv", policy.max_noise},
                       {"time_cap_seconds", policy.time_cap_seconds}}},
                     {"benchmark_flags", options.benchmark_args}};
  const std::vector<Concurrency> gpu_load = gpu_modes(options.gpu_mode);
  if (gpu_load != std::vector{Concurrency::isolated})
    report.settings["gpu_mode"] = options.gpu_mode;
  if (!options.device_selection.is_null())
    report.settings["device_selection"] = options.device_selection;
  if (with_telemetry && options.gpus) {
    report.settings["sampling"]["gpu_telemetry_min_window_seconds"] = kGpuTelemetryWindowSeconds;
  }

  {
    std::vector<Target> here;
    for (const auto& b : discovery.backends) here.push_back(b->target());
    for (const auto& t : options.extra_targets) here.push_back(t);
    check_resumed_gpus(report, report.targets, here, options);
  }
  for (const auto& b : discovery.backends) add_target(report, b->target());
  if (options.gpus && !discovery.gpu_unavailable_reason.empty()) {
    add_warning_once(report, "GPUs: " + discovery.gpu_unavailable_reason);
  }
  if (options.gpus && !discovery.collectives) {
    add_warning_once(report, "collectives not run: " + discovery.collectives_unavailable_reason);
  }
  if (options.gpus && !discovery.multi_gpu && !discovery.multi_gpu_unavailable_reason.empty()) {
    add_warning_once(report,
                     "P2P / all-to-host not run: " + discovery.multi_gpu_unavailable_reason);
  }
  for (const auto& w : discovery.warnings) add_warning_once(report, w);
  for (const auto& t : options.extra_targets) add_target(report, t);
  for (const auto& w : options.extra_warnings) add_warning_once(report, w);

  SuiteContext ctx{options.suite, &discovery, options.io_directory, options.tiny};
  CaseList cases = plan_cases(ctx);
  if (gpu_load == std::vector{Concurrency::concurrent}) {
    // One GPU's cases: its concurrent child measures them.
    std::erase_if(cases, [&](const BenchCase& c) {
      const Target* t = c.targets.size() == 1 ? report.find_target(c.targets.front()) : nullptr;
      return t != nullptr && t->kind == TargetKind::gpu;
    });
  }
  plan.cases = cases_to_run(std::move(cases), CaseFilter(plan.filter_spec), report);
}

}  // namespace gpusizer::bench
