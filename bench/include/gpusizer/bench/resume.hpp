// --resume: a run that continues a report measures only what the report lacks, with the settings
// the report was started with.
#pragma once

#include "gpusizer/bench/case.hpp"
#include "gpusizer/bench/run_plan.hpp"
#include "gpusizer/bench/run_request.hpp"
#include "gpusizer/report.hpp"

namespace gpusizer::bench {

// The cases this run measures, in the planned order: those the filter accepts, less those the
// report records already (a record cut short by an earlier run, flagged kCutShortFlag, is
// measured again). The cases that run now are taken off report.not_run.
CaseList cases_to_run(CaseList planned, const CaseFilter& filter, Report& report);

// The suite, filter, sizes, I/O folder and Google Benchmark flags recorded in `settings` (a
// report's) apply unless given again on the command line (request.given, request.benchmark_args).
void inherit_settings(RunRequest& request, const nlohmann::json& settings);

}  // namespace gpusizer::bench
