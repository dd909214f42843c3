// STREAM kernels that move data with Hopper's bulk-copy engine (TMA, cp.async.bulk) instead of
// per-thread loads and stores: each block streams 16 KiB tiles of its inputs into shared memory
// (two stages, one mbarrier each, the next tile's loads in flight while this one is computed),
// computes the tile there and writes it back with one bulk store. Large contiguous transfers
// are what the copy engines issue; per-thread 16-byte accesses reached only ~92 % of a
// cudaMemcpy D2D on an H200. sm_90 and newer; on older GPUs the variant is not offered.
#include <cuda/barrier>

#include <algorithm>

#include "cuda_check.hpp"
#include "device_kernels.hpp"

namespace gpusizer::kernels::cuda {
// Outside the anonymous namespace: for GPUs before sm_90 the kernel body is compiled out, and
// nvcc would warn that these were never referenced.
namespace tma_detail {
// Elementwise tile functions: out = f(in0[i], in1[i]).
struct CopyF {
  __device__ double2 operator()(double2 x, double2) const { return x; }
};
struct MulF {
  double s;
  __device__ double2 operator()(double2 x, double2) const { return make_double2(s * x.x, s * x.y); }
};
struct AddF {
  __device__ double2 operator()(double2 x, double2 y) const {
    return make_double2(x.x + y.x, x.y + y.y);
  }
};
struct TriadF {
  double s;
  __device__ double2 operator()(double2 x, double2 y) const {
    return make_double2(x.x + s * y.x, x.y + s * y.y);
  }
};

}  // namespace tma_detail
namespace {
using namespace tma_detail;

constexpr int kTmaThreads = 256;
constexpr int kTileElems = 1024;  // double2 per tile: 16 KiB
constexpr std::size_t kTileBytes = kTileElems * sizeof(double2);

// Dynamic shared memory: [stage 0 inputs][stage 1 inputs][out 0][out 1], each kTileBytes.
template <int NIn>
constexpr std::size_t tma_smem_bytes() {
  return (2 * NIn + 2) * kTileBytes;
}

template <int NIn, typename F>
__global__ void __launch_bounds__(kTmaThreads)
    tma_stream_kernel(const double2* in0, const double2* in1, double2* out, F f, size_t n2) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  using barrier = ::cuda::barrier<::cuda::thread_scope_block>;
  namespace cde = ::cuda::device::experimental;
  extern __shared__ __align__(128) unsigned char smem[];
  auto in_tile = [&](int stage, int k) {
    return reinterpret_cast<double2*>(smem + (stage * NIn + k) * kTileBytes);
  };
  auto out_tile = [&](int stage) {
    return reinterpret_cast<double2*>(smem + (2 * NIn + stage) * kTileBytes);
  };
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ barrier bars[2];
  if (threadIdx.x == 0) {
    init(&bars[0], blockDim.x);
    init(&bars[1], blockDim.x);
    cde::fence_proxy_async_shared_cta();
  }
  __syncthreads();

  const size_t tiles = (n2 + kTileElems - 1) / kTileElems;
  auto tile_elems = [&](size_t t) {
    const size_t left = n2 - t * kTileElems;
    return static_cast<unsigned>(left < kTileElems ? left : kTileElems);
  };
  // Thread 0 issues a tile's loads and arrives with the bytes to expect; its token waits on the
  // barrier in the iteration that computes that tile.
  barrier::arrival_token tokens[2];
  auto issue = [&](size_t t, int stage) {
    const unsigned bytes = tile_elems(t) * sizeof(double2);
    cde::cp_async_bulk_global_to_shared(in_tile(stage, 0), in0 + t * kTileElems, bytes,
                                        bars[stage]);
    if constexpr (NIn == 2)
      cde::cp_async_bulk_global_to_shared(in_tile(stage, 1), in1 + t * kTileElems, bytes,
                                          bars[stage]);
    tokens[stage] = ::cuda::device::barrier_arrive_tx(bars[stage], 1, NIn * bytes);
  };

  size_t t = blockIdx.x;
  if (t < tiles && threadIdx.x == 0) issue(t, 0);
  for (int j = 0; t < tiles; t += gridDim.x, ++j) {
    const int stage = j & 1;
    if (threadIdx.x == 0) {
      // The bulk store that last read out_tile(stage) (two tiles ago) must be done reading.
      cde::cp_async_bulk_wait_group_read<1>();
      // Stage^1's buffers were last read while computing the previous tile, which every thread
      // finished before the __syncthreads that ended that iteration.
      if (t + gridDim.x < tiles) issue(t + gridDim.x, stage ^ 1);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      bars[stage].wait(std::move(tokens[stage]));
    } else {
      bars[stage].wait(bars[stage].arrive());
    }
    const unsigned count = tile_elems(t);
    const double2* x = in_tile(stage, 0);
    const double2* y = NIn == 2 ? in_tile(stage, 1) : x;
    double2* o = out_tile(stage);
    for (unsigned i = threadIdx.x; i < count; i += blockDim.x) o[i] = f(x[i], y[i]);
    cde::fence_proxy_async_shared_cta();  // make the tile visible to the bulk-copy engine
    __syncthreads();
    if (threadIdx.x == 0) {
      cde::cp_async_bulk_shared_to_global(out + t * kTileElems, o, count * sizeof(double2));
      cde::cp_async_bulk_commit_group();
    }
  }
  if (threadIdx.x == 0) ::cuda::ptx::cp_async_bulk_wait_group(::cuda::ptx::n32_t<0>{});
#else
  __trap();
#endif
}

template <int NIn, typename F>
void launch_tma(cudaStream_t stream, int blocks, const double2* in0, const double2* in1,
                double2* out, F f, size_t n2) {
  constexpr std::size_t smem = tma_smem_bytes<NIn>();
  // Per launch (a host call of about a microsecond, hidden behind the queued work): the
  // attribute belongs to the current device's context.
  GPUSIZER_CUDA_CALL(cudaFuncSetAttribute(tma_stream_kernel<NIn, F>,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(smem)));
  tma_stream_kernel<NIn, F><<<blocks, kTmaThreads, smem, stream>>>(in0, in1, out, f, n2);
}

}  // namespace

int tma_stream_blocks(int device) {
  int sms = 0;
  GPUSIZER_CUDA_CALL(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  int per_sm = 0;
  GPUSIZER_CUDA_CALL(cudaFuncSetAttribute(tma_stream_kernel<2, TriadF>,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(tma_smem_bytes<2>())));
  GPUSIZER_CUDA_CALL(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_sm, tma_stream_kernel<2, TriadF>, kTmaThreads, tma_smem_bytes<2>()));
  return sms * std::max(per_sm, 1);
}

bool launch_stream_tma(StreamKernel op, cudaStream_t stream, int blocks, double2* a, double2* b,
                       double2* c, double scalar, size_t n2) {
  switch (op) {
    case StreamKernel::copy:
      launch_tma<1>(stream, blocks, a, a, c, CopyF{}, n2);
      return true;
    case StreamKernel::mul:
      launch_tma<1>(stream, blocks, c, c, b, MulF{scalar}, n2);
      return true;
    case StreamKernel::add:
      launch_tma<2>(stream, blocks, a, b, c, AddF{}, n2);
      return true;
    case StreamKernel::triad:
      launch_tma<2>(stream, blocks, b, c, a, TriadF{scalar}, n2);
      return true;
    case StreamKernel::dot:
    case StreamKernel::fill:
      return false;
  }
  return false;
}

}  // namespace gpusizer::kernels::cuda
