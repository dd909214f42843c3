#include "gpu_timer.hpp"

#include <algorithm>

namespace gpusizer::kernels::cuda {

GpuTimer::GpuTimer(int device, std::size_t l2_flush_bytes)
    : device_(device), stream_(Stream::create()), hot_(EventPair::create()) {
  for (std::size_t i = 0; i < kQueuedBeforeRelease; ++i)
    cold_events_.push_back(EventPair::create());
  flags_ = PinnedBuffer::allocate(3 * sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable);
  flags_.as<int>()[0] = 1;
  flags_.as<int>()[1] = 0;
  flags_.as<int>()[2] = 0;
  void* dev = nullptr;
  GPUSIZER_CUDA_CALL(cudaHostGetDevicePointer(&dev, flags_.get(), 0));
  device_flags_ = static_cast<int*>(dev);
  if (l2_flush_bytes > 0) {
    l2_flush_ = DeviceBuffer(l2_flush_bytes & ~std::size_t{15});
    GPUSIZER_CUDA_CALL(cudaMemset(l2_flush_.get(), 0x5a, l2_flush_.bytes()));
    int sms = 0;
    GPUSIZER_CUDA_CALL(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    flush_blocks_ = 8 * std::max(sms, 1);
    GPUSIZER_CUDA_CALL(cudaDeviceSynchronize());
    // Load the flush kernel's module now too (lazy loading would stall the first cold sample).
    launch_l2_flush_read(stream(), flush_blocks_, l2_flush_.get(), l2_flush_.bytes(),
                         device_flags_ + 2);
  }
  // Load the spin kernel's module now, so the first sample does not pay for it (nvbench #339).
  arm(true);
  release();
  GPUSIZER_CUDA_CALL(cudaStreamSynchronize(stream()));
}

GpuTimer::~GpuTimer() {
  if (flags_.get() == nullptr || !stream_) return;
  release();
  GPUSIZER_CUDA_CALL_NOTHROW(cudaStreamSynchronize(stream()));
}

void GpuTimer::arm(bool use_blocker) {
  auto* host = static_cast<volatile int*>(flags_.as<int>());
  host[0] = use_blocker ? 0 : 1;
  host[1] = 0;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  armed_ = use_blocker;
  if (use_blocker) launch_spin(stream(), device_flags_, device_flags_ + 1, kSpinTimeoutNs);
}

void GpuTimer::release() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  static_cast<volatile int*>(flags_.as<int>())[0] = 1;
}

void GpuTimer::check_blocker() {
  GPUSIZER_CUDA_CALL(cudaStreamSynchronize(stream()));
  if (armed_ && static_cast<volatile int*>(flags_.as<int>())[1] != 0)
    throw RuntimeError(
        "spin kernel timed out before the host released it; this sample's timing is invalid");
  armed_ = false;
}

double join_streams_elapsed(int device, cudaStream_t first, cudaEvent_t start, cudaEvent_t end,
                            const std::vector<cudaEvent_t>& other_ends) {
  DeviceScope s(device);
  for (cudaEvent_t e : other_ends) GPUSIZER_CUDA_CALL(cudaStreamWaitEvent(first, e, 0));
  GPUSIZER_CUDA_CALL(cudaEventRecord(end, first));
  GPUSIZER_CUDA_CALL(cudaEventSynchronize(end));
  float ms = 0;
  GPUSIZER_CUDA_CALL(cudaEventElapsedTime(&ms, start, end));
  return static_cast<double>(ms) * 1e-3;
}

}  // namespace gpusizer::kernels::cuda
