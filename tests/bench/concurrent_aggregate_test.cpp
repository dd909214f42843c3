// Whole GPUs loaded together: the aggregate record per case (sums of rates, means otherwise, the
// overlap of the GPUs' windows) and the --gpu-mode values.
#include <gtest/gtest.h>

#include "gpusizer/bench/concurrent_aggregate.hpp"
#include "gpusizer/bench/concurrent_gpus.hpp"
#include "gpusizer/error.hpp"

namespace gpusizer::bench {
namespace {

Target gpu(const std::string& id) {
  Target t;
  t.id = id;
  t.kind = TargetKind::gpu;
  t.name = "NVIDIA H100 80GB HBM3";
  return t;
}

Record concurrent(const std::string& target, double bandwidth, double fraction,
                  const std::string& started_at, double duration) {
  Record r;
  r.id = "memory/stream_triad/" + target + "/bytes=1024/mode=concurrent";
  r.family = Family::memory;
  r.operation = "stream_triad";
  r.targets = {target};
  r.status = RecordStatus::ok;
  r.metrics = {{"bandwidth", bandwidth, "B/s", "3 arrays / median time"},
               {"fraction_of_peak", fraction, "1", "of the datasheet"}};
  r.bytes_per_op = 3072;
  r.verification.status = VerificationStatus::passed;
  r.started_at = started_at;
  r.duration_seconds = duration;
  r.concurrency = Concurrency::concurrent;
  return r;
}

Report two_gpus() {
  Report report;
  report.targets = {gpu("gpu0"), gpu("gpu1")};
  // gpu0: 10.000 s to 12.000 s; gpu1: 10.250 s to 12.750 s; together 10.250 s to 12.000 s.
  report.records = {concurrent("gpu0", 100e9, 0.5, "2026-12-01T06:00:10.000Z", 2.0),
                    concurrent("gpu1", 200e9, 0.7, "2026-12-01T06:00:10.250Z", 2.5)};
  return report;
}

TEST(ConcurrentAggregate, SumsRatesAveragesTheRestAndStatesTheOverlap) {
  const auto got = concurrent_aggregates(two_gpus());
  ASSERT_EQ(got.size(), 1u);
  const Record& a = got.front();
  EXPECT_EQ(a.id, "memory/stream_triad/gpu0+gpu1/bytes=1024/mode=concurrent");
  EXPECT_EQ(a.targets, (std::vector<std::string>{"gpu0", "gpu1"}));
  EXPECT_EQ(load_mode(a), Concurrency::concurrent);
  EXPECT_EQ(a.flags, std::vector<std::string>{"aggregate"});
  ASSERT_EQ(a.metrics.size(), 2u);
  EXPECT_DOUBLE_EQ(a.metrics[0].value, 300e9);  // 100 + 200 GB/s
  EXPECT_EQ(a.metrics[0].unit, "B/s");
  EXPECT_NE(a.metrics[0].description.find("sum over the 2 GPUs"), std::string::npos);
  EXPECT_DOUBLE_EQ(a.metrics[1].value, 0.6);  // (0.5 + 0.7) / 2
  EXPECT_NE(a.metrics[1].description.find("mean over the 2 GPUs"), std::string::npos);
  EXPECT_DOUBLE_EQ(a.bytes_per_op, 6144);
  EXPECT_EQ(a.details.at("overlap_seconds"), "1.750");
  EXPECT_EQ(a.details.at("start_spread_seconds"), "0.250");
  EXPECT_EQ(a.started_at, "2026-12-01T06:00:10.000Z");
  EXPECT_NEAR(a.duration_seconds, 2.75, 1e-6);  // first start to last end
  EXPECT_EQ(a.verification.status, VerificationStatus::passed);
}

TEST(ConcurrentAggregate, NeedsTwoGpusAtTheSameTimeAndIsAddedOnce) {
  Report apart = two_gpus();
  apart.records[1].started_at = "2026-12-01T06:00:12.500Z";  // after gpu0 ended
  EXPECT_TRUE(concurrent_aggregates(apart).empty());

  Report isolated = two_gpus();
  for (auto& r : isolated.records)
    r.concurrency = Concurrency::not_stated;  // one after another: no aggregate
  EXPECT_TRUE(concurrent_aggregates(isolated).empty());

  Report one = two_gpus();
  one.records[1].status = RecordStatus::error;
  EXPECT_TRUE(concurrent_aggregates(one).empty());

  Report done = two_gpus();
  done.records.push_back(concurrent_aggregates(done).front());
  EXPECT_TRUE(concurrent_aggregates(done).empty());

  Report slices = two_gpus();  // MIG slices have their own concurrent mode, without aggregates
  for (auto& t : slices.targets) t.kind = TargetKind::mig;
  EXPECT_TRUE(concurrent_aggregates(slices).empty());
}

TEST(ConcurrentAggregate, AFailedVerificationFailsTheAggregate) {
  Report report = two_gpus();
  report.records[0].verification.status = VerificationStatus::failed;
  report.records[1].flags = {"high_variance"};
  const auto got = concurrent_aggregates(report);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got.front().verification.status, VerificationStatus::failed);
  EXPECT_EQ(got.front().flags, (std::vector<std::string>{"aggregate", "high_variance"}));
}

TEST(GpuModes, IsolatedConcurrentOrBoth) {
  EXPECT_EQ(gpu_modes("isolated"), std::vector<Concurrency>{Concurrency::isolated});
  EXPECT_EQ(gpu_modes("concurrent"), std::vector<Concurrency>{Concurrency::concurrent});
  EXPECT_EQ(gpu_modes("both"),
            (std::vector<Concurrency>{Concurrency::isolated, Concurrency::concurrent}));
  try {
    gpu_modes("off");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "--gpu-mode: expected isolated, concurrent or both, got \"off\"");
  }
}

}  // namespace
}  // namespace gpusizer::bench
