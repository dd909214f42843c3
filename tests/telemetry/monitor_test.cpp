// `monitor` output against the formats' rules: EMF lines are JSON with the _aws structure;
// Prometheus text is checked by a small parser of the exposition format.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "fake_nvml_env.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/telemetry/monitor.hpp"
#include "monitor_runs.hpp"
#include "prometheus_text.hpp"

namespace gpusizer::telemetry {
namespace {

using test::lines_of;
using test::parse_prometheus;

TEST(Monitor, EmfLinesCarryTheAwsStructure) {
  test::use_fake_nvml("h200_traces.json", 10.5);  // 300 W, 100 % GPU, 60 % memory
  MonitorOptions o;
  o.format = MonitorFormat::emf;
  o.interval_seconds = 0.05;
  o.duration_seconds = 0.2;
  o.dimensions["Cluster"] = "c1";
  std::ostringstream out;
  EXPECT_EQ(run_monitor(o, out), 0);
  const auto lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 4u);  // samples at 0, 0.05, 0.10, 0.15 s; one GPU
  for (const auto& line : lines) {
    const auto j = nlohmann::json::parse(line);
    ASSERT_TRUE(j["_aws"]["Timestamp"].is_number_integer());
    EXPECT_GT(j["_aws"]["Timestamp"].get<std::int64_t>(), 1'600'000'000'000);
    const auto& cwm = j["_aws"]["CloudWatchMetrics"];
    ASSERT_EQ(cwm.size(), 1u);
    EXPECT_EQ(cwm[0]["Namespace"], "gpusizer");
    ASSERT_EQ(cwm[0]["Dimensions"].size(), 1u);
    for (const auto& d : cwm[0]["Dimensions"][0]) EXPECT_TRUE(j[d.get<std::string>()].is_string());
    EXPECT_EQ(cwm[0]["Dimensions"][0], nlohmann::json({"GpuIndex", "GpuUuid", "Host", "Cluster"}));
    std::set<std::string> names;
    for (const auto& metric : cwm[0]["Metrics"]) {
      names.insert(metric["Name"]);
      EXPECT_TRUE(j[metric["Name"].get<std::string>()].is_number()) << metric;
      EXPECT_TRUE(metric["Unit"].is_string());
    }
    EXPECT_TRUE(names.count("utilization_gpu"));
    EXPECT_TRUE(names.count("utilization_memory"));
    EXPECT_EQ(j["utilization_gpu"], 100.0);
    EXPECT_EQ(j["utilization_memory"], 60.0);
    EXPECT_EQ(j["power_watts"], 300.0);
    EXPECT_EQ(j["sm_clock_mhz"], 1980.0);
    EXPECT_EQ(j["throttled"], 0.0);
    EXPECT_EQ(j["GpuUuid"], "GPU-11111111-2222-3333-4444-555555555555");
  }
  // Energy per interval needs a previous sample: absent on the first line only.
  EXPECT_FALSE(nlohmann::json::parse(lines[0]).contains("energy_joules"));
  EXPECT_EQ(nlohmann::json::parse(lines[1])["energy_joules"], 0.0);  // virtual clock stands
}

TEST(Monitor, PrometheusFileIsRewrittenWhole) {
  test::use_fake_nvml("h200_traces.json", 11.5);  // throttling: sw_power_cap, 500 W
  const auto file = std::filesystem::temp_directory_path() /
                    ("gpusizer_monitor_" + std::to_string(::getpid()) + ".prom");
  MonitorOptions o;
  o.format = MonitorFormat::prometheus;
  o.interval_seconds = 0.05;
  o.duration_seconds = 0.15;
  o.out_file = file.string();
  std::ostringstream out;
  EXPECT_EQ(run_monitor(o, out), 0);
  EXPECT_TRUE(out.str().empty());
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  std::filesystem::remove(file);
  const auto samples = parse_prometheus(text.str());
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  const std::string labels =
      "{gpu=\"0\",uuid=\"GPU-11111111-2222-3333-4444-555555555555\","
      "name=\"NVIDIA H200\",hostname=\"" +
      std::string(host) + "\"";
  EXPECT_EQ(samples.at("gpusizer_power_watts" + labels + "}"), 500.0);
  EXPECT_EQ(samples.at("gpusizer_utilization_gpu_percent" + labels + "}"), 100.0);
  EXPECT_EQ(samples.at("gpusizer_utilization_memory_percent" + labels + "}"), 80.0);
  EXPECT_EQ(samples.at("gpusizer_sm_clock_hertz" + labels + "}"), 1400e6);
  // sw_power_cap: at the power limit, not throttled (issue 14).
  EXPECT_EQ(samples.at("gpusizer_throttled" + labels + "}"), 0.0);
  EXPECT_EQ(samples.at("gpusizer_power_capped" + labels + "}"), 1.0);
  EXPECT_EQ(samples.at("gpusizer_clock_event_reason" + labels + ",reason=\"sw_power_cap\"}"), 1.0);
  // 5000 J base + 100 W x 10 s + 300 W x 1 s + 500 W x 0.5 s = 6550 J.
  EXPECT_NEAR(samples.at("gpusizer_energy_joules_total" + labels + "}"), 6550.0, 1e-6);
}

// The CloudWatch agent's nvidia_gpu names, in nvidia-smi's units and with its exact dimension
// set {index, name, host}, so an alarm on nvidia_smi_utilization_gpu matches gpusizer's series.
TEST(Monitor, CloudWatchAgentNamesAndDimensions) {
  test::use_fake_nvml("h200_traces.json", 11.5);  // 500 W, 100 %/80 %, 72 C, 100000 MiB used
  MonitorOptions o;
  o.format = MonitorFormat::emf;
  o.names = MetricNames::cloudwatch;
  o.emf_namespace = "CWAgent";
  o.interval_seconds = 0.05;
  o.duration_seconds = 0.05;
  std::ostringstream out;
  EXPECT_EQ(run_monitor(o, out), 0);
  const auto lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 1u);
  const auto j = nlohmann::json::parse(lines[0]);
  const auto& cwm = j["_aws"]["CloudWatchMetrics"][0];
  EXPECT_EQ(cwm["Namespace"], "CWAgent");
  EXPECT_EQ(cwm["Dimensions"], nlohmann::json::array({{"index", "name", "host"}}));
  EXPECT_EQ(j["index"], "0");
  EXPECT_EQ(j["name"], "NVIDIA H200");
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  EXPECT_EQ(j["host"], host);
  std::map<std::string, double> expected = {{"nvidia_smi_utilization_gpu", 100.0},
                                            {"nvidia_smi_utilization_memory", 80.0},
                                            {"nvidia_smi_power_draw", 500.0},
                                            {"nvidia_smi_temperature_gpu", 72.0},
                                            {"nvidia_smi_memory_total", 143771.0},
                                            {"nvidia_smi_memory_used", 100000.0},
                                            {"nvidia_smi_memory_free", 43771.0},
                                            {"nvidia_smi_clocks_current_sm", 1400.0},
                                            {"nvidia_smi_clocks_current_memory", 3201.0}};
  std::set<std::string> declared;
  for (const auto& m : cwm["Metrics"]) {
    declared.insert(m["Name"]);
    EXPECT_FALSE(m.contains("Unit")) << m;  // the agent sets none
  }
  for (const auto& [name, value] : expected) {
    EXPECT_TRUE(declared.count(name)) << name;
    EXPECT_EQ(j[name], value) << name;
  }
  EXPECT_EQ(declared.size(), expected.size());
}

