// Formatting of CUDA / cuBLAS errors for the checking macros.
#include "cuda_check.hpp"

#include <cublasLt.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace gpusizer::kernels::cuda {
namespace {
std::string where(const char* expr, const char* file, int line) {
  return std::string(file) + ":" + std::to_string(line) + ": " + expr + " failed: ";
}
}  // namespace

void throw_cuda_error(int code, const char* expr, const char* file, int line) {
  const auto e = static_cast<cudaError_t>(code);
  throw CudaError(
      where(expr, file, line) + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")", code);
}

void throw_cublas_error(int status, const char* expr, const char* file, int line) {
  const auto s = static_cast<cublasStatus_t>(status);
  throw CudaError(
      where(expr, file, line) + cublasLtGetStatusName(s) + " (" + cublasLtGetStatusString(s) + ")",
      status);
}

void report_cuda_error_nothrow(int code, const char* expr, const char* file, int line) noexcept {
  const auto e = static_cast<cudaError_t>(code);
  std::fprintf(stderr, "gpusizer: %s:%d: %s failed: %s (%s)\n", file, line, expr,
               cudaGetErrorName(e), cudaGetErrorString(e));
}

}  // namespace gpusizer::kernels::cuda
