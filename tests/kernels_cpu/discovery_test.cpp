// discover(): one Discovery for the machine, the CPU's backend first and then the GPUs
// discover_cuda found (none, with the reason, where there is no CUDA or no device).
#include <gtest/gtest.h>

#include "gpusizer/kernels/discovery.hpp"

namespace gpusizer::kernels {
namespace {

TEST(Discovery, NoGpuRequestedIsTheCpuAloneWithTheReason) {
  DiscoveryOptions o;
  o.gpus = false;
  const Discovery d = discover(o);
  ASSERT_EQ(d.backends.size(), 1u);
  EXPECT_EQ(d.backends[0]->target().id, "cpu");
  EXPECT_EQ(d.gpu_unavailable_reason, "GPUs not requested (--no-gpu)");
  EXPECT_EQ(d.collectives_unavailable_reason, "GPUs not requested (--no-gpu)");
  EXPECT_EQ(d.multi_gpu_unavailable_reason, "GPUs not requested (--no-gpu)");
  EXPECT_EQ(d.collectives, nullptr);
  EXPECT_EQ(d.multi_gpu, nullptr);
}

TEST(Discovery, TheCpuComesFirstThenWhatDiscoverCudaFound) {
  const Discovery gpus = discover_cuda(DiscoveryOptions{});
  const Discovery all = discover(DiscoveryOptions{});
  ASSERT_EQ(all.backends.size(), gpus.backends.size() + 1);
  EXPECT_EQ(all.backends[0]->target().kind, TargetKind::cpu);
  for (std::size_t i = 0; i < gpus.backends.size(); ++i)
    EXPECT_EQ(all.backends[i + 1]->target().id, gpus.backends[i]->target().id);
  EXPECT_EQ(all.gpu_unavailable_reason, gpus.gpu_unavailable_reason);
  EXPECT_EQ(all.gpu_unavailable_reason.empty(), !gpus.backends.empty());
  DiscoveryOptions no_cpu;
  no_cpu.cpu = false;
  EXPECT_EQ(discover(no_cpu).backends.size(), gpus.backends.size());
}

}  // namespace
}  // namespace gpusizer::kernels