// dcgm-exporter's names, units and labels (in its order: gpu, UUID, pci_bus_id, device,
// modelName, Hostname, then label fields such as the driver version), so a Grafana dashboard
// built on it works unchanged. pci_bus_id: the fake's default for GPU 0.
TEST(Monitor, DcgmExporterNamesAndLabels) {
  test::use_fake_nvml("h200_traces.json", 11.5);
  MonitorOptions o;
  o.format = MonitorFormat::prometheus;
  o.names = MetricNames::dcgm;
  o.interval_seconds = 0.05;
  o.duration_seconds = 0.05;
  std::ostringstream out;
  EXPECT_EQ(run_monitor(o, out), 0);
  const auto samples = parse_prometheus(out.str());
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  const std::string labels =
      "{gpu=\"0\",UUID=\"GPU-11111111-2222-3333-4444-555555555555\","
      "pci_bus_id=\"00000000:18:00.0\",device=\"nvidia0\",modelName=\"NVIDIA H200\",Hostname=\"" +
      std::string(host) + "\",DCGM_FI_DRIVER_VERSION=\"570.86.15\"}";
  const std::map<std::string, double> expected = {
      {"DCGM_FI_DEV_SM_CLOCK", 1400.0},
      {"DCGM_FI_DEV_MEM_CLOCK", 3201.0},
      {"DCGM_FI_DEV_GPU_TEMP", 72.0},
      {"DCGM_FI_DEV_POWER_USAGE", 500.0},
      // 5000 J base + 100 W x 10 s + 300 W x 1 s + 500 W x 0.5 s = 6550 J = 6 550 000 mJ.
      {"DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", 6550000.0},
      {"DCGM_FI_DEV_GPU_UTIL", 100.0},
      {"DCGM_FI_DEV_MEM_COPY_UTIL", 80.0},
      {"DCGM_FI_DEV_FB_USED", 100000.0},
      {"DCGM_FI_DEV_FB_FREE", 43771.0}};
  for (const auto& [name, value] : expected) EXPECT_EQ(samples.at(name + labels), value) << name;
  EXPECT_EQ(samples.size(), expected.size());  // nothing under gpusizer's own names
  EXPECT_NE(out.str().find("# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counter"),
            std::string::npos);
}

