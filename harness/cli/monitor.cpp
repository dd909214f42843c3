// `gpusizer monitor`: continuous NVML sampling as CloudWatch EMF lines or Prometheus text.
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "gpusizer/clock.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/stop_signals.hpp"
#include "gpusizer/telemetry/monitor.hpp"

namespace gpusizer::cli {
namespace {

struct MonitorFlags {
  std::string format = "emf";
  std::string interval = "1s";
  std::string duration = "0";
  std::string out;
  std::string names = "gpusizer";
  std::string emf_namespace;            // empty: "gpusizer", or "CWAgent" with --names cloudwatch
  std::vector<std::string> dimensions;  // KEY=VALUE
  std::string idle_after = "0";
  std::string idle_grace = "5m";
  double idle_utilization = 5;
  double idle_memory_activity = 5;
  double idle_mig_memory_mib = 1024;
  bool no_hostname = false;
  std::string on_idle;
  bool dry_run = true;
};

// "0" is "off" for --idle-after (and "from the start" for --idle-grace), not a duration to parse.
double duration_or_zero(const std::string& text, const char* flag) {
  const bool zero = (!text.empty() && text.find_first_not_of("0.") == std::string::npos) ||
                    text == "0s" || text == "0ms" || text == "0m";
  return zero ? 0.0 : parse_duration_seconds(text, flag);
}

telemetry::MonitorOptions to_options(const MonitorFlags& f) {
  telemetry::MonitorOptions o;
  o.format = *parse<MonitorFormat>(f.format);  // checked by CLI11 against the same names
  o.interval_seconds = parse_duration_seconds(f.interval, "--interval");
  // "0" (the default) is documented as "until Ctrl-C".
  o.duration_seconds = duration_or_zero(f.duration, "--duration");
  o.out_file = f.out;
  o.idle.idle_after_seconds = duration_or_zero(f.idle_after, "--idle-after");
  o.idle.grace_seconds = duration_or_zero(f.idle_grace, "--idle-grace");
  o.idle.max_utilization_percent = f.idle_utilization;
  o.idle.max_memory_activity_percent = f.idle_memory_activity;
  o.idle.max_mig_memory_used_mib = f.idle_mig_memory_mib;
  o.omit_hostname = f.no_hostname;
  o.on_idle_command = f.on_idle;
  o.dry_run = f.dry_run;
  o.names = *parse<MetricNames>(f.names);
  if (o.names == MetricNames::cloudwatch && o.format != MonitorFormat::emf)
    throw InputError(
        "--names cloudwatch: the CloudWatch agent's names are EMF only (--format emf)");
  if (o.names == MetricNames::dcgm && o.format != MonitorFormat::prometheus)
    throw InputError(
        "--names dcgm: dcgm-exporter's names are Prometheus only (--format prometheus)");
  o.emf_namespace = !f.emf_namespace.empty()             ? f.emf_namespace
                    : o.names == MetricNames::cloudwatch ? "CWAgent"
                                                         : "gpusizer";
  for (const auto& d : f.dimensions) {
    const auto eq = d.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError("--dimension: expected KEY=VALUE, got '" + d + "'");
    o.dimensions[d.substr(0, eq)] = d.substr(eq + 1);
  }
  return o;
}

}  // namespace

void register_monitor(CLI::App& app, std::function<int()>& action) {
  auto flags = std::make_shared<MonitorFlags>();
  CLI::App* sub = app.add_subcommand(
      "monitor",
      "Sample every GPU's NVML metrics (utilization, power, energy, clocks, temperature, "
      "throttle reasons; memory per MIG slice) continuously, as CloudWatch EMF lines or "
      "Prometheus text");
  sub->add_option("--format", flags->format, "emf | prometheus")
      ->check(CLI::IsMember(std::vector<std::string>(all_names<MonitorFormat>().begin(),
                                                     all_names<MonitorFormat>().end())))
      ->capture_default_str();
  sub->add_option("--interval", flags->interval, "time between samples (e.g. 1s, 500ms)")
      ->capture_default_str();
  sub->add_option("--duration", flags->duration, "how long to run (e.g. 5m); 0 = until Ctrl-C")
      ->capture_default_str();
  sub->add_option("--out", flags->out,
                  "file to write (Prometheus: rewritten atomically each interval, for the "
                  "node-exporter textfile collector); default stdout");
  sub->add_option("--names", flags->names,
                  "metric names: gpusizer | cloudwatch (the CloudWatch agent's nvidia_smi_* "
                  "names and dimensions, EMF) | dcgm (dcgm-exporter's DCGM_FI_DEV_* names and "
                  "labels, Prometheus), so existing alarms and dashboards match")
      ->check(CLI::IsMember(std::vector<std::string>(all_names<MetricNames>().begin(),
                                                     all_names<MetricNames>().end())))
      ->capture_default_str();
  sub->add_option("--namespace", flags->emf_namespace,
                  "CloudWatch namespace (EMF; default gpusizer, CWAgent with --names cloudwatch)");
  sub->add_option("--idle-after", flags->idle_after,
                  "release idle GPUs: when every GPU's (every MIG slice's) utilization and memory "
                  "activity stay under the thresholds this long (e.g. 20m), log why, run "
                  "--on-idle once and exit 3 (4 if the command failed); 0 = never")
      ->capture_default_str();
  sub->add_option("--on-idle", flags->on_idle,
                  "command to run once when idle (/bin/sh -c), e.g. a stop or scale-in command; "
                  "without it, exit 3 and let the scheduler act");
  sub->add_flag("--dry-run,!--no-dry-run", flags->dry_run,
                "only log the command --on-idle would run (the default); --no-dry-run runs it")
      ->capture_default_str();
  sub->add_option("--idle-grace", flags->idle_grace, "never act sooner than this after the start")
      ->capture_default_str();
  sub->add_option("--idle-utilization", flags->idle_utilization,
                  "idle: NVML utilization.gpu below this percentage")
      ->capture_default_str();
  sub->add_option("--idle-memory-activity", flags->idle_memory_activity,
                  "idle: NVML utilization.memory (memory activity) below this percentage")
      ->capture_default_str();
  sub->add_option("--idle-mig-memory", flags->idle_mig_memory_mib,
                  "idle: a MIG slice without NVML utilization (most drivers) counts as idle "
                  "while its memory used is below this many MiB")
      ->capture_default_str();
  sub->add_flag("--no-hostname", flags->no_hostname,
                "leave the host out of dimensions and labels (the CloudWatch agent's "
                "omit_hostname, as with append_dimensions; dcgm-exporter's --no-hostname)");
  sub->add_option("--dimension", flags->dimensions,
                  "extra KEY=VALUE dimension (EMF) / label (Prometheus); repeatable");
  sub->callback([flags, &action] {
    action = [flags] {
      telemetry::MonitorOptions options = to_options(*flags);
      StopSignals signals;  // until SIGINT/SIGTERM when --duration is 0
      options.stop_requested = &StopSignals::requested();
      options.notes = &std::cerr;  // unavailable series and why, transient errors, lost GPUs
      return telemetry::run_monitor(options, std::cout);
    };
  });
}

}  // namespace gpusizer::cli
