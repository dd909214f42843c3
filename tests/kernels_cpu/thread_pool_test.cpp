#include "thread_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <vector>

namespace gpusizer::kernels::cpu {
namespace {

TEST(ThreadPool, OneWorkerPerAllowedCpuAndEachRunsOncePerRegion) {
  ThreadPool pool;
  EXPECT_EQ(pool.size(), allowed_cpu_count());
  std::vector<std::atomic<int>> calls(pool.size());
  const std::function<void(std::size_t)> fn = [&](std::size_t i) { ++calls[i]; };
  pool.run(fn);
  pool.run(fn);
  for (auto& c : calls) EXPECT_EQ(c.load(), 2);
  EXPECT_FALSE(pool.placement().empty());
}

TEST(ThreadPool, ExplicitWorkerCount) {
  ThreadPool pool(3);
  EXPECT_EQ(pool.size(), 3u);
  std::atomic<int> calls{0};
  pool.run([&](std::size_t) { ++calls; });
  EXPECT_EQ(calls.load(), 3);
}

TEST(ThreadPool, PartitionIsContiguousDisjointAndAligned) {
  // 100 items, 3 workers, blocks of 8: 13 blocks -> 5, 4, 4 blocks -> [0,40) [40,72) [72,100).
  std::size_t b = 0, e = 0;
  ThreadPool::partition(100, 3, 0, 8, b, e);
  EXPECT_EQ(b, 0u);
  EXPECT_EQ(e, 40u);
  ThreadPool::partition(100, 3, 1, 8, b, e);
  EXPECT_EQ(b, 40u);
  EXPECT_EQ(e, 72u);
  ThreadPool::partition(100, 3, 2, 8, b, e);
  EXPECT_EQ(b, 72u);
  EXPECT_EQ(e, 100u);
  // More workers than blocks: the extra workers get empty ranges.
  ThreadPool::partition(5, 4, 3, 8, b, e);
  EXPECT_EQ(b, e);
}

}  // namespace
}  // namespace gpusizer::kernels::cpu
