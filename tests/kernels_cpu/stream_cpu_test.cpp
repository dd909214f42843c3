#include "stream_cpu.hpp"

#include <gtest/gtest.h>

namespace gpusizer::kernels::cpu {
namespace {

constexpr std::size_t kElements = 1003;  // not a multiple of the 8-element cache line
constexpr StreamOp kOps[] = {StreamOp::copy,  StreamOp::mul, StreamOp::add,
                             StreamOp::triad, StreamOp::dot, StreamOp::fill};

std::shared_ptr<ThreadPool> pool() {
  static auto p = std::make_shared<ThreadPool>();
  return p;
}

TEST(StreamCpu, EveryKernelRunsAndVerifies) {
  for (StreamOp op : kOps) {
    StreamCpu w(pool(), StreamCase{op, kElements * 8});
    EXPECT_EQ(w.elements(), kElements);
    w.warm_up();
    EXPECT_GT(w.run(3), 0.0) << to_string(op);
    const Verification v = w.verify();
    EXPECT_EQ(v.status, VerificationStatus::passed) << to_string(op) << ": " << v.detail;
    EXPECT_EQ(w.timer(), Timer::steady_clock);
  }
}

TEST(StreamCpu, PlantedCorruptionFails) {
  for (StreamOp op : kOps) {
    StreamCpu w(pool(), StreamCase{op, kElements * 8});
    w.run(2);
    w.corrupt_output_for_test();
    const Verification v = w.verify();
    EXPECT_EQ(v.status, VerificationStatus::failed) << to_string(op) << ": " << v.detail;
  }
}

TEST(StreamCpu, VerifyBeforeAnyRunFails) {
  StreamCpu w(pool(), StreamCase{StreamOp::triad, 800});
  EXPECT_EQ(w.verify().status, VerificationStatus::failed);
}

TEST(StreamCpu, ByteCountsFollowBabelStreamWeights) {
  // 1003 doubles: copy/mul/dot 2*8*1003 = 16048, add/triad 3*8*1003 = 24072, fill 8024.
  const std::pair<StreamOp, double> expected[] = {{StreamOp::copy, 16048}, {StreamOp::mul, 16048},
                                                  {StreamOp::add, 24072},  {StreamOp::triad, 24072},
                                                  {StreamOp::dot, 16048},  {StreamOp::fill, 8024}};
  for (auto [op, bytes] : expected) {
    StreamCpu w(pool(), StreamCase{op, kElements * 8 + 5});  // stray bytes are not an element
    const WorkAmount work = w.work_per_op();
    EXPECT_EQ(work.bytes, bytes) << to_string(op);
    EXPECT_EQ(work.flops, 0.0);
    EXPECT_EQ(work.rate_metric, RateMetric::bandwidth);
    EXPECT_NE(work.rule.find("x 8 B x N"), std::string::npos) << work.rule;
  }
}

TEST(StreamCpu, SetUpKernelsFollowTheClassicOrder) {
  EXPECT_TRUE(stream_prefix(StreamOp::copy).empty());
  EXPECT_EQ(stream_prefix(StreamOp::mul), std::vector<StreamOp>{StreamOp::copy});
  EXPECT_EQ(stream_prefix(StreamOp::dot),
            (std::vector<StreamOp>{StreamOp::copy, StreamOp::mul, StreamOp::add, StreamOp::triad}));
}

TEST(StreamCpu, DotDetailHoldsTheHandComputedSum) {
  // After copy, mul, add, triad: a = 0.04 + 0.4*0.14 = 0.096, b = 0.04; sum = 1003*0.096*0.04.
  StreamCpu w(pool(), StreamCase{StreamOp::dot, kElements * 8});
  w.run(1);
  const Verification v = w.verify();
  ASSERT_EQ(v.status, VerificationStatus::passed) << v.detail;
  EXPECT_NE(v.detail.find("expected 3.8515"), std::string::npos) << v.detail;
}

TEST(StreamCpu, DetailsNameThreadsAndKernel) {
  StreamCpu w(pool(), StreamCase{StreamOp::triad, 800});
  const auto d = w.details();
  EXPECT_EQ(d.at("threads"), std::to_string(pool()->size()));
  EXPECT_EQ(d.at("kernel"), "a[i] = b[i] + s * c[i]");
}

TEST(StreamCpu, TooSmallArrayIsAnInputError) {
  EXPECT_THROW(StreamCpu(pool(), StreamCase{StreamOp::copy, 7}), InputError);
}

}  // namespace
}  // namespace gpusizer::kernels::cpu
