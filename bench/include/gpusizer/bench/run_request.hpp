// What `gpusizer run` was asked, as given on the command line (harness/cli/run.cpp fills it;
// run_session.hpp checks it and runs it).
#pragma once

#include <set>
#include <string>
#include <vector>

namespace gpusizer::bench {

struct RunRequest {
  std::string suite = "quick";
  std::string out;
  std::string resume;
  std::string time_budget;
  std::string deadline;
  std::string filter;
  std::string io_dir;
  std::string instance_type;
  std::string gpus;
  bool tiny = false;
  bool no_gpu = false;
  bool no_cpu = false;
  bool list = false;
  bool no_telemetry = false;
  bool progress = false;
  bool no_progress = false;
  bool imds = false;   // opt-in: ask the EC2 metadata service for the type
  bool child = false;  // set on MIG children: no recursion
  bool force = false;  // --force: replace an existing report
  bool allow_mixed_resume = false;
  std::string mig_mode = "both";      // isolated | concurrent | both | off
  std::string gpu_mode = "isolated";  // whole GPUs: isolated | concurrent | both
  std::string telemetry_period = "100ms";
  std::vector<std::string> benchmark_args;  // the --benchmark_* flags, as given
  std::vector<std::string> command_line;
  // The options given on the command line ("--suite", "--filter", ...): with --resume, the
  // others are taken from the report.
  std::set<std::string> given;
};

}  // namespace gpusizer::bench
