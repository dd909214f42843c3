#include <gtest/gtest.h>

#include "gpusizer/bench/record_builder.hpp"

namespace gpusizer::bench {
namespace {

BenchCase triad_case() {
  BenchCase c;
  c.id = "memory/stream_triad/gpu0/bytes=1048576";
  c.family = Family::memory;
  c.operation = "stream_triad";
  c.targets = {"gpu0"};
  c.parameters = {{"array_bytes", 1048576}};
  return c;
}

CaseOutcome triad_outcome() {
  CaseOutcome o;
  SampleSet s;
  s.seconds_per_op = {2e-6, 1e-6, 3e-6};  // median 2 us, best 1 us
  s.ops_per_sample = 10;
  s.total_ops = 40;
  s.measured_seconds = 60e-6;
  s.stop = StopReason::converged;
  o.repetitions = {s};
  o.work = {3.0 * 8 * 131072, 0, "bytes = 3 x 8 B x N", RateMetric::bandwidth};
  o.verification = {VerificationStatus::passed, "scalar replay", "ok"};
  o.timer = Timer::cuda_events;
  o.mode = CacheMode::hot;
  o.peak_rate = 4.8e12;
  o.peak_source = "2 x memory clock x bus width / 8";
  return o;
}

TEST(RecordBuilder, HeadlineRateUsesMedianAndStatesTheRule) {
  Record r = build_record(triad_case(), triad_outcome(), SamplingPolicy{});
  ASSERT_EQ(r.status, RecordStatus::ok);
  // bytes per op = 3 * 8 * 131072 = 3145728; / 2e-6 s = 1.572864e12 B/s
  EXPECT_EQ(r.metrics[0].name, "bandwidth");
  EXPECT_EQ(r.metrics[0].unit, "B/s");
  EXPECT_NEAR(r.metrics[0].value, 1.572864e12, 1e3);
  EXPECT_NE(r.metrics[0].description.find("bytes = 3 x 8 B x N"), std::string::npos);
  EXPECT_NEAR(r.metric("bandwidth_best")->value, 3.145728e12, 1e3);
  EXPECT_NEAR(r.metric("fraction_of_peak")->value, 1.572864e12 / 4.8e12, 1e-9);
  // CV of {1,2,3} us = 1/2 = 0.5 > 5 % -> high_variance.
  EXPECT_NE(std::find(r.flags.begin(), r.flags.end(), "high_variance"), r.flags.end());
}

TEST(RecordBuilder, CollectivesCarryBusBandwidthFromTheMedian) {
  // all_reduce over 4 ranks: busbw = algbw x 2(n-1)/n = 1.5 x algbw (nccl-tests); the metric is
  // named "busbw", the name sizing reads (it once read nothing: the workload wrote
  // "busbw_bytes_per_second" from the last run only).
  BenchCase c = triad_case();
  c.family = Family::collectives;
  c.operation = "all_reduce";
  CaseOutcome o = triad_outcome();
  o.work = {1e6, 0, "bytes = S", RateMetric::bandwidth};
  o.work.bus_bandwidth_factor = 1.5;
  o.peak_rate = 0;
  Record r = build_record(c, o, SamplingPolicy{});
  const Metric* algbw = r.metric("bandwidth");
  const Metric* busbw = r.metric("busbw");
  ASSERT_NE(algbw, nullptr);
  ASSERT_NE(busbw, nullptr);
  EXPECT_DOUBLE_EQ(algbw->value, 1e6 / 2e-6);  // median 2 us
  EXPECT_DOUBLE_EQ(busbw->value, 1.5 * 1e6 / 2e-6);
  EXPECT_EQ(busbw->unit, "B/s");
  // No factor, no busbw.
  EXPECT_EQ(build_record(triad_case(), triad_outcome(), SamplingPolicy{}).metric("busbw"), nullptr);
}

TEST(RecordBuilder, TheWorkloadsOwnFlagsAreKept) {
  CaseOutcome o = triad_outcome();
  o.flags = {"io_directory_in_memory"};
  Record r = build_record(triad_case(), o, SamplingPolicy{});
  EXPECT_NE(std::find(r.flags.begin(), r.flags.end(), "io_directory_in_memory"), r.flags.end());
}

TEST(RecordBuilder, LoadAverageAtStartAndEndWhenBothWereRead) {
  CaseOutcome o = triad_outcome();
  o.load_average_start = 0.52;
  o.load_average_end = 1.75;
  const Record r = build_record(triad_case(), o, SamplingPolicy{});
  ASSERT_TRUE(r.load_average);
  EXPECT_EQ(r.load_average->start, 0.52);
  EXPECT_EQ(r.load_average->end, 1.75);
  o.load_average_end.reset();  // /proc/loadavg unreadable at the end: no half figure
  EXPECT_FALSE(build_record(triad_case(), o, SamplingPolicy{}).load_average);
  o = triad_outcome();
  o.skipped_reason = "not here";
  o.load_average_start = 0.1;
  o.load_average_end = 0.2;
  EXPECT_TRUE(build_record(triad_case(), o, SamplingPolicy{}).load_average);  // skipped too
}

TEST(RecordBuilder, EnergyPerOpAndWorkPerJouleFromTelemetry) {
  CaseOutcome o = triad_outcome();
  TelemetryWindow w;
  w.source = TelemetrySource::nvml;
  w.scope = "GPU board power (NVML)";
  w.duration_seconds = 0.5;
  w.energy_joules = 20.0;
  w.throttled = true;
  o.windows = {w};
  Record r = build_record(triad_case(), o, SamplingPolicy{});
  // 20 J over 40 ops = 0.5 J/op; 3145728 B / 0.5 J = 6291456 B/J.
  EXPECT_DOUBLE_EQ(r.metric("energy_per_op")->value, 0.5);
  EXPECT_DOUBLE_EQ(r.metric("bytes_per_joule")->value, 6291456.0);
  EXPECT_NE(std::find(r.flags.begin(), r.flags.end(), "throttled"), r.flags.end());
  EXPECT_EQ(std::find(r.flags.begin(), r.flags.end(), "memory_errors_during_run"), r.flags.end());
}

TEST(RecordBuilder, MemoryErrorsDuringRunBecomeARecordFlag) {
  CaseOutcome o = triad_outcome();
  TelemetryWindow w;
  w.source = TelemetrySource::nvml;
  w.scope = "GPU board power (NVML)";
  w.remapped_rows_uncorrected_delta = 1;
  w.memory_errors_during_run = true;
  o.windows = {w};
  Record r = build_record(triad_case(), o, SamplingPolicy{});
  EXPECT_NE(std::find(r.flags.begin(), r.flags.end(), "memory_errors_during_run"), r.flags.end());
  EXPECT_EQ(std::find(r.flags.begin(), r.flags.end(), "ecc_errors_during_run"), r.flags.end());
}

TEST(RecordBuilder, EnergyAboveIdleSubtractsIdlePowerOverTheWindow) {
  CaseOutcome o = triad_outcome();
  TelemetryWindow w;
  w.source = TelemetrySource::nvml;
  w.scope = "GPU board power (NVML)";
  w.duration_seconds = 0.5;
  w.energy_joules = 20.0;
  o.windows = {w};
  o.idle_power_watts = 10.0;
  Record r = build_record(triad_case(), o, SamplingPolicy{});
  // (20 J - 10 W x 0.5 s) / 40 ops = 0.375 J/op; 3145728 B / 0.375 J = 8388608 B/J.
  EXPECT_DOUBLE_EQ(r.metric("energy_per_op_above_idle")->value, 0.375);
  EXPECT_DOUBLE_EQ(r.metric("bytes_per_joule_above_idle")->value, 8388608.0);
  // Idle above what was measured (a bad idle reading) gives no above-idle figure, not a negative.
  o.idle_power_watts = 100.0;
  EXPECT_EQ(build_record(triad_case(), o, SamplingPolicy{}).metric("energy_per_op_above_idle"),
            nullptr);
}

TEST(RecordBuilder, AMigSliceCarriesOnlyBoardEnergyNeverItsOwn) {
  // The board's 20 J include the other slices' draw (and, concurrently, their work): no
  // energy_per_op, FLOP/J or B/J is claimed for the slice, only the board's, named as such.
  CaseOutcome o = triad_outcome();
  TelemetryWindow w;
  w.source = TelemetrySource::nvml;
  w.scope = "GPU board power (NVML)";
  w.duration_seconds = 0.5;
  w.energy_joules = 20.0;
  o.windows = {w};
  o.idle_power_watts = 10.0;
  o.shared_board = true;
  BenchCase c = triad_case();
  c.targets = {"gpu0/mig-1g.18gb-gi13-ci0"};
  Record r = build_record(c, o, SamplingPolicy{});
  for (const char* name : {"energy_per_op", "bytes_per_joule", "flops_per_joule",
                           "energy_per_op_above_idle", "bytes_per_joule_above_idle"}) {
    EXPECT_EQ(r.metric(name), nullptr) << name;
  }
  const Metric* board = r.metric("board_energy_per_op");
  ASSERT_NE(board, nullptr);
  EXPECT_DOUBLE_EQ(board->value, 0.5);  // 20 J / 40 ops
  EXPECT_EQ(board->unit, "J");
  EXPECT_NE(board->description.find("whole GPU board, shared by every slice"), std::string::npos);
  ASSERT_TRUE(r.telemetry.has_value());  // the window itself is kept, with its attribution
  EXPECT_DOUBLE_EQ(*r.telemetry->energy_joules, 20.0);
}

TEST(RecordBuilder, FailedVerificationMarksTheRecord) {
  CaseOutcome o = triad_outcome();
  o.verification = {VerificationStatus::failed, "pattern", "1 wrong byte at offset 17"};
  Record r = build_record(triad_case(), o, SamplingPolicy{});
  EXPECT_EQ(r.status, RecordStatus::failed);
  EXPECT_EQ(r.verification.detail, "1 wrong byte at offset 17");
}

TEST(RecordBuilder, SkippedAndErrorCarryTheReason) {
  CaseOutcome o;
  o.skipped_reason = "fp8 needs compute capability >= 8.9";
  Record r = build_record(triad_case(), o, SamplingPolicy{});
  EXPECT_EQ(r.status, RecordStatus::skipped);
  EXPECT_EQ(r.reason, "fp8 needs compute capability >= 8.9");
  EXPECT_TRUE(r.metrics.empty());
  CaseOutcome e;
  e.error = "cudaErrorMemoryAllocation";
  EXPECT_EQ(build_record(triad_case(), e, SamplingPolicy{}).status, RecordStatus::error);
}

}  // namespace
}  // namespace gpusizer::bench
