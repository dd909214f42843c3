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
#include "gpusizer/bench/record_builder.hpp"
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
  EXPECT_EQ(w.source, TelemetrySource::nvml);
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

  // gpu1's sw_power_cap from t = 15 is the power limit, not throttling (issue 14).
  EXPECT_FALSE(w.throttled);
  EXPECT_TRUE(w.power_capped);
  EXPECT_EQ(w.throttle_reasons,
            (std::vector<std::string>{"applications_clocks_setting", "sw_power_cap"}));
  // Shares: the largest on either GPU (gpu0 always reads 0x2; gpu1's cap at its end sample).
  EXPECT_EQ(w.throttle_reason_shares.at("applications_clocks_setting"), 1.0);
  EXPECT_GT(w.throttle_reason_shares.at("sw_power_cap"), 0.0);
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

// A GEMM on GPU 1 of the p5 scenario: 690 W, 100 % busy at 1755 MHz, sw_power_cap on every
// sample from t = 10 to 20. Its record is power_capped, and not throttled.
TEST(RecordFlags, GemmAtThePowerCapIsPowerCappedNotThrottled) {
  test::use_fake_nvml("p5_gpu0_mig.json", 0.0);
  telemetry::TelemetryOptions options;
  options.sample_period_seconds = 0.01;
  auto provider = make_telemetry_provider(options);
  auto probe = provider->probe_for(gpu_target(1, "GPU-50000001-0000-0000-0000-000000000001"));
  test::fake_nvml_set_time(11.0);
  probe->begin();
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  test::fake_nvml_set_time(13.0);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  const TelemetryWindow w = probe->end();
  EXPECT_TRUE(w.power_capped);
  EXPECT_FALSE(w.throttled);

  bench::BenchCase c;
  c.id = "gemm/bf16/gpu1";
  c.family = Family::gemm;
  c.operation = "bf16";
  c.targets = {"gpu1"};
  bench::CaseOutcome o;
  bench::SampleSet s;
  s.seconds_per_op = {1e-3, 1e-3, 1e-3};
  s.ops_per_sample = 1;
  s.total_ops = 3;
  s.measured_seconds = 3e-3;
  s.stop = StopReason::converged;
  o.repetitions = {s, s};
  o.work = {0, 2.0 * 8192 * 8192 * 8192, "FLOP = 2 M N K", RateMetric::throughput};
  o.verification = {VerificationStatus::passed, "vs reference", "ok"};
  o.windows = {w, w};  // two repetitions: the flags survive the merge
  const Record r = bench::build_record(c, o, bench::SamplingPolicy{});
  const auto has = [&](const char* flag) {
    return std::find(r.flags.begin(), r.flags.end(), flag) != r.flags.end();
  };
  EXPECT_TRUE(has("power_capped"));
  EXPECT_FALSE(has("throttled"));
  ASSERT_TRUE(r.telemetry);
  EXPECT_EQ(r.telemetry->throttle_reason_shares.at("sw_power_cap"), 1.0);
}

TEST(RecordFlags, EnergyCounterDisagreementBecomesARecordFlag) {
  TelemetryWindow w;
  w.source = TelemetrySource::nvml;
  w.scope = "GPU board power (NVML)";
  w.energy_joules = 10;
  w.energy_counter_disagrees = true;
  bench::BenchCase c;
  c.id = "gemm/bf16/gpu0";
  c.family = Family::gemm;
  c.operation = "bf16";
  c.targets = {"gpu0"};
  bench::CaseOutcome o;
  bench::SampleSet s;
  s.seconds_per_op = {1e-3};
  s.total_ops = 1;
  s.stop = StopReason::converged;
  o.repetitions = {s};
  o.verification = {VerificationStatus::passed, "vs reference", "ok"};
  o.windows = {w};
  const Record r = bench::build_record(c, o, bench::SamplingPolicy{});
  EXPECT_NE(std::find(r.flags.begin(), r.flags.end(), "energy_counter_disagrees"), r.flags.end());
}

}  // namespace
}  // namespace gpusizer
