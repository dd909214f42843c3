// Work that spans several GPUs of one machine: the P2P copy matrix (copy engine and SM copies,
// read and write, nvbandwidth's patterns) and all GPUs copying to/from the host at once (the
// aggregate host link). Free of CUDA types; implemented by kernels/cuda.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "gpusizer/kernels/workload.hpp"

namespace gpusizer::kernels {

enum class P2pMethod { copy_engine, sm };
enum class P2pDirection {
  read,
  write
};                                      // read: the destination GPU pulls; write: the source pushes
std::string to_string(P2pMethod m);     // "ce" | "sm"
std::string to_string(P2pDirection d);  // "read" | "write"

struct P2pCase {
  int src = 0, dst = 1;  // indices into MultiGpu::target_ids()
  P2pMethod method = P2pMethod::copy_engine;
  P2pDirection direction = P2pDirection::write;
  std::size_t bytes = 0;  // a copy of N bytes counts N
};

struct AllHostCase {
  bool to_device = true;  // true: host -> every GPU at once; false: every GPU -> host
  std::size_t bytes_per_gpu = 0;
};

class MultiGpu {
 public:
  virtual ~MultiGpu() = default;
  MultiGpu() = default;
  MultiGpu(const MultiGpu&) = delete;
  MultiGpu& operator=(const MultiGpu&) = delete;

  virtual int gpu_count() const = 0;
  virtual std::vector<std::string> target_ids() const = 0;
  // "" when src can copy to/from dst directly, else the reason (no peer access...).
  virtual std::string peer_unavailable_reason(int src, int dst) const = 0;
  virtual std::unique_ptr<Workload> p2p_copy(const P2pCase& c) = 0;
  virtual std::unique_ptr<Workload> all_to_host(const AllHostCase& c) = 0;
};

}  // namespace gpusizer::kernels
