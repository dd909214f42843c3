// The project's own kernels: the launch-hiding spin kernel, STREAM kernels, SM copies, GEMM input
// generation and the L2 flush.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "cuda_check.hpp"
#include "device_kernels.hpp"

namespace gpusizer::kernels::cuda {
namespace {

constexpr int kThreads = 256;

__device__ unsigned long long global_timer_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// nvbench's block_stream / nvbandwidth's spin kernel: holds the stream until the host releases
// it, so the work queued behind it starts back to back; gives up after a timeout (never hangs).
__global__ void spin_kernel(const volatile int* flag, int* timed_out,
                            unsigned long long timeout_ns) {
  const unsigned long long start = global_timer_ns();
  while (*flag == 0) {
    if (global_timer_ns() - start > timeout_ns) {
      *timed_out = 1;
      return;
    }
  }
}

// STREAM kernels, in variants the workload times and chooses from (the best one depends on the
// GPU): U loads of 16 bytes issued by each thread before its U stores; the U elements either a
// grid apart (grid-stride, BabelStream's loop when U = 1) or a block apart inside one contiguous
// tile per block (tiled: each block's accesses stay in one region of DRAM); plain accesses or the
// streaming cache hints (ld.global.cs / st.global.cs: evict first, the data is used once).
template <bool Cs>
__device__ __forceinline__ double2 ldv(const double2* p, size_t i) {
  if constexpr (Cs) return __ldcs(p + i);
  return p[i];
}
template <bool Cs>
__device__ __forceinline__ void stv(double2* p, size_t i, double2 v) {
  if constexpr (Cs)
    __stcs(p + i, v);
  else
    p[i] = v;
}

struct CopyOp {
  const double2* __restrict__ a;
  double2* __restrict__ c;
  template <bool Cs>
  __device__ double2 load(size_t i) const {
    return ldv<Cs>(a, i);
  }
  template <bool Cs>
  __device__ void store(size_t i, double2 v) const {
    stv<Cs>(c, i, v);
  }
};
struct MulOp {
  double2* __restrict__ b;
  const double2* __restrict__ c;
  double s;
  template <bool Cs>
  __device__ double2 load(size_t i) const {
    return ldv<Cs>(c, i);
  }
  template <bool Cs>
  __device__ void store(size_t i, double2 v) const {
    stv<Cs>(b, i, make_double2(s * v.x, s * v.y));
  }
};
// Two 16-byte values loaded together (double4 is deprecated in CUDA 13).
struct Two {
  double2 x, y;
};
struct AddOp {
  const double2* __restrict__ a;
  const double2* __restrict__ b;
  double2* __restrict__ c;
  template <bool Cs>
  __device__ Two load(size_t i) const {
    return {ldv<Cs>(a, i), ldv<Cs>(b, i)};
  }
  template <bool Cs>
  __device__ void store(size_t i, Two v) const {
    stv<Cs>(c, i, make_double2(v.x.x + v.y.x, v.x.y + v.y.y));
  }
};
struct TriadOp {
  double2* __restrict__ a;
  const double2* __restrict__ b;
  const double2* __restrict__ c;
  double s;
  template <bool Cs>
  __device__ Two load(size_t i) const {
    return {ldv<Cs>(b, i), ldv<Cs>(c, i)};
  }
  template <bool Cs>
  __device__ void store(size_t i, Two v) const {
    stv<Cs>(a, i, make_double2(v.x.x + s * v.y.x, v.x.y + s * v.y.y));
  }
};
struct FillOp {
  double2* __restrict__ a;
  double value;
  template <bool Cs>
  __device__ int load(size_t) const {
    return 0;
  }
  template <bool Cs>
  __device__ void store(size_t i, int) const {
    stv<Cs>(a, i, make_double2(value, value));
  }
};
// dot: "stores" add into the thread's running sum; the block reduces it at the end.
struct DotOp {
  const double2* __restrict__ a;
  const double2* __restrict__ b;
  double* sum;
  template <bool Cs>
  __device__ Two load(size_t i) const {
    return {ldv<Cs>(a, i), ldv<Cs>(b, i)};
  }
  template <bool Cs>
  __device__ void store(size_t, Two v) const {
    *sum += v.x.x * v.y.x + v.x.y * v.y.y;
  }
};

// Element u of a thread's group, and the step to its next group: a grid apart (grid-stride) or a
// block apart inside the block's tile (tiled).
template <int U, bool Tiled, bool Cs, typename Op>
__device__ __forceinline__ void stream_loop(const Op& op, size_t n2) {
  using Value = decltype(op.template load<Cs>(0));
  const size_t grid = size_t(gridDim.x) * blockDim.x;
  const size_t first = Tiled ? blockIdx.x * size_t(blockDim.x) * U + threadIdx.x
                             : blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  const size_t lane_step = Tiled ? blockDim.x : grid;  // between a thread's U elements
  const size_t group_step = U * grid;                  // between a thread's groups
  for (size_t base = first; base < n2; base += group_step) {
    Value v[U];
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (base + u * lane_step < n2) v[u] = op.template load<Cs>(base + u * lane_step);
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (base + u * lane_step < n2) op.template store<Cs>(base + u * lane_step, v[u]);
  }
}

template <int U, bool Tiled, bool Cs, typename Op>
__global__ void stream_kernel(Op op, size_t n2) {
  stream_loop<U, Tiled, Cs>(op, n2);
}

template <int U, bool Tiled, bool Cs>
__global__ void dot_kernel(const double2* __restrict__ a, const double2* __restrict__ b,
                           double* __restrict__ partials, size_t n2) {
  __shared__ double sums[kThreads];
  double sum = 0;
  stream_loop<U, Tiled, Cs>(DotOp{a, b, &sum}, n2);
  sums[threadIdx.x] = sum;
  for (int offset = kThreads / 2; offset > 0; offset /= 2) {
    __syncthreads();
    if (threadIdx.x < offset) sums[threadIdx.x] += sums[threadIdx.x + offset];
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = sums[0];
}

template <int U, bool Tiled, bool Cs>
void launch_stream_variant(StreamKernel op, cudaStream_t stream, int blocks, double2* a, double2* b,
                           double2* c, double scalar, double fill_value, double* partials,
                           size_t n2) {
  switch (op) {
    case StreamKernel::copy:
      stream_kernel<U, Tiled, Cs><<<blocks, kThreads, 0, stream>>>(CopyOp{a, c}, n2);
      break;
    case StreamKernel::mul:
      stream_kernel<U, Tiled, Cs><<<blocks, kThreads, 0, stream>>>(MulOp{b, c, scalar}, n2);
      break;
    case StreamKernel::add:
      stream_kernel<U, Tiled, Cs><<<blocks, kThreads, 0, stream>>>(AddOp{a, b, c}, n2);
      break;
    case StreamKernel::triad:
      stream_kernel<U, Tiled, Cs><<<blocks, kThreads, 0, stream>>>(TriadOp{a, b, c, scalar}, n2);
      break;
    case StreamKernel::dot:
      dot_kernel<U, Tiled, Cs><<<blocks, kThreads, 0, stream>>>(a, b, partials, n2);
      break;
    case StreamKernel::fill:
      stream_kernel<U, Tiled, Cs><<<blocks, kThreads, 0, stream>>>(FillOp{a, fill_value}, n2);
      break;
  }
}

// GEMM inputs: uniform in [-1, 1) from a hash of (seed, index), rounded to the element type
// (round to nearest even), so every mantissa bit toggles as in real data (tensor-core power,
// hence clocks, depend on it). int8: uniform integers in [-int8_range, int8_range].
__device__ unsigned long long mix64(unsigned long long x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

__global__ void fill_uniform_kernel(FillType type, unsigned long long seed, size_t count, void* out,
                                    int int8_range) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count; i += stride) {
    const unsigned long long h = mix64(seed * 0x100000001B3ULL + i);
    // 24 random bits scaled to [-1, 1): exact in float.
    const float u = static_cast<float>(h >> 40) * 0x1p-23f - 1.0f;
    switch (type) {
      case FillType::f64:
        static_cast<double*>(out)[i] = static_cast<double>(h >> 11) * 0x1p-52 - 1.0;
        break;
      case FillType::f32:
        static_cast<float*>(out)[i] = u;
        break;
      case FillType::f16:
        static_cast<__half*>(out)[i] = __float2half_rn(u);
        break;
      case FillType::bf16:
        static_cast<__nv_bfloat16*>(out)[i] = __float2bfloat16_rn(u);
        break;
      case FillType::fp8_e4m3:
        static_cast<__nv_fp8_storage_t*>(out)[i] =
            __nv_cvt_float_to_fp8(u, __NV_SATFINITE, __NV_E4M3);
        break;
      case FillType::int8:
        static_cast<signed char*>(out)[i] = static_cast<signed char>(
            static_cast<int>((h >> 32) % static_cast<unsigned>(2 * int8_range + 1)) - int8_range);
        break;
    }
  }
}

// Evicts the L2 by reading a buffer larger than it: the lines left behind are clean, so nothing
// is written back during the timed operation that follows (a memset would leave dirty lines).
__global__ void l2_flush_read_kernel(const uint4* __restrict__ buf, size_t n16, int* sink) {
  unsigned acc = 0;
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n16; i += stride) {
    const uint4 v = buf[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x9E3779B9u) *sink = 1;  // keeps the loads; practically never taken
}

__global__ void sm_copy_kernel(const uint4* __restrict__ src, uint4* __restrict__ dst, size_t n16) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n16;
       i += size_t(gridDim.x) * blockDim.x)
    dst[i] = src[i];
}

}  // namespace

