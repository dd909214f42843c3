#include "gpusizer/bench/run_finish.hpp"

#include <cstdio>

#include "gpusizer/exit_codes.hpp"

namespace gpusizer::bench {

int exit_code_of(const RunResult& result) {
  if (result.exit_code != 0) return kExitFailure;
  return result.stop_cause.empty() ? kExitOk : kExitStopped;
}

RunConclusion conclude(const RunResult& result, const std::filesystem::path& out, bool cpu,
                       bool gpus_skipped, bool gpus) {
  const Report& report = result.report;
  char counts[96];
  std::snprintf(counts, sizeof counts, "%zu records, status %s", report.records.size(),
                std::string(to_string(report.status)).c_str());
  std::string line = "report: " + out.string() + " (" + counts;
  int code = exit_code_of(result);
  if (!result.stop_cause.empty()) {  // this run was stopped (a report may list older not-runs)
    line += ": " + result.stop_cause + "; " + std::to_string(report.not_run.size()) +
            " not run; gpusizer run --resume " + out.string() + " continues it";
  } else if (report.status == ReportStatus::empty) {
    // A GPU machine whose driver is missing, run with --no-cpu, would otherwise "pass".
    std::string why;
    if (report.targets.empty()) {
      why = std::string("no target: ") + (cpu ? "" : "the CPU was skipped with --no-cpu; ") +
            (gpus_skipped ? "GPUs were skipped with --no-gpu"
                          : (gpus ? "no GPU was found" : "no whole GPU to measure")) +
            (report.warnings.empty() ? std::string() : "; " + report.warnings.front());
    } else {
      why = report.records.empty() ? "no benchmark matched the filter"
                                   : "every benchmark was skipped (see the records' reasons)";
    }
    line = "gpusizer: nothing was measured (" + why + "); " + line;
    if (code == kExitOk) code = kExitEmpty;
  }
  return RunConclusion{line + ")", code};
}

}  // namespace gpusizer::bench
