// Run control: where a run starts (a fresh report or one to resume, identity-checked), when it must
// end (time budget, --deadline, a stop signal), how many Google Benchmark repetitions fit, and how
// it ends (status, the "run stopped" warning, the run's history entry). Used by the runner, and by
// the CLI to write the report skeleton before anything else and to finish a run with MIG children.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpusizer/bench/case.hpp"
#include "gpusizer/bench/runner.hpp"
#include "gpusizer/clock.hpp"
#include "gpusizer/report.hpp"

namespace gpusizer::bench {

// Kept free before the deadline for the last checkpoint and the final write.
inline constexpr double kDeadlineMarginSeconds = 2;
// Google Benchmark repetitions of one case never exceed this, budget or not (1e9 repetitions
// would grow Google Benchmark's run list without bound).
inline constexpr std::int64_t kMaxRepetitions = 1000;

// The report the run writes: a new one, or the --resume report whose provenance (version, host,
// suite) must be this run's unless options.allow_mixed_resume (InputError naming what differs).
// Either way this run's history entry is opened (status "running").
Report start_report(const RunOptions& options);

// Refuses (InputError) a resumed report whose GPU models differ from the GPUs found here, unless
// allowed (then the history entry and a warning say so). `before` is the report's targets before
// this run added its own.
void check_resumed_gpus(Report& report, const std::vector<Target>& before,
                        const std::vector<Target>& here, const RunOptions& options);

// The earlier of --deadline and start + --time-budget; nullopt when neither was given.
std::optional<SystemTime> run_deadline(const RunOptions& options);

// InputError for a --deadline already past, or a --time-budget no longer than the margin: checked
// before anything is written.
void check_deadline_ahead(const RunOptions& options);

// InputError when no planned case fits between the run's start and its deadline (less the
// margin): a budget too small for any benchmark, or a deadline too close.
void check_budget_fits(const RunOptions& options, const CaseList& cases);

// Under a deadline, whether a case of `estimated_seconds` still fits in `seconds_left` (the time
// before the deadline, less the margin): "" when it does, else why it is not run ("time budget:
// needs ~N s, M s left before <deadline>"). Cases come in priority order, so a long case that no
// longer fits is passed over and the shorter ones after it still run.
std::string budget_refusal(double estimated_seconds, double seconds_left, SystemTime deadline);

// The sampling cap of a case that fits: never past the deadline (a third of the time left, at
// least 0.05 s).
double sampling_cap_for(double time_cap_seconds, double seconds_left);

// Repetitions for one case: what was asked (1 by default), at most kMaxRepetitions, and no more
// than fit in `seconds_left` at `estimated_seconds` each (at least 1). `note` says why when fewer
// than asked.
int repetitions_for_case(std::int64_t requested, std::optional<double> seconds_left,
                         double estimated_seconds, std::string& note);

// Adds `warning` to the report unless it is there already.
void add_warning_once(Report& report, const std::string& warning);

// "interrupted by signal SIGTERM" (or SIGINT) once a stop signal arrived, else "".
std::string signal_stop_cause();

// Ends the run: finish time, status ("stopped" when `stop_cause` is set or the report lists
// benchmarks not run, e.g. by an earlier run; "empty" when no record measured anything; else
// "complete"), the "run stopped: <cause>" warning when this run was stopped, and the history
// entry. A non-empty `stop_cause` is what makes the run exit 3.
void finish_report(Report& report, const std::string& stop_cause);

// True when at least one record holds a measurement (status ok or failed).
bool measured_anything(const Report& report);

}  // namespace gpusizer::bench
