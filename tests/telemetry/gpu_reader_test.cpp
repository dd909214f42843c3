// GpuReader + window statistics against the fake NVML's traces, on its virtual clock.
// Expected values are worked out by hand from scenarios/h200_traces.json and errors.json.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "fake_nvml_env.hpp"
#include "gpu_reader.hpp"
#include "nvml_devices.hpp"
#include "opened_fake.hpp"
#include "window_summary.hpp"

namespace gpusizer::telemetry {
namespace {

using test_support::has_note;
using test_support::open_fake;
using test_support::Opened;

TEST(GpuReader, StatisticsMatchHandComputedTraceValues) {
  auto fake = open_fake("h200_traces.json");
  ASSERT_EQ(fake.gpus.size(), 1u);
  GpuReader reader(fake.nvml, fake.gpus[0].handle);
  EXPECT_EQ(reader.statics().power_field, "instant");
  EXPECT_EQ(*reader.statics().default_sm_clock_mhz, 1980.0);
  EXPECT_EQ(reader.statics().default_sm_clock_source, "default applications clock");
  // The fake has the current names, as driver 580: no deprecated call is used.
  EXPECT_FALSE(has_note(reader.statics().notes, "deprecated"));

  std::vector<GpuSample> samples;
  for (double t : {10.0, 10.6, 11.2, 11.8, 12.4}) {
    test::fake_nvml_set_time(t);
    auto s = reader.read(t - 10.0, t == 10.0 || t == 12.4);  // counters at the ends, as a probe
    ASSERT_TRUE(s);
    samples.push_back(*s);
  }
  const auto w = summarize_gpu_window(samples, reader.statics(), 0.6);
  // Power at the five times: 300 300 500 500 300 W.
  EXPECT_NEAR(*w.power_mean_watts, 380.0, 1e-9);
  EXPECT_NEAR(*w.power_peak_watts, 500.0, 1e-9);
  EXPECT_NEAR(*w.power_p5_watts, 300.0, 1e-9);   // sorted rank 0.2 between 300 and 300
  EXPECT_NEAR(*w.power_p95_watts, 500.0, 1e-9);  // rank 3.8 between 500 and 500
  // Counter: 300 W x 1 s + 500 W x 1 s + 300 W x 0.4 s = 920 J.
  EXPECT_EQ(w.energy_method, "energy counter delta");
  EXPECT_NEAR(*w.energy_joules, 920.0, 1e-6);
  // Trapezoid over 0.6 s steps: 180 + 240 + 300 + 240 = 960 J.
  EXPECT_NEAR(*w.energy_integrated_joules, 960.0, 1e-6);
  // SM clocks 1980 1980 1400 1400 1980 -> 1748; ratio 1748/1980.
  EXPECT_NEAR(*w.sm_clock_mean_mhz, 1748.0, 1e-9);
  EXPECT_NEAR(*w.sm_clock_ratio, 1748.0 / 1980.0, 1e-12);
  EXPECT_NEAR(*w.memory_clock_mean_mhz, 3201.0, 1e-9);
  EXPECT_NEAR(*w.gpu_utilization_mean_percent, 100.0, 1e-9);
  EXPECT_NEAR(*w.memory_utilization_mean_percent, 68.0, 1e-9);  // 60 60 80 80 60
  EXPECT_NEAR(*w.temperature_max_celsius, 72.0, 1e-9);
  // sw_power_cap at 11.2 and 11.8: at the power limit, not throttled (issue 14).
  EXPECT_FALSE(w.throttled);
  EXPECT_TRUE(w.power_capped);
  EXPECT_EQ(w.throttle_reasons, std::vector<std::string>{"sw_power_cap"});
  EXPECT_EQ(w.throttle_reason_shares, (std::map<std::string, double>{{"sw_power_cap", 0.4}}));
  EXPECT_FALSE(w.ecc_errors_during_run);
  EXPECT_EQ(*w.ecc_corrected_delta, 0u);
}

TEST(GpuReader, UnsupportedCallsGivePartialMetricsWithNotes) {
  auto fake = open_fake("errors.json");
  ASSERT_EQ(fake.gpus.size(), 2u);
  GpuReader reader(fake.nvml, fake.gpus[0].handle);
  EXPECT_EQ(reader.statics().power_field, "average (1 s)");
  EXPECT_EQ(reader.statics().default_sm_clock_source, "max SM clock");
  EXPECT_EQ(*reader.statics().default_sm_clock_mhz, 1710.0);
  std::vector<GpuSample> samples;
  for (double t : {1.0, 3.0}) {
    test::fake_nvml_set_time(t);
    samples.push_back(*reader.read(t, true));  // a window's two ends: counters too
  }
  const auto w = summarize_gpu_window(samples, reader.statics(), 2.0);
  EXPECT_EQ(w.energy_method, "integrated power samples");
  EXPECT_NEAR(*w.energy_joules, 300.0, 1e-9);  // (100 + 200) / 2 x 2 s
  EXPECT_FALSE(w.gpu_utilization_mean_percent.has_value());
  EXPECT_FALSE(w.ecc_corrected_delta.has_value());
  EXPECT_FALSE(w.ecc_errors_during_run);
  EXPECT_TRUE(has_note(w.notes, "utilization: Not Supported"));
  EXPECT_TRUE(has_note(w.notes, "energy counter: Not Supported"));
  EXPECT_TRUE(has_note(w.notes, "ECC counters: Not Supported"));
  EXPECT_TRUE(has_note(w.notes, "NVML_FI_DEV_POWER_INSTANT"));
}

// A window as the probe takes it: memory health at the first and last sample only.
TelemetryWindow memory_window(GpuReader& reader, double from, double to) {
  std::vector<GpuSample> samples;
  for (double t : {from, (from + to) / 2, to}) {
    test::fake_nvml_set_time(t);
    auto s = reader.read(t - from, t != (from + to) / 2);
    if (!s) throw std::runtime_error("no sample");
    samples.push_back(*s);
  }
  return summarize_gpu_window(samples, reader.statics(), (to - from) / 2);
}

TEST(GpuReader, RemappedRowsOnlyInWindowsOverlappingTheRemapEvent) {
  // h200_traces.json: rows (corrected, uncorrected, pending, failure) = (2, 0, 0, 0) from t = 0,
  // (3, 1, 1, 0) from 15, (3, 1, 1, 1) from 25. Page retirement is not supported (H200).
  auto fake = open_fake("h200_traces.json");
  GpuReader reader(fake.nvml, fake.gpus[0].handle);

  const auto before = memory_window(reader, 1.0, 2.0);
  EXPECT_EQ(*before.remapped_rows_corrected_delta, 0u);
  EXPECT_EQ(*before.remapped_rows_uncorrected_delta, 0u);
  EXPECT_FALSE(before.row_remap_pending);
  EXPECT_FALSE(before.row_remap_failure);
  EXPECT_FALSE(before.memory_errors_during_run);
  EXPECT_FALSE(before.retired_pages_delta.has_value());
  EXPECT_FALSE(before.retired_pages_pending);
  EXPECT_TRUE(has_note(before.notes, "retired pages: Not Supported"));
  EXPECT_TRUE(has_note(before.notes, "retired pages pending: Not Supported"));
  EXPECT_FALSE(has_note(before.notes, "row remapping"));

  const auto event = memory_window(reader, 14.0, 16.0);
  EXPECT_EQ(*event.remapped_rows_corrected_delta, 1u);    // 3 - 2
  EXPECT_EQ(*event.remapped_rows_uncorrected_delta, 1u);  // 1 - 0
  EXPECT_TRUE(event.row_remap_pending);
  EXPECT_FALSE(event.row_remap_failure);
  EXPECT_TRUE(event.memory_errors_during_run);

  // Still pending, but it was already pending at the start: nothing new in this window.
  const auto after = memory_window(reader, 16.0, 18.0);
  EXPECT_EQ(*after.remapped_rows_corrected_delta, 0u);
  EXPECT_TRUE(after.row_remap_pending);
  EXPECT_FALSE(after.memory_errors_during_run);

  // A remapping failure appears without any new remapped row.
  const auto failure = memory_window(reader, 24.0, 26.0);
  EXPECT_EQ(*failure.remapped_rows_corrected_delta, 0u);
  EXPECT_EQ(*failure.remapped_rows_uncorrected_delta, 0u);
  EXPECT_TRUE(failure.row_remap_failure);
  EXPECT_TRUE(failure.memory_errors_during_run);
}

TEST(GpuReader, RetiredPagesOnPreAmpereGpus) {
  // t4_retired_pages.json: (multiple SBE, DBE, pending) = (1, 0, 0) from 0, (2, 1, 1) from 5,
  // (2, 1, 0) from 8. Row remapping is not supported (T4).
  auto fake = open_fake("t4_retired_pages.json");
  GpuReader reader(fake.nvml, fake.gpus[0].handle);

  const auto before = memory_window(reader, 1.0, 3.0);
  EXPECT_EQ(*before.retired_pages_delta, 0u);
  EXPECT_FALSE(before.retired_pages_pending);
  EXPECT_FALSE(before.memory_errors_during_run);
  EXPECT_FALSE(before.remapped_rows_corrected_delta.has_value());
  EXPECT_FALSE(before.remapped_rows_uncorrected_delta.has_value());
  EXPECT_TRUE(has_note(before.notes, "row remapping: Not Supported"));

  const auto event = memory_window(reader, 4.0, 6.0);
  EXPECT_EQ(*event.retired_pages_delta, 2u);  // (2 + 1) - (1 + 0)
  EXPECT_TRUE(event.retired_pages_pending);
  EXPECT_TRUE(event.memory_errors_during_run);
  EXPECT_FALSE(event.row_remap_pending);

  // Pending cleared (reboot would retire them), count unchanged.
  const auto later = memory_window(reader, 7.0, 9.0);
  EXPECT_EQ(*later.retired_pages_delta, 0u);
  EXPECT_FALSE(later.retired_pages_pending);
  EXPECT_FALSE(later.memory_errors_during_run);
}

TEST(GpuReader, UnsupportedMemoryHealthCountersAreNotesNotErrors) {
  auto fake = open_fake("errors.json");
  GpuReader reader(fake.nvml, fake.gpus[0].handle);
  const auto w = memory_window(reader, 1.0, 3.0);
  EXPECT_EQ(w.source, TelemetrySource::nvml);
  EXPECT_FALSE(w.remapped_rows_corrected_delta.has_value());
  EXPECT_FALSE(w.remapped_rows_uncorrected_delta.has_value());
  EXPECT_FALSE(w.retired_pages_delta.has_value());
  EXPECT_FALSE(w.row_remap_pending);
  EXPECT_FALSE(w.row_remap_failure);
  EXPECT_FALSE(w.retired_pages_pending);
  EXPECT_FALSE(w.memory_errors_during_run);
  EXPECT_TRUE(has_note(w.notes, "row remapping: Not Supported"));
  EXPECT_TRUE(has_note(w.notes, "retired pages: Not Supported"));
  EXPECT_TRUE(has_note(w.notes, "retired pages pending: Not Supported"));
  // One note per counter, not one per read.
  EXPECT_EQ(std::count_if(w.notes.begin(), w.notes.end(),
                          [](const std::string& n) { return n.rfind("row remapping", 0) == 0; }),
            1);
}

TEST(GpuReader, MemoryHealthIsReadOnlyWhenAsked) {
  auto fake = open_fake("h200_traces.json");
  GpuReader reader(fake.nvml, fake.gpus[0].handle);
  test::fake_nvml_set_time(16.0);
  const auto plain = reader.read(0);
  ASSERT_TRUE(plain);
  EXPECT_FALSE(plain->remapped_rows_corrected.has_value());
  const auto full = reader.read(0, true);
  ASSERT_TRUE(full);
  EXPECT_EQ(*full->remapped_rows_corrected, 3u);
  EXPECT_EQ(*full->remapped_rows_uncorrected, 1u);
  EXPECT_TRUE(*full->row_remap_pending);
  EXPECT_FALSE(*full->row_remap_failure);
}

TEST(GpuReader, LostGpuStopsTheReader) {
  auto fake = open_fake("errors.json");
  GpuReader reader(fake.nvml, fake.gpus[1].handle);
  test::fake_nvml_set_time(4.0);
  EXPECT_TRUE(reader.read(0).has_value());
  test::fake_nvml_set_time(6.0);
  EXPECT_FALSE(reader.read(2).has_value());
  EXPECT_TRUE(reader.lost());
  EXPECT_NE(reader.lost_reason().find("GPU is lost"), std::string::npos);
}

TEST(NvmlLibrary, MissingLibraryAndFailedInitSayWhy) {
  test::use_fake_nvml("no_driver.json");
  std::string why;
  EXPECT_EQ(NvmlLibrary::open(why), nullptr);
  EXPECT_NE(why.find("nvmlInit failed: Driver Not Loaded"), std::string::npos) << why;
  ::setenv("GPUSIZER_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1", 1);
  EXPECT_EQ(NvmlLibrary::open(why), nullptr);
  EXPECT_NE(why.find("cannot load /nonexistent/libnvidia-ml.so.1"), std::string::npos) << why;
}

}  // namespace
}  // namespace gpusizer::telemetry
