#include "gpusizer/bench/runner.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <ostream>
#include <regex>
#include <set>

#include "gpusizer/bench/combined_probe.hpp"
#include "gpusizer/bench/gbench_bridge.hpp"
#include "gpusizer/bench/record_builder.hpp"
#include "gpusizer/bench/run_control.hpp"
#include "gpusizer/bench/suite.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/host_info.hpp"
#include "gpusizer/report_io.hpp"
#include "gpusizer/run_history.hpp"
#include "gpusizer/stop_signals.hpp"

namespace gpusizer::bench {
namespace {

using Clock = std::chrono::steady_clock;

// Google Benchmark's filter semantics: a regex searched in the name; a leading '-' negates.
class CaseFilter {
 public:
  explicit CaseFilter(const std::string& spec) {
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
  bool accepts(const std::string& id) const { return std::regex_search(id, re_) != negate_; }

 private:
  std::regex re_;
  bool negate_ = false;
};

void add_target(Report& report, const Target& t) {
  if (report.find_target(t.id) == nullptr) report.targets.push_back(t);
}

void add_warning(Report& report, const std::string& w) {
  for (const auto& existing : report.warnings) {
    if (existing == w) return;
  }
  report.warnings.push_back(w);
}

class Progress {
 public:
  Progress(bool enabled, std::ostream& err, std::size_t total)
      : enabled_(enabled), err_(err), total_(total), start_(Clock::now()) {}
  void begin(std::size_t index, const BenchCase& c, double estimated_left) {
    if (!enabled_) return;
    double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    err_ << "[" << index + 1 << "/" << total_ << "] " << c.id << "  (elapsed "
         << human_duration(elapsed) << ", ~" << human_duration(estimated_left) << " left)"
         << std::endl;
  }
  void note(const std::string& line) {
    if (enabled_) err_ << "  " << line << std::endl;
  }

