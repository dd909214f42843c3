// Statistics of a window from hand-made samples; expected values computed by hand below.
#include <gtest/gtest.h>

#include "window_summary.hpp"

namespace gpusizer::telemetry {
namespace {

GpuSample sample(double t, double watts, std::uint64_t energy_mj, double sm_mhz,
                 std::uint64_t reasons) {
  GpuSample s;
  s.t_seconds = t;
  s.power_watts = watts;
  s.energy_millijoules = energy_mj;
  s.sm_clock_mhz = sm_mhz;
  s.clock_event_reasons = reasons;
  s.ecc_corrected_volatile = 7;
  s.ecc_uncorrected_volatile = 0;
  return s;
}

GpuStatics statics() {
  GpuStatics st;
  st.power_field = "instant";
  st.default_sm_clock_mhz = 2000;
  st.default_sm_clock_source = "default applications clock";
  return st;
}

TEST(WindowSummary, PowerEnergyAndClockStatistics) {
  // Power 100, 200, 300, 400 W at t = 0, 1, 2, 3 s; counter 0 -> 750 J.
  std::vector<GpuSample> s{sample(0, 100, 1'000'000, 1800, 0), sample(1, 200, 1'150'000, 1800, 0),
                           sample(2, 300, 1'400'000, 1600, 0), sample(3, 400, 1'750'000, 1600, 0)};
  const auto w = summarize_gpu_window(s, statics(), 0.025);
  EXPECT_EQ(w.source, "nvml");
  EXPECT_EQ(w.scope, "GPU board power (NVML)");
  EXPECT_EQ(w.sample_count, 4u);
  EXPECT_DOUBLE_EQ(w.duration_seconds, 3.0);
  EXPECT_DOUBLE_EQ(*w.power_mean_watts, 250.0);
  EXPECT_DOUBLE_EQ(*w.power_peak_watts, 400.0);
  // numpy linear percentile of [100,200,300,400]: p5 at rank 0.15 -> 115; p95 at 2.85 -> 385.
  EXPECT_NEAR(*w.power_p5_watts, 115.0, 1e-9);
  EXPECT_NEAR(*w.power_p95_watts, 385.0, 1e-9);
  EXPECT_DOUBLE_EQ(*w.energy_joules, 750.0);
  EXPECT_EQ(w.energy_method, "energy counter delta");
  // Trapezoid: 150 + 250 + 350 = 750.
  EXPECT_DOUBLE_EQ(*w.energy_integrated_joules, 750.0);
  EXPECT_DOUBLE_EQ(*w.sm_clock_mean_mhz, 1700.0);
  EXPECT_DOUBLE_EQ(*w.sm_clock_ratio, 0.85);
  EXPECT_FALSE(w.throttled);
  EXPECT_EQ(*w.ecc_corrected_delta, 0u);
  EXPECT_FALSE(w.ecc_errors_during_run);
}

TEST(WindowSummary, IntegratedPowerWhenNoCounter) {
  std::vector<GpuSample> s{sample(0, 100, 0, 2000, 0), sample(2, 300, 0, 2000, 0)};
  for (auto& x : s) x.energy_millijoules.reset();
  const auto w = summarize_gpu_window(s, statics(), 0.025);
  EXPECT_EQ(w.energy_method, "integrated power samples");
  EXPECT_DOUBLE_EQ(*w.energy_joules, 400.0);  // (100 + 300) / 2 * 2 s
}

TEST(WindowSummary, ThrottledByReasonOrByClockRatio) {
  // sw_power_cap (0x4) in one sample.
  std::vector<GpuSample> a{sample(0, 100, 0, 2000, 0), sample(1, 100, 0, 2000, 0x4)};
  const auto wa = summarize_gpu_window(a, statics(), 0.025);
  EXPECT_TRUE(wa.throttled);
  EXPECT_EQ(wa.throttle_reasons, std::vector<std::string>{"sw_power_cap"});
  // gpu_idle (0x1) is not a throttle.
  std::vector<GpuSample> b{sample(0, 100, 0, 2000, 0x1), sample(1, 100, 0, 2000, 0x1)};
  EXPECT_FALSE(summarize_gpu_window(b, statics(), 0.025).throttled);
  // Mean SM clock 1400 of 2000 = 0.70 < 0.75 without any reason bit.
  std::vector<GpuSample> c{sample(0, 100, 0, 1400, 0), sample(1, 100, 0, 1400, 0)};
  const auto wc = summarize_gpu_window(c, statics(), 0.025);
  EXPECT_TRUE(wc.throttled);
  EXPECT_TRUE(wc.throttle_reasons.empty());
  // Exactly 0.75 is not below the threshold.
  std::vector<GpuSample> d{sample(0, 100, 0, 1500, 0), sample(1, 100, 0, 1500, 0)};
  EXPECT_FALSE(summarize_gpu_window(d, statics(), 0.025).throttled);
}

TEST(WindowSummary, ReasonNamesCoverKnownAndUnknownBits) {
  EXPECT_EQ(clock_event_reason_names(0x40 | 0x80),
            (std::vector<std::string>{"hw_thermal_slowdown", "hw_power_brake_slowdown"}));
  EXPECT_EQ(clock_event_reason_names(1ULL << 40), std::vector<std::string>{"unknown_bit_40"});
  EXPECT_TRUE(is_power_or_thermal_reason(0x20));
  EXPECT_FALSE(is_power_or_thermal_reason(0x1 | 0x2 | 0x10 | 0x100));
}

TEST(WindowSummary, EccDeltaSetsFlag) {
  std::vector<GpuSample> s{sample(0, 100, 0, 2000, 0), sample(1, 100, 0, 2000, 0)};
  s[1].ecc_uncorrected_volatile = 2;
  const auto w = summarize_gpu_window(s, statics(), 0.025);
  EXPECT_TRUE(w.ecc_errors_during_run);
  EXPECT_EQ(*w.ecc_uncorrected_delta, 2u);
}

TEST(WindowSummary, EmptySampleSetHasNoFigures) {
  const auto w = summarize_gpu_window({}, statics(), 0.025);
  EXPECT_EQ(w.sample_count, 0u);
  EXPECT_FALSE(w.energy_joules.has_value());
  EXPECT_FALSE(w.power_mean_watts.has_value());
}

GpuSample health(double t, std::uint64_t rows_c, std::uint64_t rows_u, bool pending, bool failure) {
  GpuSample s;
  s.t_seconds = t;
  s.remapped_rows_corrected = rows_c;
  s.remapped_rows_uncorrected = rows_u;
  s.row_remap_pending = pending;
  s.row_remap_failure = failure;
  return s;
}

TEST(WindowSummary, MemoryHealthFromTheFirstAndLastSampleThatCarryIt) {
  GpuSample middle;  // a periodic sample: no memory-health reading
  middle.t_seconds = 0.5;
  // Rows 4/1 -> 6/1: corrected delta 2, uncorrected 0; flag set.
  auto w = summarize_gpu_window(
      {health(0, 4, 1, false, false), middle, health(1, 6, 1, false, false)}, statics(), 0.5);
  EXPECT_EQ(*w.remapped_rows_corrected_delta, 2u);
  EXPECT_EQ(*w.remapped_rows_uncorrected_delta, 0u);
  EXPECT_TRUE(w.memory_errors_during_run);
  EXPECT_FALSE(w.ecc_errors_during_run);  // a separate flag
  EXPECT_FALSE(w.retired_pages_delta.has_value());

  // Pending and failed already at the start: reported, but nothing happened in this window.
  w = summarize_gpu_window({health(0, 6, 1, true, true), middle, health(1, 6, 1, true, true)},
                           statics(), 0.5);
  EXPECT_TRUE(w.row_remap_pending);
  EXPECT_TRUE(w.row_remap_failure);
  EXPECT_FALSE(w.memory_errors_during_run);

  // A pending remapping appears with no count change.
  w = summarize_gpu_window({health(0, 6, 1, false, false), health(1, 6, 1, true, false)}, statics(),
                           1);
  EXPECT_TRUE(w.memory_errors_during_run);

  // Retired pages: 5 -> 5, pending appears; 5 -> 7 counts.
  GpuSample a, b;
  a.retired_pages = 5;
  a.retired_pages_pending = false;
  b.t_seconds = 1;
  b.retired_pages = 5;
  b.retired_pages_pending = true;
  w = summarize_gpu_window({a, b}, statics(), 1);
  EXPECT_EQ(*w.retired_pages_delta, 0u);
  EXPECT_TRUE(w.retired_pages_pending);
  EXPECT_TRUE(w.memory_errors_during_run);
  b.retired_pages = 7;
  b.retired_pages_pending = false;
  w = summarize_gpu_window({a, b}, statics(), 1);
  EXPECT_EQ(*w.retired_pages_delta, 2u);
  EXPECT_TRUE(w.memory_errors_during_run);
  EXPECT_FALSE(w.remapped_rows_corrected_delta.has_value());
}

}  // namespace
}  // namespace gpusizer::telemetry

#include "gpusizer/report_io.hpp"

namespace gpusizer::telemetry {
namespace {

TEST(WindowJson, NewFieldsRoundTrip) {
  TelemetryWindow w;
  w.source = "nvml";
  w.scope = "GPU board power (NVML)";
  w.energy_integrated_joules = 960.0;
  w.sm_clock_default_source = "max SM clock";
  w.notes = {"utilization: Not Supported (code 3)"};
  const auto j = to_json(w);
  EXPECT_EQ(j["energy_integrated_joules"], 960.0);
  const nlohmann::json doc = j;
  const auto back = telemetry_from_json(JsonInput(doc, "test"));
  EXPECT_EQ(*back.energy_integrated_joules, 960.0);
  EXPECT_EQ(back.sm_clock_default_source, "max SM clock");
  EXPECT_EQ(back.notes, w.notes);
}

}  // namespace
}  // namespace gpusizer::telemetry
