// One NCCL collective over a set of communicators, written once for both launches: one process
// driving every GPU (ncclCommInitAll, nccl_group.cpp) and one process per MPI rank
// (ncclCommInitRankConfig, nccl_ranks.cpp). S, algbw and busbw follow nccl-tests
// (doc/PERFORMANCE.md). Inputs are small integers stored as floats, so every sum is exact and
// verification counts wrong elements exactly. Internal header.
#pragma once

#include <cuda_runtime.h>
#include <nccl.h>

#include <vector>

#include "gpusizer/kernels/collectives.hpp"
#include "raii.hpp"

namespace gpusizer::kernels::cuda {

class CommunicatorSet {
 public:
  virtual ~CommunicatorSet() = default;
  CommunicatorSet() = default;
  CommunicatorSet(const CommunicatorSet&) = delete;
  CommunicatorSet& operator=(const CommunicatorSet&) = delete;
  virtual int ranks() const = 0;        // total ranks in the communicator
  virtual int local_count() const = 0;  // ranks driven by this process
  virtual int rank(int local) const = 0;
  virtual int device(int local) const = 0;
  virtual ncclComm_t comm(int local) const = 0;
  // Ends the ncclGroup the collectives were queued in (a nonblocking set waits for it here).
  virtual void end_group() const = 0;
  // Waits until `done` (recorded on `device`) has completed.
  virtual void wait_for(int device, cudaEvent_t done) const = 0;
};

class CollectiveWorkload final : public Workload {
 public:
  CollectiveWorkload(const CommunicatorSet& comms, const CollectiveCase& c);
  double run(std::size_t repeats) override;
  Verification verify() override;
  WorkAmount work_per_op() const override;
  Timer timer() const override { return Timer::cuda_events; }
  std::map<std::string, std::string> details() const override;

  // Elements this process's ranks received that differ from the exact value (after a run), and
  // how many were compared.
  std::size_t wrong_elements();
  std::size_t checked_elements() const { return recv_elems_ * ranks_.size(); }

 private:
  struct Rank {
    Stream stream;
    Event start, end;
    DeviceBuffer send, recv;
  };
  float expected(int me, std::size_t i, std::size_t n) const;
  void enqueue(int l);

  const CommunicatorSet& comms_;
  CollectiveCase case_;
  std::size_t bytes_ = 0, send_elems_ = 0, recv_elems_ = 0;
  std::vector<Rank> ranks_;
};

}  // namespace gpusizer::kernels::cuda
