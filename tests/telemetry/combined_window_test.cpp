// A multi-GPU case's telemetry (bench::CombinedProbe: one probe per GPU, summed) on the fake
// NVML's virtual clock. Scenario two_gpus_second_errors.json: gpu0 is clean (its ECC, row and
// page counters are non-zero but do not move), gpu1 at t = 15 gets 3 corrected + 1 uncorrected
// ECC errors, 2 + 1 remapped rows with a pending remap and a remap failure, 3 + 1 retired pages
// with a retirement pending, and starts power capping. Every window here spans t = 10 .. 20.
#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "fake_nvml_env.hpp"
#include "gpusizer/bench/combined_probe.hpp"
#include "gpusizer/telemetry/telemetry.hpp"

namespace gpusizer {
namespace {

using test::gpu_target;

TelemetryWindow window(TelemetryProbe& probe) {
  test::fake_nvml_set_time(10.0);
  probe.begin();
  std::this_thread::sleep_for(std::chrono::milliseconds(30));  // let the sampler thread run
  test::fake_nvml_set_time(20.0);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  return probe.end();
}

bool has_note(const TelemetryWindow& w, const std::string& part) {
  return std::any_of(w.notes.begin(), w.notes.end(),
                     [&](const std::string& n) { return n.find(part) != std::string::npos; });
}

class CombinedWindow : public ::testing::Test {
 protected:
  void SetUp() override {
    test::use_fake_nvml("two_gpus_second_errors.json", 0.0);
    telemetry::TelemetryOptions options;
    options.sample_period_seconds = 0.01;
    provider_ = make_telemetry_provider(options);
    gpu0_ = provider_->probe_for(gpu_target(0, "GPU-0a000000-0000-0000-0000-000000000000"));
    gpu1_ = provider_->probe_for(gpu_target(1, "GPU-0b000000-0000-0000-0000-000000000000"));
  }
  std::unique_ptr<TelemetryProvider> provider_;
  std::unique_ptr<TelemetryProbe> gpu0_;
  std::unique_ptr<TelemetryProbe> gpu1_;
};

TEST_F(CombinedWindow, FirstGpuAloneIsClean) {
  // The premise of the next test: the errors come from gpu1 only.
  bench::CombinedProbe only0({gpu0_.get()});
  const auto w = window(only0);
  EXPECT_FALSE(w.ecc_errors_during_run);
  EXPECT_FALSE(w.memory_errors_during_run);
  EXPECT_FALSE(w.throttled);
  EXPECT_EQ(w.ecc_corrected_delta, 0u);
  EXPECT_EQ(w.remapped_rows_corrected_delta, 0u);
  EXPECT_EQ(w.retired_pages_delta, 0u);
  EXPECT_FALSE(w.row_remap_pending || w.row_remap_failure || w.retired_pages_pending);
}

TEST_F(CombinedWindow, ErrorsOnTheSecondGpuReachTheSum) {
  bench::CombinedProbe both({gpu0_.get(), gpu1_.get()});
  const auto w = window(both);
  EXPECT_EQ(w.source, "nvml");
  EXPECT_NE(w.scope.find("sum over 2 devices"), std::string::npos) << w.scope;
  // 100 W + 200 W for 10 s of virtual time (the energy counters).
  ASSERT_TRUE(w.energy_joules);
  EXPECT_NEAR(*w.energy_joules, 3000.0, 1e-6);

  EXPECT_TRUE(w.ecc_errors_during_run);
  EXPECT_EQ(w.ecc_corrected_delta, 3u);
  EXPECT_EQ(w.ecc_uncorrected_delta, 1u);
  EXPECT_TRUE(w.memory_errors_during_run);
  EXPECT_EQ(w.remapped_rows_corrected_delta, 2u);
  EXPECT_EQ(w.remapped_rows_uncorrected_delta, 1u);
  EXPECT_TRUE(w.row_remap_pending);
  EXPECT_TRUE(w.row_remap_failure);
  EXPECT_EQ(w.retired_pages_delta, 4u);  // 3 multiple-SBE + 1 DBE
  EXPECT_TRUE(w.retired_pages_pending);

  EXPECT_TRUE(w.throttled);
  EXPECT_EQ(w.throttle_reasons,
            (std::vector<std::string>{"applications_clocks_setting", "sw_power_cap"}));
  // gpu0's note about its missing utilization counter survives the sum.
  EXPECT_TRUE(has_note(w, "utilization")) << ::testing::PrintToString(w.notes);
}

TEST_F(CombinedWindow, OrderOfTheGpusDoesNotMatter) {
  bench::CombinedProbe reversed({gpu1_.get(), gpu0_.get()});
  const auto w = window(reversed);
  EXPECT_TRUE(w.ecc_errors_during_run);
  EXPECT_TRUE(w.memory_errors_during_run);
  EXPECT_EQ(w.ecc_corrected_delta, 3u);
  EXPECT_EQ(w.remapped_rows_corrected_delta, 2u);
  EXPECT_EQ(w.retired_pages_delta, 4u);
  EXPECT_TRUE(w.row_remap_pending && w.row_remap_failure && w.retired_pages_pending);
  EXPECT_TRUE(has_note(w, "utilization")) << ::testing::PrintToString(w.notes);
}

}  // namespace
}  // namespace gpusizer
