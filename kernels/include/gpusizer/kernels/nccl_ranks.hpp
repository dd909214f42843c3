// NCCL collectives between processes (MPI ranks), one communicator per GPU a process drives,
// made with ncclCommInitRankConfig from a unique id that the caller moves between the processes
// (bench/mpi broadcasts it over MPI: this layer knows no MPI). Free of CUDA and NCCL types; built
// without CUDA or NCCL, every call throws Unsupported with the reason.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gpusizer/kernels/collectives.hpp"
#include "gpusizer/kernels/workload.hpp"

namespace gpusizer::kernels {

inline constexpr std::size_t kNcclUniqueIdBytes = 128;  // NCCL_UNIQUE_ID_BYTES
using NcclUniqueId = std::array<char, kNcclUniqueIdBytes>;

// The NCCL linked in, "2.28.9" (ncclGetVersion).
std::string nccl_version();
// ncclGetUniqueId: called by the group's root only, then sent to every member.
NcclUniqueId nccl_unique_id();

struct RankGroupSetup {
  NcclUniqueId id{};
  int ranks = 0;                   // NCCL ranks in the group
  std::vector<int> nccl_ranks;     // this process's members
  std::vector<int> cuda_ordinals;  // their devices, in the same order
  double timeout_seconds = 120;    // for the set-up, and for each wait on the group's work
  std::function<bool()> give_up;   // polled while waiting (a stop signal): true aborts
};

// This process's share of one collective over the group.
class RankCollective {
 public:
  virtual ~RankCollective() = default;
  RankCollective() = default;
  RankCollective(const RankCollective&) = delete;
  RankCollective& operator=(const RankCollective&) = delete;
  // `repeats` collectives back to back on this process's members; seconds by CUDA events (the
  // caller takes the slowest rank's time as the sample).
  virtual double run(std::size_t repeats) = 0;
  // After the last run: the elements this process's members received that differ from the exact
  // value (integer-valued fp32 inputs: every sum is exact), and how many were compared.
  virtual std::size_t wrong_elements() = 0;
  virtual std::size_t checked_elements() const = 0;
  // S as nccl-tests defines it, and nccl-tests' bus-bandwidth factor for the group's size.
  virtual WorkAmount work_per_op() const = 0;
};

class RankGroup {
 public:
  virtual ~RankGroup() = default;
  RankGroup() = default;
  RankGroup(const RankGroup&) = delete;
  RankGroup& operator=(const RankGroup&) = delete;
  virtual std::unique_ptr<RankCollective> collective(const CollectiveCase& c) = 0;
};

// Creates this process's communicators of a group: nonblocking ncclCommInitRankConfig for each
// member (in one ncclGroup), polled with ncclCommGetAsyncError. Past `timeout_seconds`, when
// give_up() says so, or on an asynchronous error, every communicator is aborted (ncclCommAbort)
// and RuntimeError says which wait failed; every later wait on the group's work is bounded the
// same way, so a peer that dies leaves an aborted communicator, never a hung process.
std::unique_ptr<RankGroup> join_rank_group(const RankGroupSetup& setup);

}  // namespace gpusizer::kernels
