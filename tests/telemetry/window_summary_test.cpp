// Statistics of a window from hand-made samples; expected values computed by hand below.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

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
  EXPECT_EQ(w.source, TelemetrySource::nvml);
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
  // sw_power_cap (0x4) in one sample: at the power limit, which is not throttling (issue 14).
  std::vector<GpuSample> a{sample(0, 100, 0, 2000, 0), sample(1, 100, 0, 2000, 0x4)};
  const auto wa = summarize_gpu_window(a, statics(), 0.025);
  EXPECT_FALSE(wa.throttled);
  EXPECT_TRUE(wa.power_capped);
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
  EXPECT_TRUE(is_throttle_reason(0x20));
  EXPECT_FALSE(is_throttle_reason(0x1 | 0x2 | 0x4 | 0x100));
}

TEST(WindowSummary, PowerCapIsKeptApartFromThrottling) {
  // nvml.h bits: gpu_idle 0x1, applications clocks 0x2, sw_power_cap 0x4, hw_slowdown 0x8,
  // sync_boost 0x10, sw_thermal 0x20, hw_thermal 0x40, hw_power_brake 0x80, display clock 0x100.
  for (std::uint64_t bit : {0x8ULL, 0x10ULL, 0x20ULL, 0x40ULL, 0x80ULL}) {
    const auto w = summarize_gpu_window({sample(0, 700, 0, 1900, bit), sample(1, 700, 0, 1900, 0)},
                                        statics(), 0.1);
    EXPECT_TRUE(w.throttled) << bit;
    EXPECT_FALSE(w.power_capped) << bit;
  }
  for (std::uint64_t bit : {0x1ULL, 0x2ULL, 0x100ULL}) {
    const auto w = summarize_gpu_window({sample(0, 70, 0, 1900, bit)}, statics(), 0.1);
    EXPECT_FALSE(w.throttled) << bit;
    EXPECT_FALSE(w.power_capped) << bit;
  }
  // Every sample of a GEMM at 700 W holds the cap (as on an H200); one also a thermal slowdown.
  std::vector<GpuSample> s;
  for (int i = 0; i < 4; ++i) s.push_back(sample(i, 700, 0, 1900, i == 3 ? 0x4 | 0x20 : 0x4));
  const auto w = summarize_gpu_window(s, statics(), 0.1);
  EXPECT_TRUE(w.power_capped);
  EXPECT_TRUE(w.throttled);
  EXPECT_EQ(w.throttle_reason_shares,
            (std::map<std::string, double>{{"sw_power_cap", 1.0}, {"sw_thermal_slowdown", 0.25}}));
}

TEST(WindowSummary, ClockRatioCountsBusySamplesOnly) {
  // Two idle samples (utilisation 0, 300 MHz) and two busy ones (100 %, 1900 MHz): the busy
  // clock is 95 % of the 2000 MHz default, not the 55 % of all four.
  std::vector<GpuSample> s{sample(0, 70, 0, 300, 0x1), sample(1, 70, 0, 300, 0x1),
                           sample(2, 500, 0, 1900, 0), sample(3, 500, 0, 1900, 0)};
  for (auto& x : s) x.gpu_utilization_percent = x.sm_clock_mhz == 300 ? 0 : 100;
  auto w = summarize_gpu_window(s, statics(), 0.1);
  EXPECT_EQ(w.busy_sample_count, 2u);
  EXPECT_DOUBLE_EQ(*w.sm_clock_busy_mean_mhz, 1900.0);
  EXPECT_DOUBLE_EQ(*w.sm_clock_mean_mhz, 1100.0);
  EXPECT_DOUBLE_EQ(*w.sm_clock_ratio, 0.95);
  EXPECT_FALSE(w.throttled);
  // Without utilisation (a MIG-enabled GPU): busy means no gpu_idle reason.
  for (auto& x : s) x.gpu_utilization_percent.reset();
  w = summarize_gpu_window(s, statics(), 0.1);
  EXPECT_EQ(w.busy_sample_count, 2u);
  EXPECT_DOUBLE_EQ(*w.sm_clock_ratio, 0.95);
}

