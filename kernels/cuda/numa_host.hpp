// Pinned host memory placed on a given NUMA node (the GPU's, from sysfs): mmap, mbind to the
// node, first touch, then cudaHostRegister. Falls back to plain cudaHostAlloc when the node is
// unknown or mbind is refused; placement() says which happened. Internal header.
#pragma once

#include <cstddef>
#include <string>

namespace gpusizer::kernels::cuda {

class NumaPinnedBuffer {
 public:
  NumaPinnedBuffer() = default;
  NumaPinnedBuffer(std::size_t bytes, int numa_node);
  ~NumaPinnedBuffer();
  NumaPinnedBuffer(NumaPinnedBuffer&& o) noexcept;
  NumaPinnedBuffer& operator=(NumaPinnedBuffer&& o) noexcept;
  NumaPinnedBuffer(const NumaPinnedBuffer&) = delete;
  NumaPinnedBuffer& operator=(const NumaPinnedBuffer&) = delete;

  void* get() const { return p_; }
  std::size_t bytes() const { return bytes_; }
  // "numa node N (mbind)" | "cudaHostAlloc (NUMA node unknown)" | "cudaHostAlloc (mbind failed: …)"
  const std::string& placement() const { return placement_; }

 private:
  void release() noexcept;
  void* p_ = nullptr;
  std::size_t bytes_ = 0;
  bool mapped_ = false;  // true: mmap + cudaHostRegister; false: cudaHostAlloc
  std::string placement_;
};

}  // namespace gpusizer::kernels::cuda
