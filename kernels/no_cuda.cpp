// Stand-in linked when the build has no CUDA compiler: the binary still runs, with 0 GPUs and
// the reason stated in the report.
#include "gpusizer/error.hpp"
#include "gpusizer/kernels/discovery.hpp"
#include "gpusizer/kernels/nccl_ranks.hpp"

namespace gpusizer::kernels {
namespace {
constexpr const char* kNoCuda = "this gpusizer was built without CUDA (no nvcc at configure time)";
}  // namespace

Discovery discover_cuda(const DiscoveryOptions&) {
  Discovery g;
  g.gpu_unavailable_reason = kNoCuda;
  g.collectives_unavailable_reason = g.gpu_unavailable_reason;
  g.multi_gpu_unavailable_reason = g.gpu_unavailable_reason;
  return g;
}

bool built_with_cuda() {
  return false;
}

// Between MPI ranks, too (nccl_ranks.hpp).
std::string nccl_version() {
  throw Unsupported(kNoCuda);
}
NcclUniqueId nccl_unique_id() {
  throw Unsupported(kNoCuda);
}
std::unique_ptr<RankGroup> join_rank_group(const RankGroupSetup&) {
  throw Unsupported(kNoCuda);
}

}  // namespace gpusizer::kernels
