#include "gemm_model.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace gpusizer::kernels::cuda {
namespace {

// TFLOP/s (TOPS for int8), dense; 0 = not published / not retrieved. Figures and sources from
// docs/methodology-gpu.md (copied from the project's reference gpu-limits.md, table d.1).
struct ModelPeaks {
  const char* model;
  double f64, f32, tf32, f16, bf16, fp8, int8;
  const char* source;
  bool f64_tensor_core;  // the fp64 figure is the FP64 tensor-core rate
};

constexpr std::array<ModelPeaks, 7> kPeaks{{
    {"NVIDIA H100 80GB HBM3", 67, 67, 495, 989, 989, 1979, 0, "NVIDIA H100 SXM5 datasheet", true},
    {"NVIDIA H200", 67, 67, 495, 989, 989, 1979, 0, "NVIDIA H200 SXM datasheet", true},
    {"NVIDIA A100-SXM4-80GB", 19.5, 19.5, 156, 312, 312, 0, 0, "NVIDIA A100 datasheet", true},
    {"NVIDIA A100-SXM4-40GB", 19.5, 19.5, 156, 312, 312, 0, 0, "NVIDIA A100 datasheet", true},
    {"NVIDIA L4", 0, 30.3, 60, 121, 121, 242.5, 0, "NVIDIA L4 datasheet", false},
    {"NVIDIA L40S", 0, 91.6, 183, 362, 362, 733, 0, "NVIDIA L40S datasheet", false},
    {"Tesla T4", 0, 8.1, 0, 65, 0, 0, 130, "NVIDIA T4 launch figures (FP16 mixed, INT8)", false},
}};

double pick(const ModelPeaks& p, Dtype d) {
  switch (d) {
    case Dtype::f64:
      return p.f64;
    case Dtype::f32:
      return p.f32;
    case Dtype::tf32:
      return p.tf32;
    case Dtype::f16:
      return p.f16;
    case Dtype::bf16:
      return p.bf16;
    case Dtype::fp8_e4m3:
      return p.fp8;
    case Dtype::int8:
      return p.int8;
  }
  return 0;
}

int cc(int major, int minor) {
  return major * 10 + minor;
}

}  // namespace

PeakRate datasheet_gemm_peak(const std::string& model, Dtype dtype) {
  for (const auto& p : kPeaks) {
    if (model == p.model) {
      const double tflops = pick(p, dtype);
      if (tflops <= 0) return {};
      // The note names what the figure is for this dtype: dense (no 2:4 sparsity), and for fp64
      // whether it is the tensor-core rate.
      return {tflops * 1e12,
              std::string(p.source) + " (" + to_string(dtype) + ", dense" +
                  (dtype == Dtype::f64 && p.f64_tensor_core ? ", FP64 tensor core" : "") + ")"};
    }
  }
  return {};
}

double rough_gemm_rate(Dtype dtype, int cc_major, int cc_minor, int sm_count, double sm_clock_hz) {
  const int c = cc(cc_major, cc_minor);
  // FLOP per SM per clock, rounded up (the model must over-estimate: it only bounds time below).
  double per_sm = 0;
  switch (dtype) {
    case Dtype::f64:
      per_sm = (c == 80 || c == 90 || c >= 100) ? 256 : 8;
      break;
    case Dtype::f32:
      per_sm = 256;
      break;
    case Dtype::tf32:
      per_sm = c >= 90 ? 2048 : 1024;
      break;
    case Dtype::f16:
    case Dtype::bf16:
      per_sm = c >= 100 ? 8192 : (c >= 90 ? 4096 : 2048);
      break;
    case Dtype::fp8_e4m3:
    case Dtype::int8:
      per_sm = c >= 100 ? 16384 : (c >= 90 ? 8192 : 4096);
      break;
  }
  // 10% margin over the nominal per-clock rate: boost clocks above the reported one.
  return 1.1 * per_sm * sm_count * sm_clock_hz;
}

double gemm_flops(std::int64_t m, std::int64_t n, std::int64_t k) {
  return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
}

double estimated_gemm_seconds(const std::string& model, Dtype dtype, int cc_major, int cc_minor,
                              int sm_count, double sm_clock_hz, std::int64_t m, std::int64_t n,
                              std::int64_t k) {
  const PeakRate peak = datasheet_gemm_peak(model, dtype);
  const double rate = peak.flops_per_second > 0
                          ? peak.flops_per_second
                          : rough_gemm_rate(dtype, cc_major, cc_minor, sm_count, sm_clock_hz);
  return rate > 0 ? gemm_flops(m, n, k) / rate : 0;
}

std::string gemm_unsupported_reason(Dtype dtype, int cc_major, int cc_minor) {
  const int c = cc(cc_major, cc_minor);
  switch (dtype) {
    case Dtype::f64:
    case Dtype::f32:
      return "";
    case Dtype::f16:
      return c >= 70 ? "" : "fp16 tensor-core GEMM needs compute capability >= 7.0";
    case Dtype::int8:
      return c >= 75 ? "" : "int8 tensor-core GEMM needs compute capability >= 7.5";
    case Dtype::tf32:
      return c >= 80 ? "" : "tf32 needs compute capability >= 8.0 (Ampere)";
    case Dtype::bf16:
      return c >= 80 ? "" : "bf16 needs compute capability >= 8.0 (Ampere)";
    case Dtype::fp8_e4m3:
      return c >= 89 ? "" : "fp8 e4m3 GEMM needs compute capability >= 8.9 (Ada/Hopper)";
  }
  return "unknown dtype";
}

double gemm_tolerance(Dtype dtype) {
  switch (dtype) {
    case Dtype::f64:
      return 1e-12;
    case Dtype::f32:
      return 1e-5;  // fp32 lands far under 1e-3 (METHOD.md)
    case Dtype::tf32:
      return 2e-3;  // inputs rounded to 10-bit mantissa: ~3e-4 expected
    case Dtype::f16:
      return 2e-3;  // exact inputs, fp32 accumulate, fp16 output (2^-11 rounding)
    case Dtype::bf16:
      return 1e-2;  // bf16 output (2^-8 rounding): 1e-3..1e-2
    case Dtype::fp8_e4m3:
      return 1e-2;  // exact e4m3 inputs, fp32 accumulate, bf16 output
    case Dtype::int8:
      return 0;  // int32 accumulate: exact
  }
  return 0;
}

double gemm_tolerance(Dtype dtype, std::int64_t k) {
  const double base = gemm_tolerance(dtype);
  if (dtype != Dtype::f32 || k <= 0) return base;
  return std::max(base, 2 * 0x1p-24 * std::sqrt(static_cast<double>(k)));
}

}  // namespace gpusizer::kernels::cuda
