// Turns what one case produced (samples, verification, telemetry, or the reason it did not run)
// into a report record with stated units and counting rules. Pure: no device, no clock.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpusizer/bench/case.hpp"
#include "gpusizer/bench/sampler.hpp"
#include "gpusizer/report.hpp"

namespace gpusizer::bench {

struct CaseOutcome {
  std::vector<SampleSet> repetitions;
  std::vector<TelemetryWindow> windows;  // one per repetition, combined over time
  Verification verification;
  kernels::WorkAmount work;
  Timer timer = Timer::steady_clock;
  CacheMode mode = CacheMode::hot;
  std::map<std::string, std::string> details;
  std::map<std::string, double> extra_metrics;
  std::vector<std::string> flags;  // the workload's own (Workload::flags)
  double peak_rate = 0;
  std::string peak_source;
  // Idle board/package power of the target, measured before the suite: energy above idle.
  std::optional<double> idle_power_watts;
  // The target is a MIG slice: its telemetry is the whole board's, shared with the other slices,
  // so energy is recorded only as board_energy_per_op, never as the slice's energy_per_op or
  // FLOP/J.
  bool shared_board = false;
  std::optional<std::string> skipped_reason;
  std::optional<std::string> error;
  std::string started_at;
  double duration_seconds = 0;
  // The machine's 1-minute load average when the case started and ended (record load_average).
  std::optional<double> load_average_start;
  std::optional<double> load_average_end;
  // Why sampling or repetitions stopped before the policy said so (a stop signal, the deadline):
  // the record is flagged kCutShortFlag and says this in details["cut_short"]. "" when not.
  std::string cut_short;
  // Why fewer Google Benchmark repetitions ran than asked (details["repetitions_capped"]).
  std::string repetitions_capped;
};

// A record measured with fewer samples or repetitions than the policy asked for; --resume
// measures it again.
inline constexpr const char* kCutShortFlag = "cut_short";

// Relative spread above which a record is flagged "high_variance".
inline constexpr double kHighVarianceCv = 0.05;

Record build_record(const BenchCase& c, const CaseOutcome& outcome, const SamplingPolicy& policy);

}  // namespace gpusizer::bench
