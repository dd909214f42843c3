// NCCL collectives over all GPUs of one process: the one-process CommunicatorSet
// (ncclCommInitAll), created lazily on the first collective. The collective itself is
// nccl_collective.cpp, shared with the communicators between MPI ranks (nccl_ranks.cpp).
#include <vector>

#include "nccl_collective.hpp"
#include "workloads.hpp"

namespace gpusizer::kernels::cuda {

void throw_nccl_error(int result, const char* expr, const char* file, int line) {
  throw CudaError(std::string(file) + ":" + std::to_string(line) + ": " + expr +
                      " failed: " + ncclGetErrorString(static_cast<ncclResult_t>(result)),
                  result);
}

namespace {

class SingleProcessComms final : public CommunicatorSet {
 public:
  explicit SingleProcessComms(std::vector<int> devices)
      : devices_(std::move(devices)), comms_(devices_.size()) {
    GPUSIZER_NCCL_CALL(
        ncclCommInitAll(comms_.data(), static_cast<int>(devices_.size()), devices_.data()));
  }
  ~SingleProcessComms() override {
    for (auto c : comms_)
      if (c) ncclCommDestroy(c);
  }
  SingleProcessComms(const SingleProcessComms&) = delete;
  SingleProcessComms& operator=(const SingleProcessComms&) = delete;
  int ranks() const override { return static_cast<int>(devices_.size()); }
  int local_count() const override { return ranks(); }
  int rank(int local) const override { return local; }
  int device(int local) const override { return devices_[static_cast<std::size_t>(local)]; }
  ncclComm_t comm(int local) const override { return comms_[static_cast<std::size_t>(local)]; }
  void end_group() const override { GPUSIZER_NCCL_CALL(ncclGroupEnd()); }
  void wait_for(int device, cudaEvent_t done) const override {
    DeviceScope s(device);
    GPUSIZER_CUDA_CALL(cudaEventSynchronize(done));
  }

 private:
  std::vector<int> devices_;
  std::vector<ncclComm_t> comms_;
};

class NcclGroup final : public CollectiveGroup {
 public:
  explicit NcclGroup(std::vector<DeviceFacts> devices) : devices_(std::move(devices)) {}
  int ranks() const override { return static_cast<int>(devices_.size()); }
  std::vector<std::string> target_ids() const override {
    std::vector<std::string> ids;
    for (const auto& d : devices_) ids.push_back(d.identity.id);
    return ids;
  }
  std::unique_ptr<Workload> collective(const CollectiveCase& c) override {
    if (!comms_) {
      std::vector<int> idx;
      for (const auto& d : devices_) idx.push_back(d.index);
      comms_ = std::make_unique<SingleProcessComms>(idx);
    }
    return std::make_unique<CollectiveWorkload>(*comms_, c);
  }

 private:
  std::vector<DeviceFacts> devices_;
  std::unique_ptr<CommunicatorSet> comms_;  // created on first use (ncclCommInitAll is slow)
};

}  // namespace

std::unique_ptr<CollectiveGroup> make_nccl_group(const std::vector<DeviceFacts>& devices,
                                                 std::string& reason) {
  if (devices.size() < 2) {
    reason = "collectives need at least 2 GPUs; " + std::to_string(devices.size()) + " visible";
    return nullptr;
  }
  return std::make_unique<NcclGroup>(devices);
}

}  // namespace gpusizer::kernels::cuda
