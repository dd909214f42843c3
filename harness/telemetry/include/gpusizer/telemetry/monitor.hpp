// `gpusizer monitor`: samples every GPU's NVML metrics continuously and writes them as
// CloudWatch Embedded Metric Format JSON lines or Prometheus text exposition. A GPU in MIG mode
// also gives one series per MIG slice (memory used and total; utilization where NVML gives it),
// labelled GPU_I_PROFILE and GPU_I_ID as dcgm-exporter does.
#pragma once

#include <atomic>
#include <map>
#include <ostream>
#include <string>

#include "gpusizer/telemetry/idle_watch.hpp"
#include "gpusizer/vocabulary.hpp"

namespace gpusizer {

// What `monitor` writes: CloudWatch EMF JSON lines or Prometheus text exposition.
#define GPUSIZER_MONITOR_FORMAT_VALUES(X) X(emf, "emf") X(prometheus, "prometheus")
GPUSIZER_VOCABULARY(MonitorFormat, GPUSIZER_MONITOR_FORMAT_VALUES)
// Metric names: gpusizer's own, the CloudWatch agent's (EMF only) or dcgm-exporter's
// (Prometheus only).
#define GPUSIZER_METRIC_NAMES_VALUES(X) \
  X(gpusizer, "gpusizer") X(cloudwatch, "cloudwatch") X(dcgm, "dcgm")
GPUSIZER_VOCABULARY(MetricNames, GPUSIZER_METRIC_NAMES_VALUES)

}  // namespace gpusizer

namespace gpusizer::telemetry {

struct MonitorOptions {
  MonitorFormat format = MonitorFormat::emf;
  double interval_seconds = 1.0;
  double duration_seconds = 0;  // 0: until *stop_requested becomes true (SIGINT/SIGTERM)
  std::string out_file;         // empty: write to the stream given to run_monitor
  // Metric names: gpusizer (its own), cloudwatch (EMF only: the CloudWatch agent's
  // nvidia_smi_* names and {index, name, host} dimensions) or dcgm (Prometheus only:
  // dcgm-exporter's DCGM_FI_DEV_* names and labels), so existing alarms and dashboards match.
  MetricNames names = MetricNames::gpusizer;
  std::string emf_namespace = "gpusizer";
  std::map<std::string, std::string> dimensions;  // extra EMF dimensions / Prometheus labels
  // Leave the host name out of the dimensions and labels, as the CloudWatch agent does once
  // append_dimensions is set (omit_hostname) and dcgm-exporter does with --no-hostname.
  bool omit_hostname = false;
  const std::atomic<bool>* stop_requested = nullptr;
  // Where the notes go (the CLI: stderr): per GPU, each series that is unavailable and why,
  // transient NVML errors, a GPU that is lost. Null: not written.
  std::ostream* notes = nullptr;
  // Release idle GPUs: when every GPU (every slice of a MIG GPU) stays idle for
  // idle.idle_after_seconds (> 0), log why, run
  // on_idle_command once with /bin/sh -c (only when !dry_run; a dry run logs what it would
  // run) and return kMonitorExitIdle, so a scheduler can act on the exit code instead.
  IdlePolicy idle;
  std::string on_idle_command;
  bool dry_run = true;
};

// Exit codes of run_monitor besides 0 (duration over or stopped): every GPU was idle (the
// command, if any, ran and succeeded, or this was a dry run), or the command failed.
constexpr int kMonitorExitIdle = 3;
constexpr int kMonitorExitIdleCommandFailed = 4;

// Returns 0 after the duration (or a stop request). Throws InputError for bad options and
// RuntimeError when NVML is unavailable or the output cannot be written.
int run_monitor(const MonitorOptions& options, std::ostream& out);

}  // namespace gpusizer::telemetry
