// Collectives across several GPUs (NCCL). The communicator set-up hides behind CommunicatorSet so
// a one-process launch (one communicator per GPU, ncclCommInitAll) and a future MPI launch (one
// rank per process, ncclCommInitRank) implement the same interface.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "gpusizer/kernels/backend.hpp"

namespace gpusizer::kernels {

enum class Collective { all_reduce, all_gather, reduce_scatter, broadcast, all_to_all };
std::string to_string(Collective c);

// nccl-tests' conventions (doc/PERFORMANCE.md): S = bytes of the logical array, n = ranks.
// algbw = S / t; busbw = algbw * factor(c, n).
double busbw_factor(Collective c, int ranks);

struct CollectiveCase {
  Collective op = Collective::all_reduce;
  std::size_t bytes = 0;  // S as nccl-tests defines it for this collective
  Dtype dtype = Dtype::f32;
};

class CollectiveGroup {
 public:
  virtual ~CollectiveGroup() = default;
  CollectiveGroup() = default;
  CollectiveGroup(const CollectiveGroup&) = delete;
  CollectiveGroup& operator=(const CollectiveGroup&) = delete;

  virtual int ranks() const = 0;
  // Target ids of the GPUs in the group (a record's targets).
  virtual std::vector<std::string> target_ids() const = 0;
  // The Workload's work_per_op().bytes is S and its bus_bandwidth_factor nccl-tests' factor: the
  // record's "busbw" metric is the median algbw times that factor.
  virtual std::unique_ptr<Workload> collective(const CollectiveCase& c) = 0;
};

}  // namespace gpusizer::kernels
