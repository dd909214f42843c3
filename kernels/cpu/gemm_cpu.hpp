// GEMM on the CPU through OpenBLAS: row-major C = A * B in fp32 (sgemm) or fp64 (dgemm), using
// every core OpenBLAS is allowed. The result is checked on a sample of entries against a long
// double reference with a rigorous rounding-error bound.
#pragma once

#include <cstddef>
#include <cstdint>

#include "aligned_buffer.hpp"
#include "cpu_workload.hpp"

namespace gpusizer::kernels::cpu {

// Entries checked by verify(): this many random (i, j) plus the four corners.
inline constexpr std::size_t kGemmSampleEntries = 256;

// gamma_k = k*u / (1 - k*u), the worst-case relative error of a length-k inner product computed
// in any order (with or without FMA) at unit roundoff u (Higham, Accuracy and Stability of
// Numerical Algorithms, 2nd ed., eq. 3.4/3.5). Returns +inf when k*u >= 1 (no bound).
double inner_product_error_bound(std::int64_t k, double unit_roundoff);

class GemmCpu final : public CpuWorkload {
 public:
  // Throws Unsupported for dtypes other than fp32/fp64 (or sizes past OpenBLAS's index type) and
  // InputError for non-positive sizes. `openblas_threads` is the thread count asked of OpenBLAS.
  GemmCpu(const GemmCase& c, int openblas_threads);

  double run(std::size_t repeats) override;
  WorkAmount work_per_op() const override;
  std::map<std::string, std::string> details() const override;

  // Test hook: adds 1 to C[0][0] (a corner, always in the sample).
  void corrupt_output_for_test();

 private:
  std::string verification_method() const override;
  void check_output(Verification& v) const override;
  template <typename T>
  void init();
  template <typename T>
  void check(Verification& v) const;
  // Unit roundoff of the dtype and the accepted |c - ref| / sum_k |a_ik * b_kj|.
  double unit_roundoff() const;
  double tolerance() const;

  GemmCase case_;
  AlignedBuffer a_, b_, c_;
};

}  // namespace gpusizer::kernels::cpu
