// Launchers of the project's own CUDA kernels (defined in device_kernels.cu). Internal header.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace gpusizer::kernels::cuda {

// The STREAM kernels (BabelStream names); mirrors kernels::StreamOp without its header, which
// needs C++20 (this header is also compiled by nvcc as C++17).
enum class StreamKernel { copy, mul, add, triad, dot, fill };

// Blocks `stream` until the host writes a non-zero value to *flag (host-mapped memory, device
// pointer given), or until timeout_ns passes; then writes 1 to *timed_out if it gave up.
void launch_spin(cudaStream_t stream, const volatile int* flag, int* timed_out,
                 unsigned long long timeout_ns);

// Number of blocks that fill the device for the streaming kernels (256 threads each).
int stream_grid_blocks(int device);

// STREAM kernels over doubles, 16-byte vectorized (double2), grid-stride. n must be even.
// dot writes one partial sum per block into partials[blocks].
void launch_stream(StreamKernel op, cudaStream_t stream, int blocks, double* a, double* b,
                   double* c, double scalar, double fill_value, double* partials, std::size_t n);

// SM copy of `bytes` (multiple of 16) from src to dst (either may be a peer device's memory).
void launch_sm_copy(cudaStream_t stream, int blocks, void* dst, const void* src, std::size_t bytes);

}  // namespace gpusizer::kernels::cuda
