// run_monitor as the monitor tests call it: one sample into a string, and an idle-release run
// whose --on-idle command appends a line to a marker file (so a test counts how often it ran).
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "fake_nvml_env.hpp"
#include "gpusizer/telemetry/monitor.hpp"

namespace gpusizer::test {

inline std::string host_name() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return host;
}

// One sample (a 50 ms interval for 50 ms) in `format` with `names`.
inline telemetry::MonitorOptions one_sample(const std::string& format, const std::string& names) {
  telemetry::MonitorOptions o;
  o.format = *parse<MonitorFormat>(format);
  o.names = *parse<MetricNames>(names);
  o.interval_seconds = 0.05;
  o.duration_seconds = 0.05;
  return o;
}

// The output of a run that must end normally (exit 0).
inline std::string monitor_output(const telemetry::MonitorOptions& o) {
  std::ostringstream out;
  EXPECT_EQ(telemetry::run_monitor(o, out), 0);
  return out.str();
}

struct IdleRun {
  int code = 0;
  int runs = 0;         // lines "released" the command appended
  bool marker = false;  // the command ran at all
  std::string log;      // the notes
};

// Real time on `scenario` (the fake's clock is the wall clock since nvmlInit), 50 ms samples to a
// Prometheus file, bounded at 20 s; --on-idle appends "released" to a marker file.
inline IdleRun run_idle_release(const std::string& scenario, double idle_after, double grace,
                                bool dry_run) {
  use_fake_nvml(scenario, -1);
  const auto dir = std::filesystem::temp_directory_path() /
                   ("gpusizer_idle_" + scenario + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto marker = dir / "released";
  telemetry::MonitorOptions o;
  o.format = MonitorFormat::prometheus;
  o.out_file = (dir / "gpu.prom").string();
  o.interval_seconds = 0.05;
  o.duration_seconds = 20;  // a bound for the test; the idle rule ends it long before
  o.idle.idle_after_seconds = idle_after;
  o.idle.grace_seconds = grace;
  o.on_idle_command = "echo released >> '" + marker.string() + "'";
  o.dry_run = dry_run;
  std::ostringstream out, notes;
  o.notes = &notes;
  IdleRun r;
  r.code = telemetry::run_monitor(o, out);
  r.log = notes.str();
  r.marker = std::filesystem::exists(marker);
  std::ifstream in(marker);
  for (std::string line; std::getline(in, line);) r.runs += line == "released";
  std::filesystem::remove_all(dir);
  return r;
}

}  // namespace gpusizer::test
