#include "memcpy_cpu.hpp"

#include <gtest/gtest.h>

namespace gpusizer::kernels::cpu {
namespace {

TEST(MemcpyCpu, RunsVerifiesAndCountsBytesOnce) {
  MemcpyCpu w(CopyCase{CopyKind::host_to_host, HostMemory::pageable, 1000003});
  w.warm_up();
  EXPECT_GT(w.run(4), 0.0);
  const Verification v = w.verify();
  EXPECT_EQ(v.status, VerificationStatus::passed) << v.detail;
  EXPECT_EQ(w.work_per_op().bytes, 1000003.0);
  EXPECT_EQ(w.details().at("threads"), "1");
}

TEST(MemcpyCpu, FlippedByteIsFoundAtItsOffset) {
  MemcpyCpu w(CopyCase{CopyKind::host_to_host, HostMemory::pageable, 1000003});
  w.run(1);
  w.corrupt_output_for_test();  // flips byte 1000003 / 2 = 500001
  const Verification v = w.verify();
  EXPECT_EQ(v.status, VerificationStatus::failed);
  EXPECT_NE(v.detail.find("1 of 1000003 bytes differ; first at offset 500001"), std::string::npos)
      << v.detail;
}

TEST(MemcpyCpu, NotRunMeansDestinationStillPoisoned) {
  MemcpyCpu w(CopyCase{CopyKind::host_to_host, HostMemory::pageable, 4096});
  EXPECT_EQ(w.verify().status, VerificationStatus::failed);
}

TEST(MemcpyCpu, ZeroBytesIsAnInputError) {
  EXPECT_THROW(MemcpyCpu(CopyCase{CopyKind::host_to_host, HostMemory::pageable, 0}), InputError);
}

}  // namespace
}  // namespace gpusizer::kernels::cpu
