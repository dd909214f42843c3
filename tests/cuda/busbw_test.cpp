// busbw factors against nccl-tests doc/PERFORMANCE.md, with numbers worked by hand.
#include <gtest/gtest.h>

#include "gpusizer/kernels/backend.hpp"
#include "gpusizer/kernels/collectives.hpp"

namespace gpusizer::kernels {
namespace {

TEST(BusBandwidth, AllReduceEightRanks) {
  // S = 1 GB in 10 ms -> algbw 100 GB/s; 2(n-1)/n = 14/8 -> busbw 175 GB/s.
  const double algbw = 1e9 / 0.01;
  EXPECT_NEAR(algbw * busbw_factor(Collective::all_reduce, 8), 175e9, 1);
}

TEST(BusBandwidth, GatherScatterAllToAllFourRanks) {
  // (n-1)/n = 3/4: algbw 80 GB/s -> busbw 60 GB/s.
  for (Collective c : {Collective::all_gather, Collective::reduce_scatter, Collective::all_to_all})
    EXPECT_NEAR(80e9 * busbw_factor(c, 4), 60e9, 1) << to_string(c);
}

TEST(BusBandwidth, BroadcastIsAlgbw) {
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::broadcast, 8), 1.0);
}

TEST(BusBandwidth, TwoRanksAllReduceEqualsAlgbw) {
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::all_reduce, 2), 1.0);  // 2 x 1/2
}

TEST(StreamWeights, BabelStreamBytes) {
  // triad over N = 2^25 doubles: 3 x 8 x 2^25 = 805306368 bytes.
  EXPECT_EQ(stream_weight(StreamOp::triad) * 8 * (1 << 25), 805306368);
  EXPECT_EQ(stream_weight(StreamOp::fill), 1);
  EXPECT_EQ(stream_weight(StreamOp::dot), 2);
}

}  // namespace
}  // namespace gpusizer::kernels