void launch_spin(cudaStream_t stream, const volatile int* flag, int* timed_out,
                 unsigned long long timeout_ns) {
  spin_kernel<<<1, 1, 0, stream>>>(flag, timed_out, timeout_ns);
  GPUSIZER_CUDA_CHECK_LAUNCH();
}

int stream_grid_blocks(int device) {
  int sms = 0, per_sm = 0;
  GPUSIZER_CUDA_CALL(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  GPUSIZER_CUDA_CALL(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_sm, stream_kernel<1, false, false, TriadOp>, kThreads, 0));
  return sms * (per_sm > 0 ? per_sm : 1);
}

const std::vector<StreamVariant>& stream_variants() {
  // name, unroll, tiled, streaming hints, grid denominator, tma
  static const std::vector<StreamVariant> v{
      {"grid-stride x1", 1, false, false, 1, false},
      {"grid-stride x4", 4, false, false, 1, false},
      {"grid-stride x1 .cs", 1, false, true, 1, false},
      {"tiled x4 .cs", 4, true, true, 1, false},
      {"tiled x8 .cs", 8, true, true, 1, false},
      {"tma 16 KiB tiles, 2 stages", 1, true, false, 1, true},
  };
  return v;
}

bool stream_variant_applies(const StreamVariant& v, StreamKernel op, int cc_major) {
  if (!v.tma) return true;
  // GPUSIZER_NO_TMA=1 leaves the bulk-copy variants out (a diagnostic switch, for a driver or
  // GPU where that path misbehaves; scripts/gpu-check.sh sets it when its smoke test fails).
  if (const char* off = std::getenv("GPUSIZER_NO_TMA"); off != nullptr && off[0] == '1')
    return false;
  return cc_major >= 9 && op != StreamKernel::dot && op != StreamKernel::fill;
}

