// Launchers of the project's own CUDA kernels (defined in device_kernels.cu). Internal header.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

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

// STREAM kernels over doubles, 16-byte (double2) elements. A variant: `unroll` loads each thread
// issues before its stores; `tiled`: the unrolled elements are a block apart inside one
// contiguous tile per block (else a grid apart, grid-stride); `streaming`: ld/st.global.cs cache
// hints; `grid_denominator`: the grid is the full-occupancy grid divided by it; `tma`: tiles
// moved by the bulk-copy engine through shared memory (sm_90+, not for dot and fill).
struct StreamVariant {
  std::string name;
  int unroll = 1;
  bool tiled = false, streaming = false;
  int grid_denominator = 1;
  bool tma = false;
};
// The variants built, the first being BabelStream's loop (grid-stride, one load per thread).
const std::vector<StreamVariant>& stream_variants();
// Whether `v` can run `op` on a GPU of compute capability cc_major.x.
bool stream_variant_applies(const StreamVariant& v, StreamKernel op, int cc_major);
// Blocks of 256 threads a variant launches on `device` (its own occupancy calculation).
int stream_variant_blocks(int device, const StreamVariant& v);
// n must be even; dot writes one partial sum per block into partials[blocks].
void launch_stream(StreamKernel op, cudaStream_t stream, int blocks, const StreamVariant& variant,
                   double* a, double* b, double* c, double scalar, double fill_value,
                   double* partials, std::size_t n);

// The bulk-copy (TMA) STREAM kernels (stream_tma.cu): false when `op` has none.
int tma_stream_blocks(int device);
bool launch_stream_tma(StreamKernel op, cudaStream_t stream, int blocks, double2* a, double2* b,
                       double2* c, double scalar, std::size_t n2);

// GEMM input element types the generator writes (tf32 inputs are f32).
enum class FillType { f64, f32, f16, bf16, fp8_e4m3, int8 };
// Fills out[0..count) with uniform values in [-1, 1) rounded to `type` (int8: integers in
// [-int8_range, int8_range]) from a hash of (seed, index); on the device, asynchronously.
void launch_fill_uniform(cudaStream_t stream, FillType type, std::uint64_t seed, std::size_t count,
                         void* out, int int8_range);

// Reads `bytes` (multiple of 16) of `buffer`, evicting the L2 without leaving dirty lines.
void launch_l2_flush_read(cudaStream_t stream, int blocks, const void* buffer, std::size_t bytes,
                          int* sink);

// SM copy of `bytes` (multiple of 16) from src to dst (either may be a peer device's memory).
void launch_sm_copy(cudaStream_t stream, int blocks, void* dst, const void* src, std::size_t bytes);

}  // namespace gpusizer::kernels::cuda
