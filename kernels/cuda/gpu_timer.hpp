// Times device work with CUDA events on a dedicated non-blocking stream. Launch overhead is hidden
// behind a spin kernel that the host releases once the first operations are queued (nvbench's
// blocking kernel, nvbandwidth's spin kernel; it gives up after a timeout, so it never hangs).
//   hot : one event pair around `repeats` back-to-back operations.
//   cold: before each operation the L2 is flushed (a kernel reads a buffer allocated once, twice
//         the L2's size: the lines it leaves are clean, so no write-back of dirty lines lands in
//         the timed operation, as it would after a memset) and only the operation sits between
//         its own event pair.
// Nothing is allocated while timing: the events and buffers are created with the timer.
// The first timed call of a timer never uses the spin kernel: with lazy module loading (the
// default since CUDA 12.2), the first launch of a kernel (ours, cuBLASLt's, a memset's) may wait
// for the device to drain, which would deadlock behind a held stream (nvbench #136, #240).
#pragma once

#include <atomic>
#include <cstddef>
#include <vector>

#include "device_kernels.hpp"
#include "raii.hpp"

namespace gpusizer::kernels::cuda {

// Work spread over several streams (several GPUs): each other stream has recorded its end event;
// on `device`, `first` waits for them all, records `end`, and the seconds from `start` (recorded
// on `first` before any stream began) to `end` are the time of the whole.
double join_streams_elapsed(int device, cudaStream_t first, cudaEvent_t start, cudaEvent_t end,
                            const std::vector<cudaEvent_t>& other_ends);

class GpuTimer {
 public:
  // The device must be current. l2_flush_bytes = 0 disables cold timing; callers pass at least
  // 2 x the L2 size.
  GpuTimer(int device, std::size_t l2_flush_bytes);
  // Releases a still-armed spin kernel and waits for the stream, so nothing the spin kernel reads
  // is freed under it (after an exception while timing, say).
  ~GpuTimer();
  GpuTimer(const GpuTimer&) = delete;
  GpuTimer& operator=(const GpuTimer&) = delete;

  cudaStream_t stream() const { return stream_.get(); }
  int device() const { return device_; }

  template <typename Op>
  double time_hot(std::size_t repeats, Op&& op, bool use_blocker = true) {
    ReleaseOnExit guard(*this);
    arm(use_blocker && warmed_);
    warmed_ = true;
    GPUSIZER_CUDA_CALL(cudaEventRecord(hot_.start(), stream()));
    for (std::size_t i = 0; i < repeats; ++i) {
      op(stream());
      if (i + 1 == kQueuedBeforeRelease) release();
    }
    GPUSIZER_CUDA_CALL(cudaEventRecord(hot_.stop(), stream()));
    release();
    const double seconds = hot_.elapsed_seconds();
    check_blocker();
    return seconds;
  }

  template <typename Op>
  double time_cold(std::size_t repeats, Op&& op) {
    if (l2_flush_.get() == nullptr)
      throw RuntimeError("GpuTimer: cold timing needs an L2 flush buffer");
    ReleaseOnExit guard(*this);
    double total = 0;
    for (std::size_t done = 0; done < repeats;) {
      const std::size_t chunk = std::min(repeats - done, cold_events_.size());
      arm(warmed_);
      warmed_ = true;
      for (std::size_t j = 0; j < chunk; ++j) {
        launch_l2_flush_read(stream(), flush_blocks_, l2_flush_.get(), l2_flush_.bytes(),
                             device_flags_ + 2);
        GPUSIZER_CUDA_CALL(cudaEventRecord(cold_events_[j].start(), stream()));
        op(stream());
        GPUSIZER_CUDA_CALL(cudaEventRecord(cold_events_[j].stop(), stream()));
      }
      release();
      for (std::size_t j = 0; j < chunk; ++j) total += cold_events_[j].elapsed_seconds();
      check_blocker();
      done += chunk;
    }
    return total;
  }

 private:
  static constexpr std::size_t kQueuedBeforeRelease = 32;
  static constexpr unsigned long long kSpinTimeoutNs = 10'000'000'000ULL;  // 10 s

  // Lets the spin kernel go if a timed call leaves by an exception (else it holds the stream until
  // its timeout).
  class ReleaseOnExit {
   public:
    explicit ReleaseOnExit(GpuTimer& t) : t_(t) {}
    ~ReleaseOnExit() { t_.release(); }
    ReleaseOnExit(const ReleaseOnExit&) = delete;
    ReleaseOnExit& operator=(const ReleaseOnExit&) = delete;

   private:
    GpuTimer& t_;
  };

  void arm(bool use_blocker);
  void release();
  void check_blocker();

  int device_;
  Stream stream_;
  EventPair hot_;
  std::vector<EventPair> cold_events_;
  PinnedBuffer flags_;  // [0] release flag, [1] timed-out flag, [2] flush sink; host-mapped
  int* device_flags_ = nullptr;
  bool armed_ = false;
  bool warmed_ = false;  // false until the first timed call (which runs without the spin kernel)
  DeviceBuffer l2_flush_;
  int flush_blocks_ = 0;
};

}  // namespace gpusizer::kernels::cuda
