// NCCL communicators between processes (nccl_ranks.hpp): nonblocking ncclCommInitRankConfig from
// a unique id the caller broadcast, every wait polled with a timeout and aborted on failure. The
// collective itself is nccl_collective.cpp, as for one process.
#include "gpusizer/kernels/nccl_ranks.hpp"

#include <chrono>
#include <cstring>
#include <thread>

#include "nccl_collective.hpp"

namespace gpusizer::kernels {
namespace {

using cuda::CollectiveWorkload;
using cuda::CommunicatorSet;
using cuda::DeviceScope;
using Clock = std::chrono::steady_clock;

class RankComms final : public CommunicatorSet {
 public:
  explicit RankComms(const RankGroupSetup& s) : setup_(s), comms_(s.nccl_ranks.size(), nullptr) {
    if (s.nccl_ranks.empty() || s.nccl_ranks.size() != s.cuda_ordinals.size())
      throw RuntimeError("NCCL group: this process has no member, or ranks and devices differ");
    ncclUniqueId id;
    static_assert(sizeof id.internal == kNcclUniqueIdBytes);
    std::memcpy(id.internal, s.id.data(), kNcclUniqueIdBytes);
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = 0;  // every call returns at once; progress is polled below, with a timeout
    GPUSIZER_NCCL_CALL(ncclGroupStart());
    for (std::size_t l = 0; l < comms_.size(); ++l) {
      DeviceScope d(s.cuda_ordinals[l]);
      const ncclResult_t r =
          ncclCommInitRankConfig(&comms_[l], s.ranks, id, s.nccl_ranks[l], &config);
      if (r != ncclSuccess && r != ncclInProgress) {
        ncclGroupEnd();
        abort_all();
        cuda::throw_nccl_error(r, "ncclCommInitRankConfig", __FILE__, __LINE__);
      }
    }
    end_group_waiting("communicator set-up (ncclCommInitRankConfig)");
  }
  // A nonblocking communicator is finalized (polled, bounded) before it is destroyed; one that
  // does not finish in time is aborted instead.
  ~RankComms() override {
    if (aborted_) return;
    const auto until = deadline();
    for (auto c : comms_) {
      if (c == nullptr) continue;
      ncclResult_t state = ncclCommFinalize(c);
      while (state == ncclInProgress && Clock::now() < until) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        if (ncclCommGetAsyncError(c, &state) != ncclSuccess) state = ncclInternalError;
      }
      if (state == ncclSuccess) {
        ncclCommDestroy(c);
      } else {
        ncclCommAbort(c);
      }
    }
  }
  RankComms(const RankComms&) = delete;
  RankComms& operator=(const RankComms&) = delete;

  int ranks() const override { return setup_.ranks; }
  int local_count() const override { return static_cast<int>(comms_.size()); }
  int rank(int local) const override { return setup_.nccl_ranks[static_cast<std::size_t>(local)]; }
  int device(int local) const override {
    return setup_.cuda_ordinals[static_cast<std::size_t>(local)];
  }
  ncclComm_t comm(int local) const override { return comms_[static_cast<std::size_t>(local)]; }
  void end_group() const override { end_group_waiting("ncclGroupEnd"); }

  // Polls the event and the communicators: a peer that died shows up as an asynchronous error,
  // or as no progress until the timeout; either way the communicators are aborted.
  void wait_for(int device, cudaEvent_t done) const override {
    DeviceScope s(device);
    const auto until = deadline();
    while (true) {
      const cudaError_t e = cudaEventQuery(done);
      if (e == cudaSuccess) return;
      if (e != cudaErrorNotReady) GPUSIZER_CUDA_CALL(e);
      check_async("the group's collectives");
      give_up_if_due(until, "the group's collectives");
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  }

 private:
  Clock::time_point deadline() const {
    return Clock::now() + std::chrono::duration_cast<Clock::duration>(
                              std::chrono::duration<double>(setup_.timeout_seconds));
  }

  void abort_all() const {
    aborted_ = true;
    for (auto c : comms_) {
      if (c != nullptr) ncclCommAbort(c);
    }
  }

  void give_up_if_due(Clock::time_point until, const char* what) const {
    const bool stop = setup_.give_up && setup_.give_up();
    if (!stop && Clock::now() < until) return;
    abort_all();
    throw RuntimeError(std::string("NCCL ") + what + ": " +
                       (stop ? std::string("given up on a stop signal")
                             : "not done within " +
                                   std::to_string(static_cast<int>(setup_.timeout_seconds)) +
                                   " s (a peer missing or stuck)") +
                       "; communicators aborted");
  }

  // True while any communicator is still in progress; throws on an asynchronous error.
  bool check_async(const char* what) const {
    bool busy = false;
    for (auto c : comms_) {
      ncclResult_t state = ncclSuccess;
      const ncclResult_t r = ncclCommGetAsyncError(c, &state);
      if (r != ncclSuccess) state = r;
      if (state == ncclInProgress) {
        busy = true;
      } else if (state != ncclSuccess) {
        abort_all();
        throw RuntimeError(std::string("NCCL ") + what + ": " + ncclGetErrorString(state) + " (" +
                           ncclGetLastError(c) + "); communicators aborted");
      }
    }
    return busy;
  }

  void end_group_waiting(const char* what) const {
    const ncclResult_t r = ncclGroupEnd();
    if (r != ncclSuccess && r != ncclInProgress) {
      abort_all();
      cuda::throw_nccl_error(r, what, __FILE__, __LINE__);
    }
    const auto until = deadline();
    while (check_async(what)) {
      give_up_if_due(until, what);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }

  RankGroupSetup setup_;
  std::vector<ncclComm_t> comms_;
  mutable bool aborted_ = false;
};

class RankCollectiveImpl final : public RankCollective {
 public:
  RankCollectiveImpl(const CommunicatorSet& comms, const CollectiveCase& c) : work_(comms, c) {}
  double run(std::size_t repeats) override { return work_.run(repeats); }
  std::size_t wrong_elements() override { return work_.wrong_elements(); }
  std::size_t checked_elements() const override { return work_.checked_elements(); }
  WorkAmount work_per_op() const override { return work_.work_per_op(); }

 private:
  CollectiveWorkload work_;
};

class RankGroupImpl final : public RankGroup {
 public:
  explicit RankGroupImpl(const RankGroupSetup& s) : comms_(s) {}
  std::unique_ptr<RankCollective> collective(const CollectiveCase& c) override {
    return std::make_unique<RankCollectiveImpl>(comms_, c);
  }

 private:
  RankComms comms_;
};

}  // namespace

std::string nccl_version() {
  int v = 0;
  GPUSIZER_NCCL_CALL(ncclGetVersion(&v));
  // NCCL_VERSION(X,Y,Z): X*1000+Y*100+Z up to 2.8, X*10000+Y*100+Z after.
  const int major = v >= 10000 ? v / 10000 : v / 1000;
  const int minor = v >= 10000 ? v % 10000 / 100 : v % 1000 / 100;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(v % 100);
}

NcclUniqueId nccl_unique_id() {
  ncclUniqueId id;
  GPUSIZER_NCCL_CALL(ncclGetUniqueId(&id));
  NcclUniqueId out{};
  std::memcpy(out.data(), id.internal, kNcclUniqueIdBytes);
  return out;
}

std::unique_ptr<RankGroup> join_rank_group(const RankGroupSetup& setup) {
  return std::make_unique<RankGroupImpl>(setup);
}

}  // namespace gpusizer::kernels