// monitor --idle-after on a driver trace: idle (inside the grace period), busy 1-3 s, idle
// again: the command runs exactly once, after idle_after of the second idle stretch, and the
// exit code says so. Real time (the fake's clock is the wall clock since nvmlInit).
TEST(Monitor, IdleGpusAreReleasedOnceAfterTheBusyStretch) {
  // The grace period (1.5 s) covers the first idle stretch (0-1 s): it must not count.
  const test::IdleRun r = test::run_idle_release("idle_busy_idle.json", 0.5, 1.5, false);
  EXPECT_EQ(r.code, kMonitorExitIdle) << r.log;
  EXPECT_EQ(r.runs, 1) << r.log;
  const std::string& log = r.log;
  EXPECT_NE(log.find("monitor: idle: all 2 GPU(s) idle"), std::string::npos) << log;
  EXPECT_NE(log.find("running: echo released"), std::string::npos) << log;
  EXPECT_NE(log.find("the command exited 0"), std::string::npos) << log;
  // Acted in the second idle stretch (from ~3 s), not in the first: "since X s", X >= 2.5.
  const auto since = log.find("since ");
  ASSERT_NE(since, std::string::npos) << log;
  EXPECT_GE(std::stod(log.substr(since + 6)), 2.5) << log;
}

// The default is a dry run: the same trace logs what it would run and runs nothing.
TEST(Monitor, IdleDryRunRunsNothing) {
  test::use_fake_nvml("idle_busy_idle.json", -1);
  const auto marker =
      std::filesystem::temp_directory_path() / ("gpusizer_idle_dry_" + std::to_string(::getpid()));
  std::filesystem::remove(marker);
  MonitorOptions o;
  o.format = MonitorFormat::emf;
  o.interval_seconds = 0.05;
  o.duration_seconds = 20;
  o.idle.idle_after_seconds = 0.3;
  o.idle.grace_seconds = 0;
  o.on_idle_command = "touch '" + marker.string() + "'";
  std::ostringstream out, notes;
  o.notes = &notes;
  EXPECT_EQ(run_monitor(o, out), kMonitorExitIdle) << notes.str();
  EXPECT_FALSE(std::filesystem::exists(marker));
  EXPECT_NE(notes.str().find("dry run: would run: touch"), std::string::npos) << notes.str();
  // A command given without --idle-after is refused.
  MonitorOptions bad;
  bad.on_idle_command = "true";
  EXPECT_THROW(run_monitor(bad, out), InputError);
}

TEST(Monitor, NotesSayWhichSeriesAreUnavailableAndWhy) {
  // mig_h200.json: GPU 0 is in MIG mode, where NVML has no utilization (NOT_SUPPORTED).
  test::use_fake_nvml("mig_h200.json", 1.0);
  MonitorOptions o;
  o.format = MonitorFormat::prometheus;
  o.interval_seconds = 0.05;
  o.duration_seconds = 0.1;
  std::ostringstream out, notes;
  o.notes = &notes;
  EXPECT_EQ(run_monitor(o, out), 0);
  const std::string text = notes.str();
  EXPECT_NE(text.find("monitor: GPU 0 (GPU-aaaaaaaa-0000-0000-0000-000000000000): "
                      "utilization_gpu, utilization_memory unavailable (utilization: Not "
                      "Supported (code 3)); the GPU is in MIG mode"),
            std::string::npos)
      << text;
  // Said once, not at every sample; GPU 1 has utilization (no trace: 0 %), so no such note.
  const std::string gpu0 = "GPU 0 (GPU-aaaaaaaa-0000-0000-0000-000000000000): utilization_gpu";
  EXPECT_EQ(text.find(gpu0, text.find(gpu0) + 1), std::string::npos);
  EXPECT_EQ(text.find("GPU 1 (GPU-bbbbbbbb-0000-0000-0000-000000000000): utilization"),
            std::string::npos)
      << text;
  // ... and nothing about utilization reaches the exposition text for GPU 0.
  EXPECT_EQ(out.str().find("gpusizer_utilization_gpu_percent{gpu=\"0\""), std::string::npos);
}

