// The provider's probes end to end (sampler thread included) on the fake NVML's virtual clock.
// Every sample of a window is taken at its begin or end time (the clock only moves there), so
// the flags are deterministic: the throttling episode is t in [11, 12), the ECC error and the
// row remap at t = 15.
#include <gtest/gtest.h>

#include <thread>

#include "fake_nvml_env.hpp"
#include "gpusizer/telemetry/telemetry.hpp"

namespace gpusizer {
namespace {

using test::gpu_target;

TelemetryWindow window(TelemetryProbe& probe, double from, double to) {
  test::fake_nvml_set_time(from);
  probe.begin();
  std::this_thread::sleep_for(std::chrono::milliseconds(30));  // let the thread sample
  test::fake_nvml_set_time(to);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  return probe.end();
}

Target mig_target(const std::string& id, const std::string& parent, const std::string& uuid) {
  Target slice;
  slice.id = id;
  slice.kind = TargetKind::mig;
  slice.parent = parent;
  slice.uuid = uuid;
  return slice;
}

TEST(TelemetryProvider, ThrottleAndEccFlagsOnlyOnOverlappingWindows) {
  test::use_fake_nvml("h200_traces.json", 0.0);
  telemetry::TelemetryOptions options;
  options.sample_period_seconds = 0.01;
  auto provider = make_telemetry_provider(options);
  auto probe = provider->probe_for(gpu_target(0, "GPU-11111111-2222-3333-4444-555555555555"));

  const auto before = window(*probe, 1.0, 2.0);
  EXPECT_EQ(before.source, TelemetrySource::nvml);
  EXPECT_EQ(before.scope, "GPU board power (NVML)");
  EXPECT_EQ(before.attribution, "whole device");
  EXPECT_GE(before.sample_count, 2u);
  EXPECT_FALSE(before.throttled);
  EXPECT_FALSE(before.ecc_errors_during_run);
  EXPECT_EQ(*before.remapped_rows_corrected_delta, 0u);
  EXPECT_FALSE(before.memory_errors_during_run);
  // 100 W for 1 s of virtual time.
  EXPECT_NEAR(*before.energy_joules, 100.0, 1e-6);

  const auto episode = window(*probe, 10.5, 11.5);
  // sw_power_cap is the board at its power limit: power_capped, not throttled (issue 14).
  EXPECT_FALSE(episode.throttled);
  EXPECT_TRUE(episode.power_capped);
  EXPECT_EQ(episode.throttle_reasons, std::vector<std::string>{"sw_power_cap"});
  EXPECT_FALSE(episode.ecc_errors_during_run);
  // 300 W x 0.5 s + 500 W x 0.5 s.
  EXPECT_NEAR(*episode.energy_joules, 400.0, 1e-6);

  const auto after = window(*probe, 12.5, 14.0);
  EXPECT_FALSE(after.throttled);
  EXPECT_FALSE(after.power_capped);
  EXPECT_FALSE(after.ecc_errors_during_run);

  const auto ecc = window(*probe, 14.0, 16.0);
  EXPECT_TRUE(ecc.ecc_errors_during_run);
  EXPECT_EQ(*ecc.ecc_corrected_delta, 1u);
  // The row remap at t = 15: rows (2, 0) -> (3, 1), pending from then on.
  EXPECT_TRUE(ecc.memory_errors_during_run);
  EXPECT_EQ(*ecc.remapped_rows_corrected_delta, 1u);
  EXPECT_EQ(*ecc.remapped_rows_uncorrected_delta, 1u);
  EXPECT_TRUE(ecc.row_remap_pending);
  EXPECT_FALSE(ecc.throttled);

  const auto later = window(*probe, 16.0, 18.0);
  EXPECT_FALSE(later.ecc_errors_during_run);
  EXPECT_FALSE(later.memory_errors_during_run);
  EXPECT_TRUE(later.row_remap_pending);
  EXPECT_FALSE(later.throttled);
}

TEST(TelemetryProvider, MigWindowIsAttributedToTheWholeBoard) {
  test::use_fake_nvml("mig_h200.json", 0.0);
  auto provider = make_telemetry_provider({});
  auto probe = provider->probe_for(
      mig_target("gpu0/mig-1g.18gb-gi13-ci0", "gpu0", "MIG-1g000000-0000-0000-0000-000000000003"));
  const auto w = window(*probe, 1.0, 3.0);
  EXPECT_EQ(w.source, TelemetrySource::nvml);
  EXPECT_NEAR(*w.power_mean_watts, 250.0, 1e-9);  // the board's 250 W, not the slice's
  EXPECT_NE(w.attribution.find("whole GPU board"), std::string::npos) << w.attribution;
  EXPECT_NE(w.attribution.find("3 other slice(s)"), std::string::npos) << w.attribution;
  EXPECT_NE(w.attribution.find("concurrent mode"), std::string::npos) << w.attribution;
}

// A slice NVML could not list (driver_like.json: GPU 2 in MIG mode answers NO_PERMISSION for
// every slot, as in a pod without MIG monitoring rights): the window says that, not only "no
// device matching".
TEST(TelemetryProvider, UnlistedSliceSaysWhatEnumerationCouldNotRead) {
  test::use_fake_nvml("driver_like.json", 0.0);
  auto provider = make_telemetry_provider({});
  const auto slice = mig_target("gpu2/mig-3g", "gpu2", "MIG-d2000000-3g00-0000-0000-000000000001");
  const auto w = provider->probe_for(slice)->end();
  EXPECT_EQ(w.source, TelemetrySource::unavailable);
  EXPECT_NE(w.unavailable_reason.find("no device matching gpu2/mig-3g"), std::string::npos)
      << w.unavailable_reason;
  EXPECT_NE(
      w.unavailable_reason.find("GPU 2: MIG devices not listed: "
                                "nvmlDeviceGetMigDeviceHandleByIndex: NVML_ERROR_NO_PERMISSION"),
      std::string::npos)
      << w.unavailable_reason;
}

TEST(TelemetryProvider, UnknownTargetsAndMissingDriverAreUnavailableNotErrors) {
  test::use_fake_nvml("mig_h200.json", 0.0);
  auto provider = make_telemetry_provider({});
  Target missing = gpu_target(5, "GPU-not-there");
  auto w = provider->probe_for(missing)->end();
  EXPECT_EQ(w.source, TelemetrySource::unavailable);
  EXPECT_NE(w.unavailable_reason.find("no device matching gpu5"), std::string::npos);

  provider.reset();  // the fake loads a new scenario only when no NVML user remains
  test::use_fake_nvml("no_driver.json");
  auto none = make_telemetry_provider({});
  auto probe = none->probe_for(gpu_target(0, "GPU-x"));
  probe->begin();
  w = probe->end();
  EXPECT_EQ(w.source, TelemetrySource::unavailable);
  EXPECT_EQ(w.scope, "GPU board power (NVML)");
  EXPECT_NE(w.unavailable_reason.find("Driver Not Loaded"), std::string::npos);

  telemetry::TelemetryOptions off;
  off.enabled = false;
  auto disabled = make_telemetry_provider(off);
  EXPECT_EQ(disabled->probe_for(gpu_target(0, "GPU-x"))->end().unavailable_reason,
            "telemetry disabled by the user");
}

TEST(TelemetryProvider, LostGpuGivesPartialThenUnavailableWindows) {
  test::use_fake_nvml("errors.json", 0.0);
  auto provider = make_telemetry_provider({});
  auto probe = provider->probe_for(gpu_target(1, "GPU-dddddddd-0000-0000-0000-000000000000"));
  const auto partial = window(*probe, 4.0, 6.0);  // lost at 5
  EXPECT_EQ(partial.source, TelemetrySource::nvml);
  EXPECT_GE(partial.sample_count, 1u);
  EXPECT_FALSE(partial.notes.empty());
  EXPECT_NE(partial.notes.back().find("GPU is lost"), std::string::npos);
  const auto gone = window(*probe, 7.0, 8.0);
  EXPECT_EQ(gone.source, TelemetrySource::unavailable);
  EXPECT_NE(gone.unavailable_reason.find("GPU is lost"), std::string::npos);
}

TEST(TelemetryProvider, ResetRequiredGivesPartialThenUnavailableWindows) {
  test::use_fake_nvml("driver_like.json", 0.0);
  auto provider = make_telemetry_provider({});
  auto probe = provider->probe_for(gpu_target(1, "GPU-d1000000-0000-0000-0000-000000000000"));
  const auto partial = window(*probe, 4.0, 6.0);  // reset required from 5
  EXPECT_EQ(partial.source, TelemetrySource::nvml);
  ASSERT_FALSE(partial.notes.empty());
  EXPECT_NE(partial.notes.back().find("GPU requires reset"), std::string::npos);
  const auto gone = window(*probe, 7.0, 8.0);
  EXPECT_EQ(gone.source, TelemetrySource::unavailable);
  EXPECT_NE(gone.unavailable_reason.find("GPU requires reset"), std::string::npos);
}

TEST(TelemetryProvider, IdlePowerFromTheEnergyCounter) {
  // Wall-clock mode: the fake's first 10 s draw 100 W.
  test::use_fake_nvml("mig_h200.json", -1.0);
  telemetry::TelemetryOptions options;
  // 1.2 s: the fake's counter advances every 100 ms, as a driver's, so counter / seconds is
  // within 0.1 s / 1.2 s of the draw (the production default, 3 s, is within 3.3 %).
  options.idle_seconds = 1.2;
  options.sample_period_seconds = 0.05;
  auto provider = make_telemetry_provider(options);
  Target gpu0 = gpu_target(0, "GPU-aaaaaaaa-0000-0000-0000-000000000000");
  Target gpu1 = gpu_target(1, "GPU-bbbbbbbb-0000-0000-0000-000000000000");
  Target slice;
  slice.id = "gpu0/mig-3g.71gb-gi1-ci0";
  slice.kind = TargetKind::mig;
  slice.parent = "gpu0";
  const auto idle = provider->measure_idle({gpu0, gpu1, slice});
  // gpu0 draws a constant 250 W, gpu1 90 W (scenario); counter / seconds within 0.1 / 1.2.
  EXPECT_NEAR(idle["gpu0"]["idle_power_watts"].get<double>(), 250.0, 250.0 * 0.1 / 1.2 + 1)
      << idle.dump();
  EXPECT_NEAR(idle["gpu1"]["idle_power_watts"].get<double>(), 90.0, 90.0 * 0.1 / 1.2 + 1)
      << idle.dump();
  EXPECT_EQ(idle["gpu0"]["source"], "NVML total-energy counter delta / seconds");
  EXPECT_EQ(idle["gpu0"]["scope"], "GPU board power (NVML)");
  EXPECT_GE(idle["gpu0"]["samples"].get<int>(), 3);
  EXPECT_GE(idle["gpu0"]["seconds"].get<double>(), 1.2);
  EXPECT_TRUE(idle[slice.id].contains("unavailable"));
}

}  // namespace
}  // namespace gpusizer
