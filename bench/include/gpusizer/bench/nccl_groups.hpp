// NCCL across MPI ranks, the pure part: which GPUs of which ranks form which communicator. Three
// kinds of group, so a fleet report shows intra-node and inter-node bandwidth apart:
//   world : every GPU of every rank (nccl-tests run over the whole job);
//   node  : the GPUs of one host, when they are spread over several ranks (one rank per GPU);
//           the GPUs of one rank are measured by that rank's own collectives family already;
//   ring  : one GPU per host (each host's first), so every hop crosses the network.
// A group that would be another group again, or has fewer than 2 GPUs, is skipped with a reason.
// Members are numbered (NCCL rank) in MPI rank order, then the order a rank drives its GPUs; the
// group's root, the MPI rank that calls ncclGetUniqueId and broadcasts it, is its first member's.
#pragma once

#include <string>
#include <vector>

#include "gpusizer/bench/suite.hpp"

namespace gpusizer::bench {

// One MPI rank's GPUs: its host and the local target ids ("gpu3") of the GPUs it drives, with
// their CUDA ordinals in this process, in the same order.
struct RankGpus {
  std::string host;
  std::vector<std::string> gpus;
  std::vector<int> cuda_ordinals;
};

struct NcclMember {
  int mpi_rank = 0;
  int local_index = 0;   // into that rank's RankGpus::gpus
  int cuda_ordinal = 0;  // its device in that rank's process
  int nccl_rank = 0;     // in the group
  std::string target;    // fleet target id, "<host>:gpu3"
};

struct NcclGroupPlan {
  std::string kind;  // "world" | "node" | "ring"
  std::string name;  // "world", "node:<host>", "ring"
  std::vector<NcclMember> members;
  int hosts = 0;          // hosts the group spans
  int root_mpi_rank = 0;  // makes the unique id and broadcasts it
};

struct NcclPlan {
  std::vector<NcclGroupPlan> groups;
  std::vector<std::string> skipped;  // "ring: ..." one line per group not formed, with the reason
};

NcclPlan plan_nccl_groups(const std::vector<RankGpus>& ranks);

// This rank's members of `group`, in NCCL rank order (empty: not a member).
std::vector<NcclMember> members_on_rank(const NcclGroupPlan& group, int mpi_rank);

// The group's target ids in NCCL rank order (its records' targets).
std::vector<std::string> group_targets(const NcclGroupPlan& group);

// S values (nccl-tests' bytes) of the collectives sweep, per suite: the single-process family and
// the groups between ranks measure the same sizes (defined in collectives.cpp).
const std::vector<std::size_t>& collective_message_bytes(const SuiteContext& ctx);

}  // namespace gpusizer::bench
