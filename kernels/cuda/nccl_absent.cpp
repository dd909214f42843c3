// Built when NCCL is not found at configure time: collectives are unavailable, with the reason.
#include "workloads.hpp"

namespace gpusizer::kernels::cuda {

std::unique_ptr<CollectiveGroup> make_nccl_group(const std::vector<DeviceFacts>&,
                                                 std::string& reason) {
  reason = "this gpusizer was built without NCCL (nccl.h / libnccl not found at configure time)";
  return nullptr;
}

}  // namespace gpusizer::kernels::cuda
