// `monitor` on a GPU in MIG mode (scenario mig_idle.json): one series per slice with
// dcgm-exporter's GPU_I_PROFILE / GPU_I_ID labels (CloudWatch dimensions likewise), the slice's
// own memory, no invented utilization, and the idle rule acting once when every slice is idle.
#include <gtest/gtest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "fake_nvml_env.hpp"
#include "gpusizer/telemetry/monitor.hpp"
#include "monitor_runs.hpp"
#include "prometheus_text.hpp"

namespace gpusizer::telemetry {
namespace {

using test::host_name;
using test::monitor_output;
using test::one_sample;

// At t = 2 s the 3g slice holds 40013 MiB, the 1g slice 13 MiB (the scenario's traces).
TEST(MonitorMig, DcgmSeriesPerSliceWithItsLabels) {
  test::use_fake_nvml("mig_idle.json", 2.0);
  const std::string text = monitor_output(one_sample("prometheus", "dcgm"));
  const auto samples = test::parse_prometheus(text);
  const std::string gpu0 =
      "gpu=\"0\",UUID=\"GPU-aaaaaaaa-0000-0000-0000-000000000000\",pci_bus_id=\"00000000:53:00.0\","
      "device=\"nvidia0\",modelName=\"NVIDIA H200\"";
  const std::string tail =
      "Hostname=\"" + host_name() + "\",DCGM_FI_DRIVER_VERSION=\"580.159.04\"}";
  const std::string slice3g = "{" + gpu0 + ",GPU_I_PROFILE=\"3g.71gb\",GPU_I_ID=\"1\"," + tail;
  const std::string slice1g = "{" + gpu0 + ",GPU_I_PROFILE=\"1g.18gb\",GPU_I_ID=\"13\"," + tail;
  const std::string parent = "{" + gpu0 + "," + tail;
  EXPECT_EQ(samples.at("DCGM_FI_DEV_FB_USED" + slice3g), 40013.0);
  EXPECT_EQ(samples.at("DCGM_FI_DEV_FB_FREE" + slice3g), 71424.0 - 40013.0);
  EXPECT_EQ(samples.at("DCGM_FI_DEV_FB_USED" + slice1g), 13.0);
  EXPECT_EQ(samples.at("DCGM_FI_DEV_FB_FREE" + slice1g), 17920.0 - 13.0);
  // The board's own readings stay on the GPU (power: the 1 s average over 1-2 s, 400 W); its
  // memory is the slices' (no double count in a sum); no utilization is invented anywhere.
  EXPECT_EQ(samples.at("DCGM_FI_DEV_POWER_USAGE" + parent), 400.0);
  EXPECT_EQ(samples.count("DCGM_FI_DEV_FB_USED" + parent), 0u);
  for (const auto& [series, value] : samples) {
    if (series.find("GPU_I_ID") != std::string::npos) {
      EXPECT_EQ(series.rfind("DCGM_FI_DEV_FB_", 0), 0u) << series;
    }
    if (series.rfind("DCGM_FI_DEV_GPU_UTIL", 0) == 0) {
      EXPECT_NE(series.find("gpu=\"1\""), std::string::npos) << series;
    }
  }
  // ... and the text says why, once per slice.
  const auto note = text.find("# gpusizer: {" + slice3g.substr(1));
  ASSERT_NE(note, std::string::npos) << text;
  EXPECT_NE(text.find("NVML gives no per-instance utilization", note), std::string::npos);
  // GPU 1 (not MIG): the fake's default bus ID for index 1.
  EXPECT_NE(text.find("DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",UUID=\"GPU-bbbbbbbb-0000-0000-0000-"
                      "000000000000\",pci_bus_id=\"00000000:28:00.0\""),
            std::string::npos)
      << text;
}

TEST(MonitorMig, GpusizerSeriesPerSlice) {
  test::use_fake_nvml("mig_idle.json", 2.0);
  const auto samples = test::parse_prometheus(monitor_output(one_sample("prometheus", "gpusizer")));
  const std::string gpu0 =
      "gpu=\"0\",uuid=\"GPU-aaaaaaaa-0000-0000-0000-000000000000\","
      "name=\"NVIDIA H200\",hostname=\"" +
      host_name() + "\"";
  constexpr double kMiB = 1048576.0;
  EXPECT_EQ(samples.at("gpusizer_memory_used_bytes{" + gpu0 +
                       ",GPU_I_PROFILE=\"3g.71gb\",GPU_I_ID=\"1\"}"),
            40013 * kMiB);
  EXPECT_EQ(samples.at("gpusizer_memory_total_bytes{" + gpu0 +
                       ",GPU_I_PROFILE=\"1g.18gb\",GPU_I_ID=\"13\"}"),
            17920 * kMiB);
  EXPECT_EQ(samples.at("gpusizer_memory_used_bytes{" + gpu0 + "}"), 40026 * kMiB);
}

// CloudWatch: a slice is its own metric (the agent's {index, name, host} + GPU_I_PROFILE,
// GPU_I_ID), so an alarm on the whole-GPU dimension set still matches exactly what it did.
TEST(MonitorMig, CloudWatchLinePerSlice) {
  test::use_fake_nvml("mig_idle.json", 2.0);
  MonitorOptions o = one_sample("emf", "cloudwatch");
  o.emf_namespace = "CWAgent";
  const auto lines = test::lines_of(monitor_output(o));
  ASSERT_EQ(lines.size(), 4u);  // GPU 0, its two slices, GPU 1
  const auto gpu0 = nlohmann::json::parse(lines[0]);
  EXPECT_EQ(gpu0["_aws"]["CloudWatchMetrics"][0]["Dimensions"],
            nlohmann::json::array({{"index", "name", "host"}}));
  const auto s = nlohmann::json::parse(lines[1]);
  EXPECT_EQ(s["_aws"]["CloudWatchMetrics"][0]["Dimensions"],
            nlohmann::json::array({{"index", "name", "host", "GPU_I_PROFILE", "GPU_I_ID"}}));
  EXPECT_EQ(s["index"], "0");
  EXPECT_EQ(s["GPU_I_PROFILE"], "3g.71gb");
  EXPECT_EQ(s["GPU_I_ID"], "1");
  EXPECT_EQ(s["MigUuid"], "MIG-3g000000-0000-0000-0000-000000000001");
  EXPECT_EQ(s["nvidia_smi_memory_used"], 40013.0);
  EXPECT_EQ(s["nvidia_smi_memory_total"], 71424.0);
  EXPECT_FALSE(s.contains("nvidia_smi_utilization_gpu"));
  EXPECT_FALSE(s.contains("nvidia_smi_power_draw"));  // the board's, on the GPU's line
  EXPECT_NE(s["Unavailable"].get<std::string>().find("no per-instance utilization"),
            std::string::npos);
  // --no-hostname: the agent's set once append_dimensions is on.
  o.omit_hostname = true;
  const auto h = nlohmann::json::parse(test::lines_of(monitor_output(o)).at(1));
  EXPECT_EQ(h["_aws"]["CloudWatchMetrics"][0]["Dimensions"],
            nlohmann::json::array({{"index", "name", "GPU_I_PROFILE", "GPU_I_ID"}}));
  EXPECT_FALSE(h.contains("host"));
}

// Real time: the 3g slice holds memory from 1 s to 3 s; the grace period covers the first idle
// stretch, so the rule can only hold from 3 s + idle_after.
test::IdleRun run_idle(bool dry_run) {
  return test::run_idle_release("mig_idle.json", 0.5, 1.5, dry_run);
}

TEST(MonitorMig, IdleMigGpuIsReleasedOnceWhenEverySliceIsIdle) {
  const test::IdleRun r = run_idle(false);
  EXPECT_EQ(r.code, kMonitorExitIdle) << r.log;
  EXPECT_EQ(r.runs, 1) << r.log;
  EXPECT_NE(r.log.find("monitor: idle: all 1 GPU(s) and 2 MIG slice(s) idle"), std::string::npos)
      << r.log;
  EXPECT_NE(r.log.find("2 MIG slice(s) without utilization: memory used < 1024 MiB"),
            std::string::npos)
      << r.log;
  const auto since = r.log.find("since ");
  ASSERT_NE(since, std::string::npos) << r.log;
  EXPECT_GE(std::stod(r.log.substr(since + 6)), 2.5) << r.log;  // after the busy slice, not before
}

TEST(MonitorMig, IdleMigGpuDryRunRunsNothing) {
  const test::IdleRun r = run_idle(true);
  EXPECT_EQ(r.code, kMonitorExitIdle) << r.log;
  EXPECT_FALSE(r.marker) << r.log;
  EXPECT_NE(r.log.find("dry run: would run: echo released"), std::string::npos) << r.log;
}

}  // namespace
}  // namespace gpusizer::telemetry
