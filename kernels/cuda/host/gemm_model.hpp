// Pure C++ facts about GEMM on NVIDIA GPUs, unit-tested without a GPU:
//  - the dense datasheet peak per (model, dtype), with its source; 0 when unknown (never a guess);
//  - a rough optimistic rate model (SMs x clock x per-SM rate) used only to skip a case whose one
//    operation would take longer than a cap (a lower bound of its time), never reported as a peak;
//  - the verification tolerance per dtype;
//  - which dtypes a compute capability supports.
#pragma once

#include <cstdint>
#include <string>

#include "gpusizer/kernels/backend.hpp"

namespace gpusizer::kernels::cuda {

struct PeakRate {
  double flops_per_second = 0;  // dense (no sparsity); 0 = unknown
  std::string source;
};

// `model` is the CUDA device name ("NVIDIA H200", "NVIDIA H100 80GB HBM3", "Tesla T4", ...).
PeakRate datasheet_gemm_peak(const std::string& model, Dtype dtype);

// Optimistic FLOP/s from SM count, SM clock and a per-SM-per-clock rate for the architecture.
double rough_gemm_rate(Dtype dtype, int cc_major, int cc_minor, int sm_count, double sm_clock_hz);

// FLOP of one GEMM: 2 M N K.
double gemm_flops(std::int64_t m, std::int64_t n, std::int64_t k);

// Lower bound of one GEMM's time: FLOP over the datasheet peak when known, else over the rough
// model. Used to skip a case that would exceed a per-operation cap.
double estimated_gemm_seconds(const std::string& model, Dtype dtype, int cc_major, int cc_minor,
                              int sm_count, double sm_clock_hz, std::int64_t m, std::int64_t n,
                              std::int64_t k);

// "" when supported, else the reason it is not.
std::string gemm_unsupported_reason(Dtype dtype, int cc_major, int cc_minor);

// Largest accepted relative error by norm, ||D - ref|| / ||ref||, on the sampled entries.
double gemm_tolerance(Dtype dtype);
// The same, for a product of depth k: fp32's accumulation error grows with sqrt(k) (each output
// is a chain of k fused multiply-adds, relative error about 2^-24 x sqrt(k/6) for random signs),
// so at K = 65536 the fixed 1e-5 would be only 1.6x above the expected error; the bound is
// max(gemm_tolerance(dtype), 2 x 2^-24 x sqrt(k)), about 5x the expected error (3e-5 at K = 65536).
// Other dtypes: gemm_tolerance(dtype).
double gemm_tolerance(Dtype dtype, std::int64_t k);

}  // namespace gpusizer::kernels::cuda
