// NCCL collectives between MPI ranks: the groups planned by nccl_groups.hpp (world, per node, a
// ring of one GPU per node) are formed with ncclCommInitRankConfig from a unique id that the
// group's root makes and broadcasts over MPI (kernels/nccl_ranks.hpp), measured in lock-step on
// every rank (lockstep.hpp: the slowest rank's CUDA-event time), and verified exactly on every
// member (wrong elements summed over ranks, nccl-tests' #wrong). Rank 0 records them; their ids
// carry "/backend=nccl/group=<kind>/".
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "gpusizer/bench/nccl_groups.hpp"
#include "gpusizer/bench/record_builder.hpp"
#include "gpusizer/kernels/nccl_ranks.hpp"
#include "gpusizer/report.hpp"
#include "mpi_world.hpp"

namespace gpusizer::bench::mpi {

// NCCL's log of this rank goes to a file of its own (NCCL_DEBUG=INFO, NCCL_DEBUG_SUBSYS=INIT,NET,
// NCCL_DEBUG_FILE), unless the user set NCCL_DEBUG or NCCL_DEBUG_FILE already (then their
// choice stands and the network is not read). Call before the first NCCL call of the process.
// Returns the file, or "" when the user's settings were kept.
std::filesystem::path route_nccl_log(int rank);

// Every rank's GPUs (its report's "gpu" targets: local id and CUDA ordinal), known to every rank.
std::vector<RankGpus> gather_rank_gpus(World& world, const Report& mine);

// What NCCL is and what steers it, per host (the first rank of each): rank 0 gets
// {"version", "hosts": [{"host", "network", "plugin", "provider", "evidence", "environment"}]};
// the other ranks get null. `log_file`: route_nccl_log's answer.
nlohmann::json gather_nccl_facts(World& world, const std::filesystem::path& log_file);

// One planned group on this rank (members and non-members alike: every step is collective).
class NcclGroupRun {
 public:
  // The root's ncclGetUniqueId is broadcast; members join with `timeout_seconds` to set up; all
  // ranks then agree whether every member did (failure(): why not; "" when it did).
  NcclGroupRun(World& world, const NcclGroupPlan& plan, double timeout_seconds);
  const std::string& failure() const { return failure_; }
  // One collective of S = `bytes` over the group (a failed set-up or an earlier failure: skipped
  // with the reason).
  CaseOutcome measure(kernels::Collective op, std::size_t bytes, const SamplingPolicy& policy,
                      const std::string& network);

 private:
  World& world_;
  const NcclGroupPlan& plan_;
  std::vector<NcclMember> mine_;
  std::unique_ptr<kernels::RankGroup> group_;
  std::string failure_;
};

}  // namespace gpusizer::bench::mpi
