// MIG slices are measured in child processes: a CUDA process sees one MIG device only, so the
// parent starts `gpusizer run` once per slice with CUDA_VISIBLE_DEVICES=MIG-<uuid>, one at a time
// ("isolated": each slice's own ceiling) or all at once ("concurrent": what a packed GPU delivers
// per slice). A child that crashes or hangs is stopped (timeout), its failure is recorded, and
// whatever it had checkpointed is kept; the parent goes on.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "gpusizer/report.hpp"

namespace gpusizer::bench {

struct ChildSpec {
  Target target;                  // the slice (kind "mig") the child measures
  std::vector<std::string> argv;  // full command line; argv[0] is the program path
  std::vector<std::pair<std::string, std::string>> env;  // added to the parent's environment
  std::filesystem::path report;                          // where the child writes its report
  std::string child_target_id = "gpu0";  // how the child names the slice (its only CUDA device)
};

struct ChildResult {
  Target target;
  std::string child_target_id = "gpu0";
  std::vector<Record> records;        // from the child's report (even after a crash)
  std::vector<std::string> warnings;  // the child report's own warnings
  std::string failure;                // "" when the child exited 0
  int exit_code = 0;                  // child's exit code, or 128 + signal
  double seconds = 0;
};

// Runs the children isolated (one after another) or concurrently, each within timeout_seconds
// (SIGTERM, then SIGKILL 5 s later). Never throws for a child's failure.
std::vector<ChildResult> run_children(const std::vector<ChildSpec>& children, bool concurrent,
                                      double timeout_seconds);

// Adds a child's records to the parent report: the record ids and targets name the slice (the
// child saw it as its only GPU, "gpu0") and each record carries the mode. Failures become warnings.
void merge_child_result(Report& parent, const ChildResult& result, const std::string& mode);

}  // namespace gpusizer::bench
