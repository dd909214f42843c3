#include <gtest/gtest.h>

#include "gpusizer/kernels/discovery.hpp"

namespace gpusizer::kernels {
namespace {

TEST(CpuBackend, TargetAndCapabilities) {
  auto backend = make_cpu_backend();
  EXPECT_EQ(backend->target().kind, TargetKind::cpu);
  EXPECT_EQ(backend->copy_kinds(), std::vector<CopyKind>{CopyKind::host_to_host});
  EXPECT_EQ(backend->gemm_dtypes(), (std::vector<Dtype>{Dtype::f64, Dtype::f32}));
}

TEST(CpuBackend, FactoriesServeTinyCases) {
  auto backend = make_cpu_backend();
  auto s = backend->stream(StreamCase{StreamOp::add, 4096});
  s->run(1);
  EXPECT_EQ(s->verify().status, VerificationStatus::passed);
  auto c = backend->copy(CopyCase{CopyKind::host_to_host, HostMemory::pageable, 4096});
  c->run(1);
  EXPECT_EQ(c->verify().status, VerificationStatus::passed);
  auto g = backend->gemm(GemmCase{16, 16, 16, Dtype::f32, "square"});
  g->run(1);
  EXPECT_EQ(g->verify().status, VerificationStatus::passed);
}

TEST(CpuBackend, DeviceCopiesAreUnsupportedWithReason) {
  auto backend = make_cpu_backend();
  for (CopyKind k : {CopyKind::host_to_device, CopyKind::device_to_host, CopyKind::device_to_device,
                     CopyKind::bidirectional}) {
    try {
      backend->copy(CopyCase{k, HostMemory::pinned, 4096});
      FAIL() << to_string(k) << " accepted";
    } catch (const Unsupported& e) {
      EXPECT_EQ(std::string(e.what()),
                "the CPU backend has host memory only: " + to_string(k) + " needs a GPU");
    }
  }
}

TEST(CpuBackend, GpuDtypesAreUnsupported) {
  auto backend = make_cpu_backend();
  for (Dtype d : {Dtype::tf32, Dtype::f16, Dtype::bf16, Dtype::fp8_e4m3, Dtype::int8}) {
    EXPECT_THROW(backend->gemm(GemmCase{8, 8, 8, d, "square"}), Unsupported) << to_string(d);
  }
}

TEST(CpuBackend, IoToDeviceUnsupportedAndBadDirectoryInputError) {
  auto backend = make_cpu_backend();
  EXPECT_THROW(backend->io_pipeline(IoCase{GPUSIZER_BINARY_DIR, 4096, 4096, 2, true}), Unsupported);
  EXPECT_THROW(backend->io_pipeline(IoCase{"/nonexistent/gpusizer", 4096, 4096, 2, false}),
               InputError);
}

}  // namespace
}  // namespace gpusizer::kernels
