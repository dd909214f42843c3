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
};

telemetry::MonitorOptions to_options(const MonitorFlags& f) {
  telemetry::MonitorOptions o;
  o.format = f.format;
  o.interval_seconds = parse_duration_seconds(f.interval, "--interval");
  // "0" (the default) is documented as "until Ctrl-C": not a duration to parse.
  const bool forever =
      (!f.duration.empty() && f.duration.find_first_not_of("0.") == std::string::npos) ||
      f.duration == "0s" || f.duration == "0ms";
  o.duration_seconds = forever ? 0.0 : parse_duration_seconds(f.duration, "--duration");
  o.out_file = f.out;
  o.names = f.names;
  if (f.names == "cloudwatch" && f.format != "emf")
    throw InputError(
        "--names cloudwatch: the CloudWatch agent's names are EMF only (--format emf)");
  if (f.names == "dcgm" && f.format != "prometheus")
    throw InputError(
        "--names dcgm: dcgm-exporter's names are Prometheus only (--format prometheus)");
  o.emf_namespace = !f.emf_namespace.empty()  ? f.emf_namespace
                    : f.names == "cloudwatch" ? "CWAgent"
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
      "throttle reasons) continuously, as CloudWatch EMF lines or Prometheus text");
  sub->add_option("--format", flags->format, "emf | prometheus")
      ->check(CLI::IsMember({"emf", "prometheus"}))
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
      ->check(CLI::IsMember({"gpusizer", "cloudwatch", "dcgm"}))
      ->capture_default_str();
  sub->add_option("--namespace", flags->emf_namespace,
                  "CloudWatch namespace (EMF; default gpusizer, CWAgent with --names cloudwatch)");
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
