// Built when NCCL is not found at configure time: collectives are unavailable, with the reason.
#include "gpusizer/kernels/nccl_ranks.hpp"
#include "workloads.hpp"

namespace gpusizer::kernels {
namespace {
constexpr const char* kNoNccl =
    "this gpusizer was built without NCCL (nccl.h / libnccl not found at configure time)";
}  // namespace

namespace cuda {
std::unique_ptr<CollectiveGroup> make_nccl_group(const std::vector<DeviceFacts>&,
                                                 std::string& reason) {
  reason = kNoNccl;
  return nullptr;
}
}  // namespace cuda

// Between MPI ranks, too (nccl_ranks.hpp).
std::string nccl_version() {
  throw Unsupported(kNoNccl);
}
NcclUniqueId nccl_unique_id() {
  throw Unsupported(kNoNccl);
}
std::unique_ptr<RankGroup> join_rank_group(const RankGroupSetup&) {
  throw Unsupported(kNoNccl);
}

}  // namespace gpusizer::kernels
