// The project's own kernels: the launch-hiding spin kernel, STREAM kernels, SM copies.
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

__global__ void copy_kernel(const double2* __restrict__ a, double2* __restrict__ c, size_t n2) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n2;
       i += size_t(gridDim.x) * blockDim.x)
    c[i] = a[i];
}

__global__ void mul_kernel(double2* __restrict__ b, const double2* __restrict__ c, double s,
                           size_t n2) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n2;
       i += size_t(gridDim.x) * blockDim.x) {
    const double2 v = c[i];
    b[i] = make_double2(s * v.x, s * v.y);
  }
}

__global__ void add_kernel(const double2* __restrict__ a, const double2* __restrict__ b,
                           double2* __restrict__ c, size_t n2) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n2;
       i += size_t(gridDim.x) * blockDim.x) {
    const double2 x = a[i], y = b[i];
    c[i] = make_double2(x.x + y.x, x.y + y.y);
  }
}

__global__ void triad_kernel(double2* __restrict__ a, const double2* __restrict__ b,
                             const double2* __restrict__ c, double s, size_t n2) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n2;
       i += size_t(gridDim.x) * blockDim.x) {
    const double2 x = b[i], y = c[i];
    a[i] = make_double2(x.x + s * y.x, x.y + s * y.y);
  }
}

__global__ void fill_kernel(double2* __restrict__ a, double value, size_t n2) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n2;
       i += size_t(gridDim.x) * blockDim.x)
    a[i] = make_double2(value, value);
}

__global__ void dot_kernel(const double2* __restrict__ a, const double2* __restrict__ b,
                           double* __restrict__ partials, size_t n2) {
  __shared__ double sums[kThreads];
  double sum = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n2;
       i += size_t(gridDim.x) * blockDim.x) {
    const double2 x = a[i], y = b[i];
    sum += x.x * y.x + x.y * y.y;
  }
  sums[threadIdx.x] = sum;
  for (int offset = kThreads / 2; offset > 0; offset /= 2) {
    __syncthreads();
    if (threadIdx.x < offset) sums[threadIdx.x] += sums[threadIdx.x + offset];
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = sums[0];
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
  GPUSIZER_CUDA_CALL(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, triad_kernel, kThreads, 0));
  return sms * (per_sm > 0 ? per_sm : 1);
}

void launch_stream(StreamKernel op, cudaStream_t stream, int blocks, double* a, double* b,
                   double* c, double scalar, double fill_value, double* partials, std::size_t n) {
  const size_t n2 = n / 2;
  auto* a2 = reinterpret_cast<double2*>(a);
  auto* b2 = reinterpret_cast<double2*>(b);
  auto* c2 = reinterpret_cast<double2*>(c);
  switch (op) {
    case StreamKernel::copy:
      copy_kernel<<<blocks, kThreads, 0, stream>>>(a2, c2, n2);
      break;
    case StreamKernel::mul:
      mul_kernel<<<blocks, kThreads, 0, stream>>>(b2, c2, scalar, n2);
      break;
    case StreamKernel::add:
      add_kernel<<<blocks, kThreads, 0, stream>>>(a2, b2, c2, n2);
      break;
    case StreamKernel::triad:
      triad_kernel<<<blocks, kThreads, 0, stream>>>(a2, b2, c2, scalar, n2);
      break;
    case StreamKernel::dot:
      dot_kernel<<<blocks, kThreads, 0, stream>>>(a2, b2, partials, n2);
      break;
    case StreamKernel::fill:
      fill_kernel<<<blocks, kThreads, 0, stream>>>(a2, fill_value, n2);
      break;
  }
  GPUSIZER_CUDA_CHECK_LAUNCH();
}

void launch_sm_copy(cudaStream_t stream, int blocks, void* dst, const void* src,
                    std::size_t bytes) {
  sm_copy_kernel<<<blocks, kThreads, 0, stream>>>(static_cast<const uint4*>(src),
                                                  static_cast<uint4*>(dst), bytes / 16);
  GPUSIZER_CUDA_CHECK_LAUNCH();
}

}  // namespace gpusizer::kernels::cuda
