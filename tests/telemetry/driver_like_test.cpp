// The fake NVML behaving like a real driver (scenarios/driver_like.json, driver_latency.json,
// p5_gpu0_mig.json), and the reader and window statistics on it: a counter that advances every
// 100 ms, transient errors, a GPU that needs a reset, the current NVML names with the deprecated
// ones only as a fallback, ECC read at the window's ends, NOT_SUPPORTED where a driver gives it.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "fake_nvml_env.hpp"
#include "gpu_reader.hpp"
#include "gpusizer/telemetry/telemetry.hpp"
#include "nvml_devices.hpp"
#include "opened_fake.hpp"
#include "window_summary.hpp"

namespace gpusizer::telemetry {
namespace {

using test_support::has_note;
using test_support::Opened;

Opened open(const std::string& scenario, bool legacy = false) {
  return test_support::open_fake(scenario, legacy);
}

// A window as GpuProbe takes it, on the virtual clock: counters at both ends, a sample every
// `period` seconds in between.
std::vector<GpuSample> sample_window(GpuReader& reader, double from, double to, double period) {
  std::vector<GpuSample> samples;
  const int steps = static_cast<int>(std::lround((to - from) / period));
  for (int i = 0; i <= steps; ++i) {
    const double t = from + i * period;
    test::fake_nvml_set_time(t);
    if (auto s = reader.read(t - from, i == 0 || i == steps)) samples.push_back(*s);
  }
  return samples;
}

TEST(FakeNvml, EnergyCounterAdvancesEvery100ms) {
  auto fake = open("driver_like.json");
  GpuReader reader(fake.nvml, fake.gpus[0].handle);
  auto energy_at = [&](double t) {
    test::fake_nvml_set_time(t);
    return *reader.read(0)->energy_millijoules;
  };
  // 690 W from t = 10: the counter holds its 10.0 s value until 10.1 s.
  const auto at_10 = energy_at(10.0);
  EXPECT_EQ(energy_at(10.05), at_10);
  EXPECT_EQ(energy_at(10.099), at_10);
  EXPECT_EQ(energy_at(10.1), at_10 + 69'000u);  // 690 W x 0.1 s
  EXPECT_EQ(at_10, 2'000'000u + 100u * 10'000u);
}

TEST(FakeNvml, AveragePowerIsTheLastSecondsMean) {
  auto fake = open("driver_like.json");
  test::fake_nvml_set_time(10.5);  // 100 W until 10 s, 690 W after
  auto power_usage = reinterpret_cast<decltype(&::nvmlDeviceGetPowerUsage)>(
      ::dlsym(test::fake_nvml_handle(), "nvmlDeviceGetPowerUsage"));
  auto fields = reinterpret_cast<decltype(&::nvmlDeviceGetFieldValues)>(
      ::dlsym(test::fake_nvml_handle(), "nvmlDeviceGetFieldValues"));
  ASSERT_TRUE(power_usage && fields);
  unsigned int mw = 0;
  ASSERT_EQ(power_usage(fake.gpus[0].handle, &mw), NVML_SUCCESS);
  EXPECT_EQ(mw, 395'000u);  // (100 x 0.5 + 690 x 0.5) / 1 s
  nvmlFieldValue_t v[2]{};
  v[0].fieldId = NVML_FI_DEV_POWER_INSTANT;
  v[1].fieldId = NVML_FI_DEV_POWER_AVERAGE;
  ASSERT_EQ(fields(fake.gpus[0].handle, 2, v), NVML_SUCCESS);
  EXPECT_EQ(v[0].value.uiVal, 690'000u);
  EXPECT_EQ(v[1].value.uiVal, 395'000u);
}

TEST(FakeNvml, CallLatencyHoldsOneLockForTheLibrary) {
  test::use_fake_nvml("driver_latency.json", 1.0);
  std::string why;
  auto nvml = NvmlLibrary::open(why);
  ASSERT_TRUE(nvml) << why;
  std::vector<std::string> notes;
  const auto gpus = enumerate_gpus(*nvml, notes);
  ASSERT_EQ(gpus.size(), 1u);
  // Two threads, 10 energy calls each at 3.3 ms: serialised, at least 66 ms in all.
  const auto start = std::chrono::steady_clock::now();
  auto calls = [&] {
    unsigned long long mj = 0;
    for (int i = 0; i < 10; ++i) nvml->api().total_energy(gpus[0].handle, &mj);
  };
  std::thread a(calls), b(calls);
  a.join();
  b.join();
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::microseconds(66'000));
}

TEST(FakeNvml, MigEnumerationCanBeRefused) {
  auto fake = open("driver_like.json");
  nvmlDevice_t mig = nullptr;
  // Slot 0 holds a slice and slot 1 is empty: both answer NO_PERMISSION here.
  EXPECT_EQ(fake.nvml->api().mig_device_handle_by_index(fake.gpus[2].handle, 0, &mig),
            NVML_ERROR_NO_PERMISSION);
  EXPECT_EQ(fake.nvml->api().mig_device_handle_by_index(fake.gpus[2].handle, 1, &mig),
            NVML_ERROR_NO_PERMISSION);
}

TEST(GpuReader, RowRemappingIsNotSupportedOnAMigEnabledGpu) {
  auto fake = open("p5_gpu0_mig.json");
  ASSERT_EQ(fake.gpus.size(), 8u);
  GpuReader mig_gpu(fake.nvml, fake.gpus[0].handle);
  const auto w =
      summarize_gpu_window(sample_window(mig_gpu, 1.0, 1.2, 0.1), mig_gpu.statics(), 0.1);
  EXPECT_FALSE(w.remapped_rows_corrected_delta.has_value());
  EXPECT_TRUE(has_note(w.notes, "row remapping: Not Supported"))
      << ::testing::PrintToString(w.notes);
  GpuReader whole(fake.nvml, fake.gpus[1].handle);
  const auto w1 = summarize_gpu_window(sample_window(whole, 1.0, 1.2, 0.1), whole.statics(), 0.1);
  EXPECT_EQ(w1.remapped_rows_corrected_delta, 0u);
}

TEST(GpuReader, TransientErrorsAreRetriedCountedAndNoted) {
  auto fake = open("driver_like.json");
  GpuReader reader(fake.nvml, fake.gpus[0].handle);
  // Clock reads fail for 12 <= t < 13 and one energy read at 12.5: the window 11.5 .. 13.5
  // (21 samples) loses 10 clock readings and one energy reading, and keeps the metrics.
  const auto samples = sample_window(reader, 11.5, 13.5, 0.1);
  ASSERT_EQ(samples.size(), 21u);
  EXPECT_TRUE(samples.back().sm_clock_mhz.has_value());
  EXPECT_TRUE(samples.back().energy_millijoules.has_value());
  const auto w = summarize_gpu_window(samples, reader.statics(), 0.1);
  EXPECT_EQ(w.transient_errors, 10u + 10u + 1u);  // SM and memory clock, 10 samples each; energy
  EXPECT_TRUE(has_note(w.notes, "SM clock: Unknown Error (code 999) on 10 of 21 samples"))
      << ::testing::PrintToString(w.notes);
  EXPECT_TRUE(has_note(w.notes, "energy counter: Timeout (code 10) on 1 of 21 samples"));
  EXPECT_NEAR(*w.sm_clock_mean_mhz, 1755.0, 1e-9);
  // The next window has every metric and no error.
  const auto later =
      summarize_gpu_window(sample_window(reader, 14.0, 14.5, 0.1), reader.statics(), 0.1);
  EXPECT_EQ(later.transient_errors, 0u);
  EXPECT_TRUE(later.sm_clock_mean_mhz.has_value());
  EXPECT_FALSE(has_note(later.notes, "SM clock"));
}

TEST(GpuReader, ResetRequiredIsALostGpu) {
  auto fake = open("driver_like.json");
  GpuReader reader(fake.nvml, fake.gpus[1].handle);
  test::fake_nvml_set_time(4.0);
  EXPECT_TRUE(reader.read(0).has_value());
  test::fake_nvml_set_time(6.0);
  EXPECT_FALSE(reader.read(2).has_value());
  EXPECT_TRUE(reader.lost());
  EXPECT_NE(reader.lost_reason().find("GPU requires reset"), std::string::npos)
      << reader.lost_reason();
}

TEST(GpuReader, EccIsReadAtTheWindowEndsOnly) {
  auto fake = open("driver_like.json");
  GpuReader reader(fake.nvml, fake.gpus[0].handle);
  test::fake_nvml_set_time(1.0);
  EXPECT_FALSE(reader.read(0)->ecc_corrected_volatile.has_value());
  EXPECT_EQ(reader.read(0, true)->ecc_corrected_volatile, 0u);
}

TEST(GpuReader, CurrentNvmlNamesFirst) {
  // driver_like.json answers NOT_SUPPORTED to the deprecated temperature, throttle-reason and
  // default-clock calls: only the current ones give readings.
  auto fake = open("driver_like.json");
  GpuReader reader(fake.nvml, fake.gpus[0].handle);
  EXPECT_EQ(reader.statics().default_sm_clock_mhz, 1980.0);
  EXPECT_EQ(reader.statics().default_sm_clock_source, "default applications clock");
  EXPECT_FALSE(has_note(reader.statics().notes, "deprecated"));
  test::fake_nvml_set_time(15.0);
  const auto s = reader.read(0);
  EXPECT_EQ(s->temperature_celsius, 61.0);
  EXPECT_EQ(s->clock_event_reasons, 4u);
}

TEST(GpuReader, OlderDriverFallsBackToTheDeprecatedNames) {
  auto fake = open("h200_traces.json", /*legacy=*/true);
  ASSERT_FALSE(fake.nvml->api().clocks_event_reasons);
  ASSERT_FALSE(fake.nvml->api().temperature_v);
  ASSERT_FALSE(fake.nvml->api().clock);
  GpuReader reader(fake.nvml, fake.gpus[0].handle);
  EXPECT_EQ(reader.statics().default_sm_clock_mhz, 1980.0);
  EXPECT_TRUE(has_note(reader.statics().notes, "nvmlDeviceGetCurrentClocksThrottleReasons"));
  EXPECT_TRUE(has_note(reader.statics().notes, "nvmlDeviceGetTemperature (deprecated"));
  EXPECT_TRUE(has_note(reader.statics().notes, "nvmlDeviceGetDefaultApplicationsClock"));
  test::fake_nvml_set_time(11.5);
  const auto s = reader.read(0);
  EXPECT_EQ(s->temperature_celsius, 72.0);
  EXPECT_EQ(s->clock_event_reasons, 4u);
}

TEST(WindowOnARealCounter, GemmAtThePowerCapIsPowerCappedWithCounterUpdates) {
  // 690 W, 100 % busy at 1755 MHz, sw_power_cap on every sample, from t = 10 to 20; the counter
  // advances every 100 ms. A 2 s window sampled every 100 ms sees 20 counter updates.
  auto fake = open("driver_like.json");
  GpuReader reader(fake.nvml, fake.gpus[0].handle);
  const auto w =
      summarize_gpu_window(sample_window(reader, 14.0, 16.0, 0.1), reader.statics(), 0.1);
  EXPECT_TRUE(w.power_capped);
  EXPECT_FALSE(w.throttled);
  EXPECT_EQ(w.throttle_reason_shares, (std::map<std::string, double>{{"sw_power_cap", 1.0}}));
  EXPECT_EQ(w.energy_counter_updates, 20u);
  EXPECT_NEAR(*w.energy_joules, 1380.0, 1e-6);  // 690 W x 2 s
  EXPECT_FALSE(w.energy_counter_disagrees);
  EXPECT_NEAR(*w.sm_clock_ratio, 1755.0 / 1980.0, 1e-12);
}

TEST(WindowOnARealCounter, ShortWindowSeesFewUpdates) {
  // 0.15 s sampled at the old 25 ms period: the counter moves twice (at 14.1 and 14.2), 138 J
  // for 103.5 J of work. Within the margin for so short a window (10 % + 0.1 s / 0.15 s), and
  // the update count says why the figure is coarse.
  auto fake = open("driver_like.json");
  GpuReader reader(fake.nvml, fake.gpus[0].handle);
  const auto w =
      summarize_gpu_window(sample_window(reader, 14.05, 14.2, 0.025), reader.statics(), 0.025);
  EXPECT_EQ(w.energy_counter_updates, 2u);  // 14.1 and 14.2
  EXPECT_NEAR(*w.energy_joules, 138.0, 1e-6);
  EXPECT_NEAR(*w.energy_integrated_joules, 103.5, 1e-6);
  EXPECT_FALSE(w.energy_counter_disagrees);
}

TEST(TelemetryOptions, DefaultPeriodIs100ms) {
  EXPECT_DOUBLE_EQ(TelemetryOptions{}.sample_period_seconds, 0.1);
}

}  // namespace
}  // namespace gpusizer::telemetry
