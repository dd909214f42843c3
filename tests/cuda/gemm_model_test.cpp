#include "host/gemm_model.hpp"

#include <gtest/gtest.h>

namespace gpusizer::kernels::cuda {
namespace {

TEST(GemmPeak, KnownModelsFromTheDatasheetTable) {
  // gpu-limits.md d.1: H200 SXM bf16 989 TF dense, fp8 1979; A100 SXM4 tf32 156; T4 int8 130 TOPS.
  EXPECT_DOUBLE_EQ(datasheet_gemm_peak("NVIDIA H200", Dtype::bf16).flops_per_second, 989e12);
  EXPECT_DOUBLE_EQ(datasheet_gemm_peak("NVIDIA H100 80GB HBM3", Dtype::fp8_e4m3).flops_per_second,
                   1979e12);
  EXPECT_DOUBLE_EQ(datasheet_gemm_peak("NVIDIA A100-SXM4-40GB", Dtype::tf32).flops_per_second,
                   156e12);
  EXPECT_DOUBLE_EQ(datasheet_gemm_peak("Tesla T4", Dtype::int8).flops_per_second, 130e12);
  EXPECT_DOUBLE_EQ(datasheet_gemm_peak("NVIDIA L4", Dtype::fp8_e4m3).flops_per_second, 242.5e12);
  // The note is the dtype's own: the first GPU run showed bf16 labelled "FP64 tensor core".
  EXPECT_EQ(datasheet_gemm_peak("NVIDIA H200", Dtype::bf16).source,
            "NVIDIA H200 SXM datasheet (bf16, dense)");
  EXPECT_EQ(datasheet_gemm_peak("NVIDIA H200", Dtype::f64).source,
            "NVIDIA H200 SXM datasheet (fp64, dense, FP64 tensor core)");
  EXPECT_EQ(datasheet_gemm_peak("NVIDIA L4", Dtype::f32).source,
            "NVIDIA L4 datasheet (fp32, dense)");
}

TEST(GemmPeak, UnknownIsZeroNeverAGuess) {
  EXPECT_EQ(datasheet_gemm_peak("NVIDIA A10G", Dtype::bf16).flops_per_second, 0);  // not published
  EXPECT_EQ(datasheet_gemm_peak("NVIDIA H200 NVL", Dtype::bf16).flops_per_second, 0);
  EXPECT_EQ(datasheet_gemm_peak("Tesla T4", Dtype::bf16).flops_per_second, 0);  // no bf16 on T4
  EXPECT_EQ(datasheet_gemm_peak("NVIDIA A100-SXM4-80GB", Dtype::fp8_e4m3).flops_per_second, 0);
  EXPECT_TRUE(datasheet_gemm_peak("Some GPU", Dtype::f32).source.empty());
}

TEST(GemmModel, RoughRateBoundsTheDatasheetFromAbove) {
  // The rough model only bounds time from below, so it must not fall under the real peak.
  // H100 SXM: 132 SMs at 1.98 GHz boost; A100: 108 SMs at 1.41 GHz; L40S: 142 SMs at 2.52 GHz.
  EXPECT_GE(rough_gemm_rate(Dtype::bf16, 9, 0, 132, 1.98e9), 989e12);
  EXPECT_GE(rough_gemm_rate(Dtype::f64, 9, 0, 132, 1.98e9), 67e12);
  EXPECT_GE(rough_gemm_rate(Dtype::bf16, 8, 0, 108, 1.41e9), 0.99 * 312e12);  // datasheet rounds up
  EXPECT_GE(rough_gemm_rate(Dtype::fp8_e4m3, 8, 9, 142, 2.52e9), 733e12);
}

TEST(GemmModel, FlopCount) {
  EXPECT_DOUBLE_EQ(gemm_flops(2, 3, 4), 48.0);
}

TEST(GemmModel, Fp64At16384OnAT4IsOverTheTwoSecondCap) {
  // T4: 40 SMs, 1.59 GHz, cc 7.5. 2 x 16384^3 = 8.80e12 FLOP; rough fp64 rate (with its 10% margin)
  // is ~0.56e12 FLOP/s -> about 16 s, so the case is skipped; fp16 at 8192^3 is not.
  const double t =
      estimated_gemm_seconds("Tesla T4", Dtype::f64, 7, 5, 40, 1.59e9, 16384, 16384, 16384);
  EXPECT_NEAR(t, 8.796e12 / 0.55968e12, 0.1);  // 1.1 x 8 x 40 x 1.59e9 = 0.560e12 FLOP/s
  EXPECT_GT(t, 2.0);
  // fp16 8192^3 on a T4 from the datasheet 65 TF: 1.1e12 / 65e12 = 0.017 s.
  EXPECT_NEAR(estimated_gemm_seconds("Tesla T4", Dtype::f16, 7, 5, 40, 1.59e9, 8192, 8192, 8192),
              0.0169, 0.001);
}

TEST(GemmModel, DtypeSupportByComputeCapability) {
  EXPECT_FALSE(gemm_unsupported_reason(Dtype::fp8_e4m3, 8, 0).empty());
  EXPECT_TRUE(gemm_unsupported_reason(Dtype::fp8_e4m3, 8, 9).empty());
  EXPECT_TRUE(gemm_unsupported_reason(Dtype::fp8_e4m3, 9, 0).empty());
  EXPECT_FALSE(gemm_unsupported_reason(Dtype::bf16, 7, 5).empty());
  EXPECT_FALSE(gemm_unsupported_reason(Dtype::tf32, 7, 5).empty());
  EXPECT_TRUE(gemm_unsupported_reason(Dtype::int8, 7, 5).empty());
  EXPECT_TRUE(gemm_unsupported_reason(Dtype::f64, 7, 5).empty());
}

TEST(GemmTolerance, PerDtypeRangesFromTheMethod) {
  EXPECT_LT(gemm_tolerance(Dtype::f32), 1e-4);  // "far under 1e-3"
  EXPECT_GE(gemm_tolerance(Dtype::tf32), 3e-4);
  EXPECT_LE(gemm_tolerance(Dtype::tf32), 1e-2);
  EXPECT_GE(gemm_tolerance(Dtype::bf16), 1e-3);
  EXPECT_LE(gemm_tolerance(Dtype::bf16), 1e-2);
  EXPECT_LE(gemm_tolerance(Dtype::f16), gemm_tolerance(Dtype::bf16));
  EXPECT_EQ(gemm_tolerance(Dtype::int8), 0);  // exact
  EXPECT_LT(gemm_tolerance(Dtype::f64), 1e-10);
}

TEST(GemmTolerance, Fp32GrowsWithTheReductionDepth) {
  // Shallow products keep the fixed bound: 2 x 2^-24 x sqrt(512) = 2.7e-6 < 1e-5.
  EXPECT_EQ(gemm_tolerance(Dtype::f32, 512), gemm_tolerance(Dtype::f32));
  EXPECT_EQ(gemm_tolerance(Dtype::f32, 2048), 1e-5);  // 2 x 2^-24 x 45.25 = 5.4e-6
  // K = 65536 (the large_k shape): a chain of 65536 fp32 FMAs has an expected relative error of
  // about 2^-24 x sqrt(65536 / 6) = 6.2e-6, too close to 1e-5; the bound is 2 x 2^-24 x 256.
  EXPECT_DOUBLE_EQ(gemm_tolerance(Dtype::f32, 65536), 2.0 * 256 / 16777216.0);
  EXPECT_GT(gemm_tolerance(Dtype::f32, 65536), 4 * 6.2e-6);
  EXPECT_LT(gemm_tolerance(Dtype::f32, 65536), 1e-4);  // still "far under 1e-3"
  // Other dtypes do not depend on K.
  EXPECT_EQ(gemm_tolerance(Dtype::bf16, 65536), gemm_tolerance(Dtype::bf16));
  EXPECT_EQ(gemm_tolerance(Dtype::int8, 65536), 0);
}

}  // namespace
}  // namespace gpusizer::kernels::cuda
