// Move-only owners of CUDA resources. Constructors throw CudaError; destructors never throw.
// Internal to kernels/cuda (public headers stay free of CUDA types).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "cuda_check.hpp"

namespace gpusizer::kernels::cuda {

// Sets the current device for a scope and restores the previous one.
class DeviceScope {
 public:
  explicit DeviceScope(int device) {
    GPUSIZER_CUDA_CALL(cudaGetDevice(&previous_));
    GPUSIZER_CUDA_CALL(cudaSetDevice(device));
  }
  ~DeviceScope() { GPUSIZER_CUDA_CALL_NOTHROW(cudaSetDevice(previous_)); }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int previous_ = 0;
};

// Generic move-only handle: T is the raw handle type, Destroy a callable returning cudaError_t.
template <typename T, cudaError_t (*Destroy)(T)>
class Handle {
 public:
  Handle() = default;
  explicit Handle(T h) : h_(h) {}
  ~Handle() { reset(); }
  Handle(Handle&& o) noexcept : h_(std::exchange(o.h_, T{})) {}
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, T{});
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  T get() const { return h_; }
  explicit operator bool() const { return h_ != T{}; }
  void reset() {
    if (h_ != T{}) GPUSIZER_CUDA_CALL_NOTHROW(Destroy(h_));
    h_ = T{};
  }

 private:
  T h_{};
};

// A non-blocking stream on the current device (never the legacy default stream).
class Stream : public Handle<cudaStream_t, cudaStreamDestroy> {
 public:
  Stream() = default;
  static Stream create() {
    cudaStream_t s = nullptr;
    GPUSIZER_CUDA_CALL(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    return Stream(s);
  }

 private:
  explicit Stream(cudaStream_t s) : Handle(s) {}
};

class Event : public Handle<cudaEvent_t, cudaEventDestroy> {
 public:
  Event() = default;
  static Event create(bool timing = true) {
    cudaEvent_t e = nullptr;
    GPUSIZER_CUDA_CALL(
        cudaEventCreateWithFlags(&e, timing ? cudaEventDefault : cudaEventDisableTiming));
    return Event(e);
  }

 private:
  explicit Event(cudaEvent_t e) : Handle(e) {}
};

// Two timing events; elapsed_seconds() after the stop event completed.
class EventPair {
 public:
  EventPair() = default;
  static EventPair create() {
    EventPair p;
    p.start_ = Event::create();
    p.stop_ = Event::create();
    return p;
  }
  cudaEvent_t start() const { return start_.get(); }
  cudaEvent_t stop() const { return stop_.get(); }
  double elapsed_seconds() const {
    float ms = 0;
    GPUSIZER_CUDA_CALL(cudaEventSynchronize(stop_.get()));
    GPUSIZER_CUDA_CALL(cudaEventElapsedTime(&ms, start_.get(), stop_.get()));
    return static_cast<double>(ms) * 1e-3;
  }

 private:
  Event start_, stop_;
};

// Owns `bytes` of memory at a pointer released with Free (cudaFree, cudaFreeHost); move-only.
template <cudaError_t (*Free)(void*)>
class OwnedMemory {
 public:
  OwnedMemory() = default;
  ~OwnedMemory() {
    if (p_) GPUSIZER_CUDA_CALL_NOTHROW(Free(p_));
  }
  OwnedMemory(OwnedMemory&& o) noexcept
      : p_(std::exchange(o.p_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
  OwnedMemory& operator=(OwnedMemory&& o) noexcept {
    if (this != &o) {
      if (p_) GPUSIZER_CUDA_CALL_NOTHROW(Free(p_));
      p_ = std::exchange(o.p_, nullptr);
      bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
  }
  OwnedMemory(const OwnedMemory&) = delete;
  OwnedMemory& operator=(const OwnedMemory&) = delete;
  void* get() const { return p_; }
  template <typename T>
  T* as() const {
    return static_cast<T*>(p_);
  }
  std::size_t bytes() const { return bytes_; }

 protected:
  OwnedMemory(void* p, std::size_t bytes) : p_(p), bytes_(bytes) {}

 private:
  void* p_ = nullptr;
  std::size_t bytes_ = 0;
};

// Device memory on the current device.
class DeviceBuffer : public OwnedMemory<cudaFree> {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes) : OwnedMemory(allocate(bytes), bytes) {}

 private:
  static void* allocate(std::size_t bytes) {
    void* p = nullptr;
    if (bytes > 0) GPUSIZER_CUDA_CALL(cudaMalloc(&p, bytes));
    return p;
  }
};

// Page-locked host memory from cudaHostAlloc (portable, optionally mapped). NUMA-bound memory
// registered with cudaHostRegister is NumaPinnedBuffer (numa_host.hpp).
class PinnedBuffer : public OwnedMemory<cudaFreeHost> {
 public:
  PinnedBuffer() = default;
  static PinnedBuffer allocate(std::size_t bytes, unsigned flags = cudaHostAllocPortable) {
    void* p = nullptr;
    GPUSIZER_CUDA_CALL(cudaHostAlloc(&p, bytes, flags));
    return PinnedBuffer(p, bytes);
  }

 private:
  PinnedBuffer(void* p, std::size_t bytes) : OwnedMemory(p, bytes) {}
};

}  // namespace gpusizer::kernels::cuda
