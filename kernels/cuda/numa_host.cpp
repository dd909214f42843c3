#include "numa_host.hpp"

#include <cuda_runtime.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>
#include <vector>

#include "cuda_check.hpp"

namespace gpusizer::kernels::cuda {
namespace {
constexpr int kMpolBind = 2;               // MPOL_BIND from <linux/mempolicy.h>
constexpr unsigned kMpolMfMove = 1u << 1;  // MPOL_MF_MOVE
}  // namespace

NumaPinnedBuffer::NumaPinnedBuffer(std::size_t bytes, int numa_node) : bytes_(bytes) {
  if (numa_node >= 0) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) {
      std::vector<unsigned long> mask(
          static_cast<std::size_t>(numa_node) / (8 * sizeof(unsigned long)) + 1, 0);
      mask[static_cast<std::size_t>(numa_node) / (8 * sizeof(unsigned long))] |=
          1UL << (static_cast<unsigned>(numa_node) % (8 * sizeof(unsigned long)));
      const long rc = syscall(SYS_mbind, p, bytes, kMpolBind, mask.data(),
                              mask.size() * 8 * sizeof(unsigned long) + 1, kMpolMfMove);
      if (rc == 0) {
        std::memset(p, 0, bytes);  // first touch on the bound node
        if (cudaHostRegister(p, bytes, cudaHostRegisterPortable) == cudaSuccess) {
          p_ = p;
          mapped_ = true;
          placement_ = "numa node " + std::to_string(numa_node) + " (mbind + cudaHostRegister)";
          return;
        }
        cudaGetLastError();
        placement_ = "cudaHostAlloc (cudaHostRegister refused the NUMA-bound region)";
      } else {
        placement_ = std::string("cudaHostAlloc (mbind failed: ") + std::strerror(errno) + ")";
      }
      munmap(p, bytes);
    }
  } else {
    placement_ = "cudaHostAlloc (GPU NUMA node unknown)";
  }
  GPUSIZER_CUDA_CALL(cudaHostAlloc(&p_, bytes, cudaHostAllocPortable));
}

void NumaPinnedBuffer::release() noexcept {
  if (!p_) return;
  if (mapped_) {
    GPUSIZER_CUDA_CALL_NOTHROW(cudaHostUnregister(p_));
    munmap(p_, bytes_);
  } else {
    GPUSIZER_CUDA_CALL_NOTHROW(cudaFreeHost(p_));
  }
  p_ = nullptr;
}

NumaPinnedBuffer::~NumaPinnedBuffer() {
  release();
}

NumaPinnedBuffer::NumaPinnedBuffer(NumaPinnedBuffer&& o) noexcept
    : p_(std::exchange(o.p_, nullptr)),
      bytes_(o.bytes_),
      mapped_(o.mapped_),
      placement_(std::move(o.placement_)) {}

NumaPinnedBuffer& NumaPinnedBuffer::operator=(NumaPinnedBuffer&& o) noexcept {
  if (this != &o) {
    release();
    p_ = std::exchange(o.p_, nullptr);
    bytes_ = o.bytes_;
    mapped_ = o.mapped_;
    placement_ = std::move(o.placement_);
  }
  return *this;
}

}  // namespace gpusizer::kernels::cuda