TEST(WindowSummary, LowClocksAtThePowerCapAreNotThrottling) {
  // Busy at 1300 MHz (65 % of default) with the power cap active: the cap explains the clock.
  std::vector<GpuSample> capped{sample(0, 700, 0, 1300, 0x4), sample(1, 700, 0, 1300, 0x4)};
  auto w = summarize_gpu_window(capped, statics(), 0.1);
  EXPECT_TRUE(w.power_capped);
  EXPECT_FALSE(w.throttled);
  EXPECT_TRUE(std::any_of(w.notes.begin(), w.notes.end(), [](const std::string& n) {
    return n.find("power_capped, not throttled") != std::string::npos;
  }));
  // The same clocks with no reason at all: throttled by nvbench's rule.
  std::vector<GpuSample> unexplained{sample(0, 400, 0, 1300, 0), sample(1, 400, 0, 1300, 0)};
  EXPECT_TRUE(summarize_gpu_window(unexplained, statics(), 0.1).throttled);
}

TEST(WindowSummary, EnergyCounterCrossCheckedAgainstIntegratedPower) {
  // 2 s at 500 W: 1000 J integrated. Margin: 10 % + 0.1 s / 2 s = 15 % of the larger figure.
  auto window_with_counter = [](std::uint64_t counter_mj) {
    std::vector<GpuSample> s;
    for (int i = 0; i <= 20; ++i)
      s.push_back(sample(i * 0.1, 500, 1'000'000 + counter_mj * static_cast<std::uint64_t>(i) / 20,
                         1900, 0x4));
    return summarize_gpu_window(s, statics(), 0.1);
  };
  auto agree = window_with_counter(900'000);  // 10 % under
  EXPECT_FALSE(agree.energy_counter_disagrees);
  EXPECT_EQ(agree.energy_counter_updates, 20u);
  auto disagree = window_with_counter(800'000);  // 20 % under
  EXPECT_TRUE(disagree.energy_counter_disagrees);
  EXPECT_NEAR(*disagree.energy_joules, 800.0, 1e-9);
  EXPECT_NEAR(*disagree.energy_integrated_joules, 1000.0, 1e-9);
  EXPECT_TRUE(std::any_of(disagree.notes.begin(), disagree.notes.end(), [](const std::string& n) {
    return n.find("energy counter 800 J vs integrated power samples 1000 J") != std::string::npos &&
           n.find("margin 15.0%") != std::string::npos;
  })) << ::testing::PrintToString(disagree.notes);
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

#include "gpusizer/error.hpp"
#include "gpusizer/report_io.hpp"

namespace gpusizer::telemetry {
namespace {

TEST(WindowJson, NewFieldsRoundTrip) {
  TelemetryWindow w;
  w.source = TelemetrySource::nvml;
  w.scope = "GPU board power (NVML)";
  w.energy_integrated_joules = 960.0;
  w.sm_clock_default_source = "max SM clock";
  w.notes = {"utilization: Not Supported (code 3)"};
  w.energy_counter_updates = 12;
  w.energy_counter_disagrees = true;
  w.busy_sample_count = 9;
  w.sm_clock_busy_mean_mhz = 1755;
  w.throttle_reason_shares = {{"sw_power_cap", 1.0}, {"hw_slowdown", 0.25}};
  w.power_capped = true;
  w.transient_errors = 3;
  const auto j = to_json(w);
  EXPECT_EQ(j["energy_integrated_joules"], 960.0);
  const nlohmann::json doc = j;
  const auto back = telemetry_from_json(JsonInput(doc, "test"));
  EXPECT_EQ(*back.energy_integrated_joules, 960.0);
  EXPECT_EQ(back.sm_clock_default_source, "max SM clock");
  EXPECT_EQ(back.notes, w.notes);
  EXPECT_EQ(back.energy_counter_updates, 12u);
  EXPECT_TRUE(back.energy_counter_disagrees);
  EXPECT_EQ(back.busy_sample_count, 9u);
  EXPECT_EQ(back.sm_clock_busy_mean_mhz, 1755.0);
  EXPECT_EQ(back.throttle_reason_shares, w.throttle_reason_shares);
  EXPECT_TRUE(back.power_capped);
  EXPECT_EQ(back.transient_errors, 3u);
  nlohmann::json bad = doc;
  bad["throttle_reason_shares"]["sw_power_cap"] = 1.5;
  EXPECT_THROW(telemetry_from_json(JsonInput(bad, "test")), InputError);
}

}  // namespace
}  // namespace gpusizer::telemetry