 private:
  bool enabled_;
  std::ostream& err_;
  std::size_t total_;
  Clock::time_point start_;
};

std::string one_line_summary(const Record& r) {
  if (r.status == "skipped") return "skipped: " + r.reason;
  if (r.status == "error") return "error: " + r.reason;
  std::string s = r.status;
  if (!r.metrics.empty()) {
    char buf[96];
    const auto& m = r.metrics.front();
    double scale = m.unit == "FLOP/s" ? 1e12 : 1e9;
    std::snprintf(buf, sizeof buf, " %.3f %s", m.value / scale,
                  m.unit == "FLOP/s" ? "TFLOP/s" : "GB/s");
    s += buf;
  }
  return s + ", verification " + r.verification.status;
}

// A case whose telemetry really samples a GPU (not an "unavailable" probe).
bool samples_a_gpu(const Report& report, const BenchCase& c,
                   const std::vector<TelemetryProbe*>& probes) {
  for (std::size_t i = 0; i < c.targets.size() && i < probes.size(); ++i) {
    const Target* t = report.find_target(c.targets[i]);
    if (t && t->kind != "cpu" && dynamic_cast<UnavailableProbe*>(probes[i]) == nullptr) return true;
  }
  return false;
}

bool on_a_mig_slice(const Report& report, const BenchCase& c) {
  for (const auto& id : c.targets) {
    const Target* t = report.find_target(id);
    if (t && t->kind == "mig") return true;
  }
  return false;
}

// A repetition that measures nothing. It still runs its one iteration: Google Benchmark 1.7.1
// checks that every repetition of a benchmark ran the same number of iterations before it drops
// the errored ones from its statistics (ComputeStats aborts otherwise).
void skip_repetition(benchmark::State& st, const std::string& why) {
  if (st.iterations() == 0) {  // the loop has not run
    for (auto _ : st) st.SetIterationTime(1e-9);
  }
  st.SkipWithError(why.c_str());
}

}  // namespace

nlohmann::json measure_idle_with_contexts(const std::vector<kernels::Backend*>& backends,
                                          const std::vector<Target>& targets,
                                          TelemetryProvider& telemetry,
                                          std::vector<std::string>& warnings) {
  std::vector<std::string> opened;
  for (kernels::Backend* b : backends) {
    if (b->target().kind == "cpu") continue;
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

RunResult run_suite(const RunOptions& options, Report report, TelemetryProvider* telemetry,
                    std::ostream& err) {
  if (options.out.empty()) throw InputError("--out: a report path is required");

  BenchmarkFlags gb = parse_benchmark_flags(options.benchmark_args);
  std::string filter_spec = gb.filter.value_or(options.filter);
  CaseFilter filter(filter_spec);
  SamplingPolicy base_policy = sampling_policy(options.suite, options.tiny);
  if (gb.min_time_seconds) base_policy.min_time_seconds = *gb.min_time_seconds;

  // Deadline: the earlier of --time-budget and --deadline; a margin is kept for the final write.
  const std::optional<SystemTime> deadline = run_deadline(options);
  auto seconds_left = [&]() -> std::optional<double> {
    if (!deadline) return std::nullopt;
    return std::chrono::duration<double>(*deadline - std::chrono::system_clock::now()).count() -
           kDeadlineMarginSeconds;
  };

  report.settings = {{"suite", to_string(options.suite)},
                     {"tiny", options.tiny},
                     {"filter", filter_spec},
                     {"io_directory", options.io_directory},
                     {"time_budget_seconds", options.time_budget_seconds},
                     {"deadline", deadline ? iso8601_utc(*deadline) : ""},
                     {"sampling",
                      {{"min_samples", base_policy.min_samples},
                       {"min_time_seconds", base_policy.min_time_seconds},
                       {"max_noise_cv", base_policy.max_noise},
                       {"time_cap_seconds", base_policy.time_cap_seconds}}},
                     {"benchmark_flags", options.benchmark_args}};
  if (!options.device_selection.is_null())
    report.settings["device_selection"] = options.device_selection;
  if (telemetry && options.gpus) {
    report.settings["sampling"]["gpu_telemetry_min_window_seconds"] = kGpuTelemetryWindowSeconds;
  }

  kernels::DiscoveryOptions dopt{options.cpu, options.gpus, options.gpu_indices,
                                 options.known_devices, options.gpus_with_unlisted_slices};
  kernels::Discovery discovery = kernels::discover(dopt);
  {
    std::vector<Target> here;
    for (const auto& b : discovery.backends) here.push_back(b->target());
    for (const auto& t : options.extra_targets) here.push_back(t);
    check_resumed_gpus(report, report.targets, here, options);
  }
  for (const auto& b : discovery.backends) add_target(report, b->target());
  if (options.gpus && !discovery.gpu_unavailable_reason.empty()) {
    add_warning(report, "GPUs: " + discovery.gpu_unavailable_reason);
  }
  if (options.gpus && !discovery.collectives) {
    add_warning(report, "collectives not run: " + discovery.collectives_unavailable_reason);
  }
  if (options.gpus && !discovery.multi_gpu && !discovery.multi_gpu_unavailable_reason.empty()) {
    add_warning(report, "P2P / all-to-host not run: " + discovery.multi_gpu_unavailable_reason);
  }
  for (const auto& w : discovery.warnings) add_warning(report, w);
  for (const auto& t : options.extra_targets) add_target(report, t);
  for (const auto& w : options.extra_warnings) add_warning(report, w);

  SuiteContext ctx{options.suite, &discovery, options.io_directory, options.tiny};
  CaseList planned = plan_cases(ctx);
  std::set<std::string> recorded;
  for (const auto& r : report.records) {
    if (std::find(r.flags.begin(), r.flags.end(), kCutShortFlag) == r.flags.end())
      recorded.insert(r.id);
  }
  CaseList cases;
  for (auto& c : planned) {
    if (!filter.accepts(c.id) || recorded.count(c.id)) continue;
    cases.push_back(std::move(c));
  }
  // Cases that run now are no longer "not run".
  std::erase_if(report.not_run, [&](const auto& nr) {
    for (const auto& c : cases) {
      if (c.id == nr.first) return true;
    }
    return false;
  });

  if (options.list_only) {
    RunResult listed{std::move(report), 0, {}, {}};
    for (const auto& c : cases) listed.planned_ids.push_back(c.id);
    return listed;
  }
  check_budget_fits(options, cases);

  const bool progress_on = options.progress == 1 || (options.progress < 0 && ::isatty(2));
  Progress progress(progress_on, err, cases.size());

  if (telemetry && !options.resume && !StopSignals::requested()) {
    progress.note("measuring idle power (contexts open, nothing running)...");
    std::vector<kernels::Backend*> backends;
    for (const auto& b : discovery.backends) backends.push_back(b.get());
    std::vector<std::string> idle_warnings;
    report.target_telemetry =
        measure_idle_with_contexts(backends, report.targets, *telemetry, idle_warnings);
    for (const auto& w : idle_warnings) add_warning(report, w);
  }

  auto checkpoint = [&](const GbenchCollector* collector) {
    update_session(report, "running", "", "");
    save_report(report, options.out);
    if (gb.out && collector) collector->write_json(*gb.out);
  };
  checkpoint(nullptr);

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
  const SamplingLimits limits{&StopSignals::requested(), steady_deadline};
  const std::int64_t requested_repetitions = gb.repetitions.value_or(1);

  std::map<std::string, std::unique_ptr<TelemetryProbe>> probes;
  auto probe_for = [&](const std::string& target_id) -> TelemetryProbe& {
    auto it = probes.find(target_id);
    if (it != probes.end()) return *it->second;
    const Target* t = report.find_target(target_id);
    std::unique_ptr<TelemetryProbe> p;
    if (telemetry && t) {
      p = telemetry->probe_for(*t);
    } else {
      p = std::make_unique<UnavailableProbe>(
          t && t->kind == "cpu" ? "CPU package (RAPL)" : "GPU board power (NVML)",
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
    SamplingPolicy policy = base_policy;
    const std::optional<double> left_before = seconds_left();
    if (stop_cause.empty() && left_before) {
      const double left = *left_before;
      if (left < c.estimated_seconds) {
        char buf[128];
        std::snprintf(buf, sizeof buf, "time budget: needs ~%.0f s, %.0f s left before %s",
                      c.estimated_seconds, std::max(0.0, left), iso8601_utc(*deadline).c_str());
        report.not_run.emplace_back(c.id, buf);
        progress.note("not run: " + c.id + " (" + buf + ")");
        ++budget_skips;
        continue;
      }
      // Never let one case's sampling run past the deadline.
      policy.time_cap_seconds = std::min(policy.time_cap_seconds, std::max(0.05, left / 3));
    }
    if (!stop_cause.empty()) {
      report.not_run.emplace_back(c.id, stop_cause);
      continue;
    }

    double ratio = estimated_done > 0 ? spent_seconds / estimated_done : 1.0;
    progress.begin(i, c, (estimated_total - estimated_done) * ratio);
    const auto case_start = Clock::now();

    CaseOutcome outcome;
    outcome.started_at = now_iso8601_utc();
    outcome.load_average_start = load_average_1min();
    const int repetitions = repetitions_for_case(requested_repetitions, left_before,
                                                 c.estimated_seconds, outcome.repetitions_capped);
    if (const auto it = report.target_telemetry.find(c.targets.front());
        it != report.target_telemetry.end() && it->is_object() &&
        it->contains("idle_power_watts") && (*it)["idle_power_watts"].is_number()) {
      outcome.idle_power_watts = (*it)["idle_power_watts"].get<double>();
    }
    std::unique_ptr<kernels::Workload> workload;
    bool prepared = false;
    std::vector<TelemetryProbe*> case_probes;
    for (const auto& t : c.targets) case_probes.push_back(&probe_for(t));
    CombinedProbe probe(case_probes);  // one device: that device's window unchanged
    // Energy needs a window of many counter updates: sample the benchmark itself that long.
    if (samples_a_gpu(report, c, case_probes))
      policy.min_window_seconds = kGpuTelemetryWindowSeconds;
    outcome.shared_board = on_a_mig_slice(report, c);

    auto body = [&](benchmark::State& st) {
      if (outcome.skipped_reason || outcome.error) {
        skip_repetition(st, outcome.skipped_reason ? *outcome.skipped_reason : *outcome.error);
        return;
      }
      // A later repetition after a stop or past the deadline: not measured.
      if (!outcome.repetitions.empty() && outcome.cut_short.empty()) {
        if (StopSignals::requested()) {
          outcome.cut_short = "repetitions after the first " +
                              std::to_string(outcome.repetitions.size()) +
                              " not run: " + signal_stop_cause();
        } else if (const auto left = seconds_left(); left && *left <= 0) {
          outcome.cut_short = "repetitions after the first " +
                              std::to_string(outcome.repetitions.size()) +
                              " not run: deadline reached";
        }
      }
      if (!outcome.cut_short.empty()) {
        skip_repetition(st, "not measured: " + outcome.cut_short);
        return;
      }
      try {
        if (!prepared) {
          prepared = true;
          workload = c.make();
          workload->warm_up();
        }
        probe.begin();
        SampleSet set;
        try {
          set = take_samples(*workload, policy, limits);
        } catch (...) {
          probe.end();
          throw;
        }
        outcome.windows.push_back(probe.end());
        double median = summarize(set.seconds_per_op).median;
        for (auto _ : st) st.SetIterationTime(median);
        kernels::WorkAmount work = workload->work_per_op();
        if (work.bytes > 0) st.SetBytesProcessed(static_cast<std::int64_t>(work.bytes));
        if (work.flops > 0) {
          st.counters["FLOP/s"] = benchmark::Counter(work.flops, benchmark::Counter::kIsRate);
        }
        if (set.stop_reason == "signal" || set.stop_reason == "deadline") {
          outcome.cut_short =
              "sampling stopped after " + std::to_string(set.seconds_per_op.size()) +
              " sample(s): " +
              (set.stop_reason == "signal" ? signal_stop_cause() : std::string("deadline reached"));
        }
        outcome.repetitions.push_back(std::move(set));
      } catch (const Unsupported& e) {
        outcome.skipped_reason = e.what();
        skip_repetition(st, "skipped: " + std::string(e.what()));
      } catch (const std::exception& e) {
        outcome.error = e.what();
        skip_repetition(st, e.what());
      }
    };
    run_one_benchmark(c.id, body, collector, repetitions);

    if (workload && !outcome.error && !outcome.skipped_reason) {
      try {
        outcome.verification = workload->verify();
        outcome.work = workload->work_per_op();
        outcome.timer = workload->timer();
        outcome.mode = workload->mode();
        outcome.details = workload->details();
        outcome.extra_metrics = workload->extra_metrics();
        outcome.flags = workload->flags();
        outcome.peak_rate = workload->peak_rate();
        outcome.peak_source = workload->peak_source();
      } catch (const std::exception& e) {
        outcome.error = std::string("verification: ") + e.what();
      }
    }
    workload.reset();  // release device memory before the next case
    outcome.duration_seconds = std::chrono::duration<double>(Clock::now() - case_start).count();
    outcome.load_average_end = load_average_1min();
    spent_seconds += outcome.duration_seconds;
    estimated_done += c.estimated_seconds;

    Record record = build_record(c, outcome, policy);
    if (!outcome.cut_short.empty() && stop_cause.empty()) {
      stop_cause = signal_stop_cause();
      if (stop_cause.empty()) stop_cause = "time budget: deadline reached during " + c.id;
    }
    // A record cut short by an earlier run is measured again and replaced.
    if (std::erase_if(report.records, [&](const Record& r) { return r.id == record.id; }) > 0)
      forget_earlier_record(report, record.id);
    if (record.status == "failed" || record.status == "error") exit_code = 1;
    progress.note(one_line_summary(record));
    report.records.push_back(std::move(record));
    checkpoint(&collector);
    if (options.after_case && stop_cause.empty()) stop_cause = options.after_case(report);
  }

  if (stop_cause.empty() && budget_skips > 0) {
    stop_cause = "time budget: " + std::to_string(budget_skips) +
                 " benchmark(s) did not fit before " + iso8601_utc(*deadline);
  }
  if (options.finish) {
    finish_report(report, stop_cause);
    save_report(report, options.out);
    if (gb.out) collector.write_json(*gb.out);
  } else {
    checkpoint(&collector);
  }
  return RunResult{std::move(report), exit_code, {}, stop_cause};
}

}  // namespace gpusizer::bench
