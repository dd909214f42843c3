// GPU tests (label gpu): each family runs a tiny case, verification passes, and a planted
// corruption (one wrong byte / one wrong GEMM entry) makes it fail. Skipped with the reason when
// there is no device.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "gpusizer/kernels/discovery.hpp"
#include "workloads.hpp"

namespace gpusizer::kernels {
namespace {

class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    gpus_ = discover_cuda(DiscoveryOptions{});
    if (gpus_.backends.empty()) GTEST_SKIP() << "no GPU: " << gpus_.gpu_unavailable_reason;
  }
  Backend& gpu0() { return *gpus_.backends.front(); }

  // Runs, checks verification passes, corrupts, checks it fails.
  static void run_verify_corrupt(Workload& w, const std::string& what) {
    SCOPED_TRACE(what);
    w.warm_up();
    const double t = w.run(3);
    EXPECT_GT(t, 0);
    const Verification ok = w.verify();
    EXPECT_EQ(ok.status, VerificationStatus::passed) << ok.detail;
    auto* c = dynamic_cast<cuda::CorruptibleOutput*>(&w);
    ASSERT_NE(c, nullptr);
    c->corrupt_output_for_test();
    const Verification bad = w.verify();
    EXPECT_EQ(bad.status, VerificationStatus::failed) << bad.detail;
  }

  Discovery gpus_;
};

TEST_F(GpuTest, GemmEveryDtypeVerifiesAndCatchesOneWrongEntry) {
  int ran = 0;
  for (Dtype d : gpu0().gemm_dtypes()) {
    std::unique_ptr<Workload> w;
    try {
      w = gpu0().gemm(GemmCase{256, 256, 512, d, "square"});
    } catch (const Unsupported& e) {
      std::cout << "[ info ] " << to_string(d) << " unsupported: " << e.what() << "\n";
      continue;
    }
    ++ran;
    run_verify_corrupt(*w, "gemm " + to_string(d));
    EXPECT_DOUBLE_EQ(w->work_per_op().flops, 2.0 * 256 * 256 * 512);
    EXPECT_FALSE(w->details().at("algo_id").empty());
  }
  EXPECT_GE(ran, 2);  // fp64 and fp32 run everywhere
}

TEST_F(GpuTest, GemmOverTheCapIsSkippedWithAReason) {
  try {
    gpu0().gemm(GemmCase{1 << 17, 1 << 17, 1 << 17, Dtype::f64, "huge"});
    FAIL() << "expected Unsupported";
  } catch (const Unsupported& e) {
    EXPECT_NE(std::string(e.what()).find("cap"), std::string::npos) << e.what();
  }
}

TEST_F(GpuTest, CopiesVerifyAndCatchOneWrongByte) {
  for (CopyKind k : gpu0().copy_kinds()) {
    for (HostMemory h : {HostMemory::pinned, HostMemory::pageable}) {
      if (k == CopyKind::bidirectional && h == HostMemory::pageable) continue;
      auto w = gpu0().copy(CopyCase{k, h, (1 << 20) + 3});
      run_verify_corrupt(*w, to_string(k) + " " + to_string(h));
    }
  }
}

TEST_F(GpuTest, StreamKernelsVerifyAndCatchCorruption) {
  for (StreamOp op : {StreamOp::copy, StreamOp::mul, StreamOp::add, StreamOp::triad, StreamOp::dot,
                      StreamOp::fill}) {
    auto w = gpu0().stream(StreamCase{op, 1 << 22});
    run_verify_corrupt(*w, to_string(op));
    EXPECT_GT(w->peak_rate(), 0);
  }
}

TEST_F(GpuTest, IoPipelineVerifiesAndReportsStageCeilings) {
  // A private folder under the build tree (disk-backed; /tmp may be tmpfs).
  std::string tmpl = std::string(GPUSIZER_BINARY_DIR) + "/gpu-io-test-XXXXXX";
  ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
  const std::filesystem::path dir = tmpl;
  {
    auto w = gpu0().io_pipeline(IoCase{dir.string(), 8u << 20, 1u << 20, 3, true});
    EXPECT_TRUE(std::filesystem::is_empty(dir)) << "the file is unlinked while the workload lives";
    run_verify_corrupt(*w, "io");
    const auto m = w->extra_metrics();
    EXPECT_GT(m.at("storage_only_bytes_per_second"), 0);
    EXPECT_GT(m.at("h2d_only_bytes_per_second"), 0);
    const auto d = w->details();
    for (const char* key :
         {"io_filesystem", "io_file", "page_cache_drop", "page_cache_drop_worked"})
      EXPECT_TRUE(d.count(key)) << key;
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  std::filesystem::remove_all(dir);
}

TEST_F(GpuTest, P2pMatrixWhenTwoGpus) {
  if (!gpus_.multi_gpu) GTEST_SKIP() << gpus_.multi_gpu_unavailable_reason;
  auto& mg = *gpus_.multi_gpu;
  if (!mg.peer_unavailable_reason(0, 1).empty()) GTEST_SKIP() << mg.peer_unavailable_reason(0, 1);
  for (P2pMethod m : {P2pMethod::copy_engine, P2pMethod::sm})
    for (P2pDirection d : {P2pDirection::read, P2pDirection::write}) {
      auto w = mg.p2p_copy(P2pCase{0, 1, m, d, 1 << 20});
      run_verify_corrupt(*w, to_string(m) + " " + to_string(d));
    }
  for (bool to_device : {true, false}) {  // the destination starts as zeros, the source patterned
    auto all = mg.all_to_host(AllHostCase{to_device, 1 << 20});
    all->warm_up();
    all->run(2);
    EXPECT_EQ(all->verify().status, VerificationStatus::passed)
        << (to_device ? "host -> GPUs" : "GPUs -> host");
  }
}

TEST_F(GpuTest, CollectivesVerifyExactlyWhenTwoGpus) {
  if (!gpus_.collectives) GTEST_SKIP() << gpus_.collectives_unavailable_reason;
  for (Collective c : {Collective::all_reduce, Collective::all_gather, Collective::reduce_scatter,
                       Collective::broadcast, Collective::all_to_all}) {
    auto w = gpus_.collectives->collective(CollectiveCase{c, 1 << 20, Dtype::f32});
    w->warm_up();
    w->run(2);
    EXPECT_EQ(w->verify().status, VerificationStatus::passed) << to_string(c);
    EXPECT_DOUBLE_EQ(w->work_per_op().bus_bandwidth_factor, busbw_factor(c, 2));
  }
}

}  // namespace
}  // namespace gpusizer::kernels
