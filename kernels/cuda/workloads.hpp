// Factories of the CUDA workloads, one file each. Internal header.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "device_info.hpp"
#include "gpusizer/kernels/collectives.hpp"
#include "gpusizer/kernels/multi_gpu.hpp"

namespace gpusizer::kernels::cuda {

std::unique_ptr<Workload> make_gemm_workload(const DeviceFacts& d, const GemmCase& c);
std::unique_ptr<Workload> make_copy_workload(const DeviceFacts& d, const CopyCase& c);
std::unique_ptr<Workload> make_stream_workload(const DeviceFacts& d, const StreamCase& c);
std::unique_ptr<Workload> make_io_workload(const DeviceFacts& d, const IoCase& c);

// Multi-GPU (null + reason when fewer than 2 devices).
std::unique_ptr<MultiGpu> make_multi_gpu(const std::vector<DeviceFacts>& devices,
                                         std::string& reason);
std::unique_ptr<CollectiveGroup> make_nccl_group(const std::vector<DeviceFacts>& devices,
                                                 std::string& reason);

// The verdict of a byte-pattern check: passed when no byte differs from the expected pattern.
inline Verification pattern_result(std::size_t wrong_bytes, std::string method) {
  Verification v;
  v.method = std::move(method);
  v.status = wrong_bytes == 0 ? VerificationStatus::passed : VerificationStatus::failed;
  v.detail = std::to_string(wrong_bytes) + " wrong bytes";
  return v;
}

// Lets GPU tests plant a corruption in a workload's output after a run (verify() must then fail).
class CorruptibleOutput {
 public:
  virtual ~CorruptibleOutput() = default;
  virtual void corrupt_output_for_test() = 0;
};

}  // namespace gpusizer::kernels::cuda