int stream_variant_blocks(int device, const StreamVariant& v) {
  if (v.tma) return tma_stream_blocks(device);
  return std::max(1, stream_grid_blocks(device) / std::max(1, v.grid_denominator));
}

void launch_stream(StreamKernel op, cudaStream_t stream, int blocks, const StreamVariant& v,
                   double* a, double* b, double* c, double scalar, double fill_value,
                   double* partials, std::size_t n) {
  const size_t n2 = n / 2;
  auto* a2 = reinterpret_cast<double2*>(a);
  auto* b2 = reinterpret_cast<double2*>(b);
  auto* c2 = reinterpret_cast<double2*>(c);
  auto go = [&](auto launcher) {
    launcher(op, stream, blocks, a2, b2, c2, scalar, fill_value, partials, n2);
  };
  if (v.tma) {
    if (!launch_stream_tma(op, stream, blocks, a2, b2, c2, scalar, n2))
      throw RuntimeError("launch_stream: variant " + v.name + " has no kernel for this operation");
  } else if (v.unroll == 1 && !v.tiled && !v.streaming) {
    go(launch_stream_variant<1, false, false>);
  } else if (v.unroll == 4 && !v.tiled && !v.streaming) {
    go(launch_stream_variant<4, false, false>);
  } else if (v.unroll == 1 && !v.tiled && v.streaming) {
    go(launch_stream_variant<1, false, true>);
  } else if (v.unroll == 4 && v.tiled && v.streaming) {
    go(launch_stream_variant<4, true, true>);
  } else if (v.unroll == 8 && v.tiled && v.streaming) {
    go(launch_stream_variant<8, true, true>);
  } else {
    throw RuntimeError("launch_stream: no kernel built for variant " + v.name);
  }
  GPUSIZER_CUDA_CHECK_LAUNCH();
}

void launch_fill_uniform(cudaStream_t stream, FillType type, std::uint64_t seed, std::size_t count,
                         void* out, int int8_range) {
  if (count == 0) return;
  int device = 0, sms = 0;
  GPUSIZER_CUDA_CALL(cudaGetDevice(&device));
  GPUSIZER_CUDA_CALL(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const size_t wanted = (count + kThreads - 1) / kThreads;
  const int blocks = static_cast<int>(std::min<size_t>(wanted, size_t(sms) * 8));
  fill_uniform_kernel<<<blocks, kThreads, 0, stream>>>(type, seed, count, out, int8_range);
  GPUSIZER_CUDA_CHECK_LAUNCH();
}

void launch_l2_flush_read(cudaStream_t stream, int blocks, const void* buffer, std::size_t bytes,
                          int* sink) {
  l2_flush_read_kernel<<<blocks, kThreads, 0, stream>>>(static_cast<const uint4*>(buffer),
                                                        bytes / 16, sink);
  GPUSIZER_CUDA_CHECK_LAUNCH();
}

void launch_sm_copy(cudaStream_t stream, int blocks, void* dst, const void* src,
                    std::size_t bytes) {
  sm_copy_kernel<<<blocks, kThreads, 0, stream>>>(static_cast<const uint4*>(src),
                                                  static_cast<uint4*>(dst), bytes / 16);
  GPUSIZER_CUDA_CHECK_LAUNCH();
}

}  // namespace gpusizer::kernels::cuda
