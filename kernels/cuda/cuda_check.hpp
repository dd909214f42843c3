// Checking macros for CUDA runtime, cuBLASLt and NCCL calls (nvbench's NVBENCH_CUDA_CALL idea).
// A failing call throws CudaError carrying file:line, the expression, the error name and its text.
// The *_NOTHROW twins are for destructors: they report to stderr and never throw.
#pragma once

#include <string>

#include "gpusizer/error.hpp"

namespace gpusizer::kernels::cuda {

class CudaError : public RuntimeError {
 public:
  CudaError(const std::string& what, int code) : RuntimeError(what), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

// Each builds "file:line: expr failed: NAME (text)" and throws CudaError.
[[noreturn]] void throw_cuda_error(int code, const char* expr, const char* file, int line);
[[noreturn]] void throw_cublas_error(int status, const char* expr, const char* file, int line);
[[noreturn]] void throw_nccl_error(int result, const char* expr, const char* file, int line);
void report_cuda_error_nothrow(int code, const char* expr, const char* file, int line) noexcept;

}  // namespace gpusizer::kernels::cuda

#define GPUSIZER_CUDA_CALL(expr)                                                                  \
  do {                                                                                            \
    const auto gpusizer_cuda_status_ = (expr);                                                    \
    if (gpusizer_cuda_status_ != cudaSuccess)                                                     \
      ::gpusizer::kernels::cuda::throw_cuda_error(static_cast<int>(gpusizer_cuda_status_), #expr, \
                                                  __FILE__, __LINE__);                            \
  } while (false)

#define GPUSIZER_CUDA_CALL_NOTHROW(expr)                                       \
  do {                                                                         \
    const auto gpusizer_cuda_status_ = (expr);                                 \
    if (gpusizer_cuda_status_ != cudaSuccess)                                  \
      ::gpusizer::kernels::cuda::report_cuda_error_nothrow(                    \
          static_cast<int>(gpusizer_cuda_status_), #expr, __FILE__, __LINE__); \
  } while (false)

// After a kernel launch: the launch error, if any.
#define GPUSIZER_CUDA_CHECK_LAUNCH() GPUSIZER_CUDA_CALL(cudaGetLastError())

#define GPUSIZER_CUBLAS_CALL(expr)                                                             \
  do {                                                                                         \
    const auto gpusizer_cublas_status_ = (expr);                                               \
    if (gpusizer_cublas_status_ != CUBLAS_STATUS_SUCCESS)                                      \
      ::gpusizer::kernels::cuda::throw_cublas_error(static_cast<int>(gpusizer_cublas_status_), \
                                                    #expr, __FILE__, __LINE__);                \
  } while (false)

#define GPUSIZER_NCCL_CALL(expr)                                                                  \
  do {                                                                                            \
    const auto gpusizer_nccl_status_ = (expr);                                                    \
    if (gpusizer_nccl_status_ != ncclSuccess)                                                     \
      ::gpusizer::kernels::cuda::throw_nccl_error(static_cast<int>(gpusizer_nccl_status_), #expr, \
                                                  __FILE__, __LINE__);                            \
  } while (false)
