#include "gpusizer/bench/measure_case.hpp"

#include <chrono>
#include <memory>

#include "gpusizer/bench/combined_probe.hpp"
#include "gpusizer/bench/record_builder.hpp"
#include "gpusizer/bench/run_control.hpp"
#include "gpusizer/bench/runner.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/host_info.hpp"
#include "gpusizer/stop_signals.hpp"

namespace gpusizer::bench {
namespace {

// A case whose telemetry really samples a GPU (not an "unavailable" probe).
bool samples_a_gpu(const Report& report, const BenchCase& c,
                   const std::vector<TelemetryProbe*>& probes) {
  for (std::size_t i = 0; i < c.targets.size() && i < probes.size(); ++i) {
    const Target* t = report.find_target(c.targets[i]);
    if (t && t->kind != TargetKind::cpu && dynamic_cast<UnavailableProbe*>(probes[i]) == nullptr)
      return true;
  }
  return false;
}

bool on_a_mig_slice(const Report& report, const BenchCase& c) {
  for (const auto& id : c.targets) {
    const Target* t = report.find_target(id);
    if (t && t->kind == TargetKind::mig) return true;
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

std::optional<double> idle_power_of(const Report& report, const std::string& target) {
  const auto it = report.target_telemetry.find(target);
  if (it != report.target_telemetry.end() && it->is_object() && it->contains("idle_power_watts") &&
      (*it)["idle_power_watts"].is_number()) {
    return (*it)["idle_power_watts"].get<double>();
  }
  return std::nullopt;
}

// What the workload says about itself once measured: verification, work, timer, details.
void describe_workload(kernels::Workload& workload, CaseOutcome& outcome) {
  try {
    outcome.verification = workload.verify();
    outcome.work = workload.work_per_op();
    outcome.timer = workload.timer();
    outcome.mode = workload.mode();
    outcome.details = workload.details();
    outcome.extra_metrics = workload.extra_metrics();
    outcome.flags = workload.flags();
    outcome.peak_rate = workload.peak_rate();
    outcome.peak_source = workload.peak_source();
  } catch (const std::exception& e) {
    outcome.error = std::string("verification: ") + e.what();
  }
}

}  // namespace

MeasuredCase measure_case(const BenchCase& c, const CaseSetting& setting) {
  const Report& report = *setting.report;
  SamplingPolicy policy = setting.policy;
  const auto case_start = std::chrono::steady_clock::now();

  CaseOutcome outcome;
  outcome.started_at = now_iso8601_utc();
  outcome.load_average_start = load_average_1min();
  const int repetitions =
      repetitions_for_case(setting.requested_repetitions, setting.seconds_left_at_start,
                           c.estimated_seconds, outcome.repetitions_capped);
  outcome.idle_power_watts = idle_power_of(report, c.targets.front());
  std::unique_ptr<kernels::Workload> workload;
  bool prepared = false;
  std::vector<TelemetryProbe*> case_probes;
  for (const auto& t : c.targets) case_probes.push_back(&setting.probe_for(t));
  CombinedProbe probe(case_probes);  // one device: that device's window unchanged
  // Energy needs a window of many counter updates: sample the benchmark itself that long.
  if (samples_a_gpu(report, c, case_probes)) policy.min_window_seconds = kGpuTelemetryWindowSeconds;
  outcome.shared_board = on_a_mig_slice(report, c);

  auto body = [&](benchmark::State& st) {
    if (outcome.skipped_reason || outcome.error) {
      skip_repetition(st, outcome.skipped_reason ? *outcome.skipped_reason : *outcome.error);
      return;
    }
    // A later repetition after a stop or past the deadline: not measured.
    if (!outcome.repetitions.empty() && outcome.cut_short.empty()) {
      const std::string first = "repetitions after the first " +
                                std::to_string(outcome.repetitions.size()) + " not run: ";
      if (StopSignals::requested()) {
        outcome.cut_short = first + signal_stop_cause();
      } else if (const auto left = setting.seconds_left(); left && *left <= 0) {
        outcome.cut_short = first + "deadline reached";
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
        set = take_samples(*workload, policy, setting.limits);
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
      if (set.stop == StopReason::signal || set.stop == StopReason::deadline) {
        outcome.cut_short = "sampling stopped after " + std::to_string(set.seconds_per_op.size()) +
                            " sample(s): " +
                            (set.stop == StopReason::signal ? signal_stop_cause()
                                                            : std::string("deadline reached"));
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
  run_one_benchmark(c.id, body, *setting.collector, repetitions);

  if (workload && !outcome.error && !outcome.skipped_reason) describe_workload(*workload, outcome);
  workload.reset();  // release device memory before the next case
  outcome.duration_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - case_start).count();
  outcome.load_average_end = load_average_1min();
  return MeasuredCase{build_record(c, outcome, policy), outcome.cut_short,
                      outcome.duration_seconds};
}

}  // namespace gpusizer::bench