TEST(Monitor, TransientErrorsAndLostGpusAreNoted) {
  // driver_like.json: SM and memory clock reads fail for 12 <= t < 13; GPU 1 needs a reset
  // from t = 5.
  test::use_fake_nvml("driver_like.json", 12.5);
  MonitorOptions o;
  o.format = MonitorFormat::emf;
  o.interval_seconds = 0.05;
  o.duration_seconds = 0.1;
  std::ostringstream out, notes;
  o.notes = &notes;
  EXPECT_EQ(run_monitor(o, out), 0);
  const std::string text = notes.str();
  EXPECT_NE(text.find("GPU 0 (GPU-d0000000-0000-0000-0000-000000000000): SM clock: Unknown Error "
                      "(code 999) (transient; read again next time)"),
            std::string::npos)
      << text;
  // GPU 1 needs a reset: its UUID cannot be read either, so only its index names it.
  const auto reset = text.find("GPU requires reset");
  ASSERT_NE(reset, std::string::npos) << text;
  EXPECT_EQ(text.rfind("monitor: GPU 1 (", reset), text.rfind("monitor: ", reset)) << text;
  // The clocks come back when the errors stop.
  test::fake_nvml_set_time(13.5);
  std::ostringstream out2;
  o.notes = nullptr;
  EXPECT_EQ(run_monitor(o, out2), 0);
  EXPECT_NE(out2.str().find("\"sm_clock_mhz\":1755"), std::string::npos) << out2.str();
}

TEST(Monitor, PrometheusParserRejectsBrokenText) {
  EXPECT_NONFATAL_FAILURE(parse_prometheus("x{a=\"1\"} 1\n"), "sample before its TYPE");
  EXPECT_NONFATAL_FAILURE(parse_prometheus("# TYPE x gauge\n# TYPE x gauge\n"), "duplicate TYPE");
  EXPECT_NONFATAL_FAILURE(parse_prometheus("# TYPE x gauge\nx{a=1} 1\n"), "not exposition format");
}

TEST(Monitor, StopsOnRequestWhenRunningWithoutDuration) {
  test::use_fake_nvml("h200_traces.json", 1.0);
  std::atomic<bool> stop{false};
  MonitorOptions o;
  o.format = MonitorFormat::prometheus;
  o.interval_seconds = 0.05;
  o.stop_requested = &stop;
  std::ostringstream out;
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    stop = true;
  });
  EXPECT_EQ(run_monitor(o, out), 0);
  stopper.join();
  // Documents are separated by blank lines; each one parses on its own.
  const std::string text = out.str();
  std::size_t docs = 0;
  for (std::size_t at = 0, next; at < text.size(); at = next + 2) {
    next = text.find("\n\n", at);
    if (next == std::string::npos) break;
    parse_prometheus(text.substr(at, next - at + 1));
    ++docs;
  }
  EXPECT_GE(docs, 2u);
}

TEST(Monitor, BadOptionsAndNoDriverAreErrors) {
  test::use_fake_nvml("h200_traces.json", 1.0);
  std::ostringstream out;
  MonitorOptions o;
  o.interval_seconds = 0;
  EXPECT_THROW(run_monitor(o, out), InputError);
  o.interval_seconds = 1;
  o.dimensions["bad-name"] = "x";
  EXPECT_THROW(run_monitor(o, out), InputError);
  test::use_fake_nvml("no_driver.json");
  MonitorOptions ok;
  ok.duration_seconds = 1;
  EXPECT_THROW(run_monitor(ok, out), RuntimeError);
}

}  // namespace
}  // namespace gpusizer::telemetry
