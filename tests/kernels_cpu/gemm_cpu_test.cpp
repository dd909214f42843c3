#include "gemm_cpu.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace gpusizer::kernels::cpu {
namespace {

GemmCase odd_case(Dtype d) {
  return GemmCase{37, 29, 53, d, "odd"};
}

TEST(GemmCpu, Fp32AndFp64RunAndVerify) {
  for (Dtype d : {Dtype::f32, Dtype::f64}) {
    GemmCpu w(odd_case(d), 2);
    w.warm_up();
    EXPECT_GT(w.run(2), 0.0);
    const Verification v = w.verify();
    EXPECT_EQ(v.status, VerificationStatus::passed) << to_string(d) << ": " << v.detail;
    EXPECT_FALSE(w.details().at("openblas_threads").empty());
  }
}

TEST(GemmCpu, FlopsAreTwoMNK) {
  GemmCpu w(odd_case(Dtype::f64), 1);
  const WorkAmount work = w.work_per_op();
  EXPECT_EQ(work.flops, 113738.0);  // 2 * 37 * 29 * 53
  EXPECT_EQ(work.rate_metric, RateMetric::throughput);
  EXPECT_NE(work.rule.find("2*M*N*K"), std::string::npos);
}

TEST(GemmCpu, PlantedCorruptionFails) {
  for (Dtype d : {Dtype::f32, Dtype::f64}) {
    GemmCpu w(odd_case(d), 2);
    w.run(1);
    w.corrupt_output_for_test();
    const Verification v = w.verify();
    EXPECT_EQ(v.status, VerificationStatus::failed) << to_string(d);
    EXPECT_NE(v.detail.find("C[0][0]"), std::string::npos) << v.detail;
  }
}

TEST(GemmCpu, NeverRunOutputIsPoisoned) {
  GemmCpu w(odd_case(Dtype::f32), 1);
  EXPECT_EQ(w.verify().status, VerificationStatus::failed);
}

TEST(GemmCpu, ErrorBoundIsGammaK) {
  // k = 100, u = 2^-24: 5.96046448e-6 / (1 - 5.96046448e-6) = 5.96050001e-6.
  EXPECT_NEAR(inner_product_error_bound(100, std::ldexp(1.0, -24)), 5.96050001e-6, 1e-14);
  EXPECT_TRUE(std::isinf(inner_product_error_bound(1 << 24, std::ldexp(1.0, -24))));
}

TEST(GemmCpu, OtherDtypesAreUnsupportedWithReason) {
  try {
    GemmCpu w(GemmCase{8, 8, 8, Dtype::bf16, "square"}, 1);
    FAIL() << "bf16 accepted";
  } catch (const Unsupported& e) {
    EXPECT_STREQ(e.what(), "OpenBLAS backend multiplies fp32 and fp64 only; bf16 needs a GPU");
  }
  EXPECT_THROW(GemmCpu(GemmCase{8, 8, 8, Dtype::int8, "square"}, 1), Unsupported);
}

TEST(GemmCpu, NonPositiveSizeIsAnInputError) {
  EXPECT_THROW(GemmCpu(GemmCase{0, 8, 8, Dtype::f32, "square"}, 1), InputError);
}

}  // namespace
}  // namespace gpusizer::kernels::cpu
