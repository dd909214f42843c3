// Planning a run, the first step of run_suite: the Google Benchmark flags, the case filter, the
// sampling policy and the deadline; the report's settings, the discovered targets and warnings;
// and the cases this run measures, in order (resume.hpp leaves out what a report holds already).
#pragma once

#include <optional>
#include <regex>
#include <string>

#include "gpusizer/bench/case.hpp"
#include "gpusizer/bench/gbench_bridge.hpp"
#include "gpusizer/bench/runner.hpp"
#include "gpusizer/bench/sampler.hpp"
#include "gpusizer/clock.hpp"
#include "gpusizer/kernels/discovery.hpp"
#include "gpusizer/report.hpp"

namespace gpusizer::bench {

// Google Benchmark's filter semantics: a regex searched in the id; a leading '-' negates; "" or
// "all" accepts everything. InputError for a regex that does not compile.
class CaseFilter {
 public:
  explicit CaseFilter(const std::string& spec);
  bool accepts(const std::string& id) const { return std::regex_search(id, re_) != negate_; }

 private:
  std::regex re_;
  bool negate_ = false;
};

struct RunPlan {
  BenchmarkFlags benchmark_flags;
  std::string filter_spec;  // --benchmark_filter, else --filter
  SamplingPolicy base_policy;
  std::optional<SystemTime> deadline;  // run_deadline (run_control.hpp)
  CaseList cases;                      // what runs, in order
};

// Checks every flag the plan reads (Google Benchmark flags, the filter) and fixes the policy and
// the deadline; touches nothing. Throws InputError.
RunPlan plan_settings(const RunOptions& options);

// Records the plan in report.settings, adds the discovered targets and warnings (and the caller's
// extra ones) to the report, and plans the cases: plan.cases is filled.
void plan_cases_into(RunPlan& plan, const RunOptions& options, bool with_telemetry,
                     kernels::Discovery& discovery, Report& report);

}  // namespace gpusizer::bench
