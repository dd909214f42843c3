// Discovery never throws: with no driver or no device it reports 0 GPUs and the reason.
#include <gtest/gtest.h>

#include "gpusizer/kernels/discovery.hpp"

namespace gpusizer::kernels {
namespace {

TEST(CudaDiscovery, ReportsGpusOrAReasonWithoutThrowing) {
  EXPECT_TRUE(built_with_cuda());
  Discovery g;
  ASSERT_NO_THROW(g = discover_cuda(DiscoveryOptions{}));
  if (g.backends.empty()) {
    EXPECT_FALSE(g.gpu_unavailable_reason.empty());
    EXPECT_FALSE(g.collectives_unavailable_reason.empty());
    EXPECT_FALSE(g.multi_gpu_unavailable_reason.empty());
    EXPECT_EQ(g.collectives, nullptr);
    EXPECT_EQ(g.multi_gpu, nullptr);
  } else {
    for (const auto& b : g.backends) {
      EXPECT_EQ(b->target().id.rfind("gpu", 0), 0u);
      ASSERT_TRUE(b->target().uuid.has_value());
      EXPECT_TRUE(b->target().uuid->rfind("GPU-", 0) == 0 ||
                  b->target().uuid->rfind("MIG-", 0) == 0);
      EXPECT_GT(b->target().memory_bytes, 0u);
      EXPECT_GT(b->target().attributes.at("theoretical_memory_bytes_per_second").get<double>(), 0);
    }
    if (g.backends.size() < 2) {
      EXPECT_FALSE(g.collectives_unavailable_reason.empty());
    }
  }
}

TEST(CudaDiscovery, RespectsGpuIndicesAndWarnsOnMissingOnes) {
  DiscoveryOptions o;
  o.gpu_indices = {4096};
  const Discovery g = discover_cuda(o);
  EXPECT_TRUE(g.backends.empty());
  EXPECT_FALSE(g.gpu_unavailable_reason.empty());
}

}  // namespace
}  // namespace gpusizer::kernels
