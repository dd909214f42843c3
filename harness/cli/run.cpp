// gpusizer run: the main job on a rented machine. Parses the flags into a bench::RunRequest and
// calls bench::run_session (bench/run_session.hpp: every step from the flags to the finished
// report); prints the planned ids (--list), the targets and results, and the closing line.
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "gpusizer/bench/run_session.hpp"
#include "gpusizer/printers.hpp"
#include "gpusizer/stop_signals.hpp"
#include "gpusizer/terminal.hpp"

namespace gpusizer::cli {
namespace {

int run_command(const bench::RunRequest& request, const std::string& format_name) {
  // First of all: from here on SIGTERM/SIGINT stop the run cleanly and leave a report.
  StopSignals signals;
  const TextFormat format = text_format_from_string(format_name);  // checked before any file
  const bench::RunSessionResult run = bench::run_session(request, std::cerr);
  for (const auto& note : run.device_notes) std::cerr << note << "\n";
  if (run.list_only) {
    for (const auto& id : run.result.planned_ids) std::cout << id << "\n";
    return run.exit_code;
  }
  if (run.print_summary) {
    if (format == TextFormat::table) {
      print_targets(run.result.report.targets, std::cout, TextFormat::table, terminal_columns());
      std::cout << "\n";
    }
    print_report(run.result.report, std::cout, format, terminal_columns());
  }
  if (run.conclusion) std::cerr << run.conclusion->line << "\n";
  return run.exit_code;
}

}  // namespace

void register_run(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("run",
                                 "Run a benchmark suite on every target and write the JSON report "
                                 "(Google Benchmark flags --benchmark_* are passed through)");
  auto a = std::make_shared<bench::RunRequest>();
  auto format = std::make_shared<std::string>("table");
  cmd->allow_extras();
  cmd->add_option("--suite", a->suite, "quick (default, ~1 min per device) | standard | full");
  cmd->add_option("--out,-o", a->out, "Report file (default gpusizer-<host>-<suite>-<time>.json)");
  cmd->add_option("--resume", a->resume, "Continue this report: skip what it already records");
  cmd->add_option("--time-budget", a->time_budget,
                  "Stop cleanly within this time, e.g. 10m, 1h30m");
  cmd->add_option("--deadline", a->deadline,
                  "Stop cleanly before this UTC time, e.g. 2026-12-01T11:00:00Z");
  cmd->add_option("--filter", a->filter, "Regex on benchmark ids; a leading '-' excludes");
  cmd->add_option("--io-dir", a->io_dir,
                  "Folder for I/O benchmark files (default: the report's folder)");
  cmd->add_option("--instance-type", a->instance_type, "Instance type to record, e.g. p5.48xlarge");
  cmd->add_flag("--imds", a->imds,
                "Ask the EC2 instance metadata service (IMDSv2, link-local) for the instance type");
  cmd->add_option("--gpus", a->gpus,
                  "Only these GPUs, by NVML index (as nvidia-smi numbers them), e.g. 0,1");
  cmd->add_option("--format", *format, "Summary printed at the end: table | md | csv | json");
  cmd->add_flag("--no-gpu", a->no_gpu, "Skip GPUs");
  cmd->add_flag("--no-cpu", a->no_cpu, "Skip the CPU baseline");
  cmd->add_flag("--no-telemetry", a->no_telemetry, "Do not sample power/clocks");
  cmd->add_flag("--list", a->list,
                "Print the planned benchmark ids and exit (also --benchmark_list_tests)");
  cmd->add_flag("--tiny", a->tiny, "Smoke-test sizes (seconds, not minutes; not for sizing)");
  cmd->add_option(
      "--mig-mode", a->mig_mode,
      "MIG slices: isolated (one at a time), concurrent (all at once), both (default), off");
  cmd->add_option("--gpu-mode", a->gpu_mode,
                  "Whole GPUs: isolated (one after another, default), concurrent (all at once, one "
                  "child process each: ~N x faster on N GPUs, shared power and host link), both");
  cmd->add_option(
      "--telemetry-period", a->telemetry_period,
      "NVML/RAPL sampling period (default 100ms: the NVML energy counter's update period)");
  cmd->add_flag("--force", a->force, "Replace the report at --out if there is one");
  cmd->add_flag("--allow-mixed-resume", a->allow_mixed_resume,
                "With --resume: add to a report from another host, GPU model, suite or gpusizer "
                "version (its history records which run measured what)");
  cmd->add_flag("--child", a->child, "Internal: this run is a MIG child of another gpusizer run")
      ->group("");
  cmd->add_flag("--progress", a->progress,
                "Progress on stderr even when it is not a terminal (on a terminal: one line, "
                "with a countdown to the deadline)");
  cmd->add_flag("--no-progress", a->no_progress, "No progress on stderr");
  cmd->callback([&action, a, format, cmd, &app] {
    a->benchmark_args = cmd->remaining();
    a->command_line = {app.get_name(), "run"};
    for (const auto* opt : cmd->get_options()) {
      if (opt->count() > 0) a->given.insert(opt->get_name());
      for (const auto& r : opt->results()) {
        if (opt->get_positional()) continue;
        a->command_line.push_back(opt->get_name() + "=" + r);
      }
    }
    for (const auto& e : a->benchmark_args) a->command_line.push_back(e);
    action = [a, format] { return run_command(*a, *format); };
  });
}

}  // namespace gpusizer::cli
