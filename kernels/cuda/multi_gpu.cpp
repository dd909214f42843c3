// P2P copies between GPU pairs (copy engine and SM kernel, read = destination pulls, write =
// source pushes; nvbandwidth's patterns) and every GPU copying to/from the host at once. Copies
// of N bytes count N. Multi-device timing: the issuing device's stream records the start, the
// other streams wait on it, and the first stream waits on every end before recording the stop.
#include <cuda_runtime.h>

#include <cstring>
#include <vector>

#include "gpu_timer.hpp"
#include "host/numeric.hpp"
#include "numa_host.hpp"
#include "workloads.hpp"

namespace gpusizer::kernels::cuda {
namespace {

constexpr std::uint64_t kSeed = 0xBAADF00D;

void fill_device(const DeviceBuffer& b, std::uint64_t seed) {
  std::vector<std::uint8_t> host(b.bytes());
  fill_pattern(host, seed);
  GPUSIZER_CUDA_CALL(cudaMemcpy(b.get(), host.data(), b.bytes(), cudaMemcpyHostToDevice));
}

std::size_t wrong_on_device(const DeviceBuffer& b, std::uint64_t seed) {
  std::vector<std::uint8_t> host(b.bytes());
  GPUSIZER_CUDA_CALL(cudaMemcpy(host.data(), b.get(), b.bytes(), cudaMemcpyDeviceToHost));
  return check_pattern(host, seed).wrong_bytes;
}

constexpr const char* kPatternMethod =
    "destination compared byte by byte with the source's xorshift pattern";

class P2pWorkload final : public Workload, public CorruptibleOutput {
 public:
  P2pWorkload(const DeviceFacts& src, const DeviceFacts& dst, const P2pCase& c)
      : src_(src), dst_(dst), case_(c), bytes_(c.bytes & ~std::size_t{15}) {
    if (bytes_ == 0) throw InputError("P2P copy size must be at least 16 bytes");
    issuer_ = c.direction == P2pDirection::read ? dst.index : src.index;
    {
      DeviceScope s(src.index);
      src_buf_ = DeviceBuffer(bytes_);
      fill_device(src_buf_, kSeed);
      GPUSIZER_CUDA_CALL(cudaDeviceSynchronize());  // the pageable upload's DMA may still run
    }
    {
      DeviceScope s(dst.index);
      dst_buf_ = DeviceBuffer(bytes_);
      GPUSIZER_CUDA_CALL(cudaMemset(dst_buf_.get(), 0, bytes_));
      GPUSIZER_CUDA_CALL(cudaDeviceSynchronize());
    }
    DeviceScope s(issuer_);
    timer_ = std::make_unique<GpuTimer>(issuer_, 0);
    blocks_ = stream_grid_blocks(issuer_);
  }

  double run(std::size_t repeats) override {
    DeviceScope s(issuer_);
    return timer_->time_hot(repeats, [this](cudaStream_t st) {
      if (case_.method == P2pMethod::copy_engine) {
        GPUSIZER_CUDA_CALL(cudaMemcpyPeerAsync(dst_buf_.get(), dst_.index, src_buf_.get(),
                                               src_.index, bytes_, st));
      } else {
        launch_sm_copy(st, blocks_, dst_buf_.get(), src_buf_.get(), bytes_);
      }
    });
  }
  Verification verify() override {
    DeviceScope s(dst_.index);
    GPUSIZER_CUDA_CALL(cudaDeviceSynchronize());
    return pattern_result(wrong_on_device(dst_buf_, kSeed), kPatternMethod);
  }
  void corrupt_output_for_test() override {
    DeviceScope s(dst_.index);
    GPUSIZER_CUDA_CALL(cudaDeviceSynchronize());
    GPUSIZER_CUDA_CALL(cudaMemset(dst_buf_.as<std::uint8_t>() + bytes_ / 2, 0x5a, 1));
  }
  WorkAmount work_per_op() const override {
    return {static_cast<double>(bytes_), 0, "bytes = N (a copy of N bytes counts N, nvbandwidth)",
            RateMetric::bandwidth};
  }
  Timer timer() const override { return Timer::cuda_events; }
  std::map<std::string, std::string> details() const override {
    return {{"method", case_.method == P2pMethod::copy_engine ? "copy engine (cudaMemcpyPeerAsync)"
                                                              : "SM copy kernel, 16-byte accesses"},
            {"issuing_gpu",
             case_.direction == P2pDirection::read ? dst_.identity.id : src_.identity.id}};
  }

 private:
  DeviceFacts src_, dst_;
  P2pCase case_;
  std::size_t bytes_;
  int issuer_ = 0, blocks_ = 0;
  DeviceBuffer src_buf_, dst_buf_;
  std::unique_ptr<GpuTimer> timer_;
};

class AllHostWorkload final : public Workload {
 public:
  AllHostWorkload(const std::vector<DeviceFacts>& devices, const AllHostCase& c)
      : devices_(devices), case_(c) {
    if (c.bytes_per_gpu == 0) throw InputError("all-to-host copy size must be positive");
    for (const auto& d : devices) {
      DeviceScope s(d.index);
      Side side;
      side.stream = Stream::create();
      side.start = Event::create();
      side.end = Event::create();
      side.device = DeviceBuffer(c.bytes_per_gpu);
      side.host = NumaPinnedBuffer(c.bytes_per_gpu, d.numa_node);
      // The source holds the pattern, the destination zeros: a copy that did not happen fails.
      auto* h = static_cast<std::uint8_t*>(side.host.get());
      if (c.to_device) {
        fill_pattern(std::span<std::uint8_t>(h, c.bytes_per_gpu), kSeed);
        GPUSIZER_CUDA_CALL(cudaMemset(side.device.get(), 0, c.bytes_per_gpu));
      } else {
        std::memset(h, 0, c.bytes_per_gpu);
        fill_device(side.device, kSeed);
      }
      GPUSIZER_CUDA_CALL(cudaDeviceSynchronize());
      sides_.push_back(std::move(side));
    }
  }

  double run(std::size_t repeats) override {
    Side& first = sides_.front();
    {
      DeviceScope s(devices_.front().index);
      GPUSIZER_CUDA_CALL(cudaEventRecord(first.start.get(), first.stream.get()));
    }
    for (std::size_t g = 0; g < sides_.size(); ++g) {
      DeviceScope s(devices_[g].index);
      Side& side = sides_[g];
      if (g > 0) GPUSIZER_CUDA_CALL(cudaStreamWaitEvent(side.stream.get(), first.start.get(), 0));
      for (std::size_t r = 0; r < repeats; ++r) {
        if (case_.to_device)
          GPUSIZER_CUDA_CALL(cudaMemcpyAsync(side.device.get(), side.host.get(),
                                             case_.bytes_per_gpu, cudaMemcpyHostToDevice,
                                             side.stream.get()));
        else
          GPUSIZER_CUDA_CALL(cudaMemcpyAsync(side.host.get(), side.device.get(),
                                             case_.bytes_per_gpu, cudaMemcpyDeviceToHost,
                                             side.stream.get()));
      }
      GPUSIZER_CUDA_CALL(cudaEventRecord(side.end.get(), side.stream.get()));
    }
    std::vector<cudaEvent_t> other_ends;
    for (std::size_t g = 1; g < sides_.size(); ++g) other_ends.push_back(sides_[g].end.get());
    return join_streams_elapsed(devices_.front().index, first.stream.get(), first.start.get(),
                                first.end.get(), other_ends);
  }

  Verification verify() override {
    std::size_t wrong = 0;
    for (std::size_t g = 0; g < sides_.size(); ++g) {
      DeviceScope s(devices_[g].index);
      GPUSIZER_CUDA_CALL(cudaDeviceSynchronize());
      if (case_.to_device) {
        wrong += wrong_on_device(sides_[g].device, kSeed);
      } else {
        const auto* h = static_cast<const std::uint8_t*>(sides_[g].host.get());
        wrong +=
            check_pattern(std::span<const std::uint8_t>(h, case_.bytes_per_gpu), kSeed).wrong_bytes;
      }
    }
    return pattern_result(wrong, kPatternMethod);
  }
  WorkAmount work_per_op() const override {
    return {static_cast<double>(case_.bytes_per_gpu * sides_.size()), 0,
            "bytes = N per GPU x GPUs, all at once (aggregate host link)", RateMetric::bandwidth};
  }
  Timer timer() const override { return Timer::cuda_events; }
  std::map<std::string, std::string> details() const override {
    return {{"gpus", std::to_string(sides_.size())},
            {"host_memory", sides_.front().host.placement()}};
  }

 private:
  struct Side {
    Stream stream;
    Event start, end;
    DeviceBuffer device;
    NumaPinnedBuffer host;
  };
  std::vector<DeviceFacts> devices_;
  AllHostCase case_;
  std::vector<Side> sides_;
};

class CudaMultiGpu final : public MultiGpu {
 public:
  explicit CudaMultiGpu(std::vector<DeviceFacts> devices) : devices_(std::move(devices)) {
    const std::size_t n = devices_.size();
    reasons_.assign(n * n, "");
    for (std::size_t a = 0; a < n; ++a) {
      for (std::size_t b = 0; b < n; ++b) {
        if (a == b) {
          reasons_[a * n + b] = "same GPU";
          continue;
        }
        int can = 0;
        GPUSIZER_CUDA_CALL(cudaDeviceCanAccessPeer(&can, devices_[a].index, devices_[b].index));
        if (!can) {
          reasons_[a * n + b] = "cudaDeviceCanAccessPeer says " + devices_[a].identity.id +
                                " cannot access " + devices_[b].identity.id;
          continue;
        }
        DeviceScope s(devices_[a].index);
        const cudaError_t e = cudaDeviceEnablePeerAccess(devices_[b].index, 0);
        if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled)
          reasons_[a * n + b] =
              std::string("cudaDeviceEnablePeerAccess failed: ") + cudaGetErrorName(e);
        cudaGetLastError();
      }
    }
  }
  int gpu_count() const override { return static_cast<int>(devices_.size()); }
  std::vector<std::string> target_ids() const override {
    std::vector<std::string> ids;
    for (const auto& d : devices_) ids.push_back(d.identity.id);
    return ids;
  }
  std::string peer_unavailable_reason(int src, int dst) const override {
    const auto n = devices_.size();
    if (src < 0 || dst < 0 || static_cast<std::size_t>(src) >= n ||
        static_cast<std::size_t>(dst) >= n)
      return "GPU index out of range";
    // Both directions must be enabled: read uses dst's context on src's memory and vice versa.
    const std::string& ab =
        reasons_[static_cast<std::size_t>(src) * n + static_cast<std::size_t>(dst)];
    return ab.empty() ? reasons_[static_cast<std::size_t>(dst) * n + static_cast<std::size_t>(src)]
                      : ab;
  }
  std::unique_ptr<Workload> p2p_copy(const P2pCase& c) override {
    if (auto why = peer_unavailable_reason(c.src, c.dst); !why.empty()) throw Unsupported(why);
    return std::make_unique<P2pWorkload>(devices_[static_cast<std::size_t>(c.src)],
                                         devices_[static_cast<std::size_t>(c.dst)], c);
  }
  std::unique_ptr<Workload> all_to_host(const AllHostCase& c) override {
    return std::make_unique<AllHostWorkload>(devices_, c);
  }

 private:
  std::vector<DeviceFacts> devices_;
  std::vector<std::string> reasons_;
};

}  // namespace

std::unique_ptr<MultiGpu> make_multi_gpu(const std::vector<DeviceFacts>& devices,
                                         std::string& reason) {
  if (devices.size() < 2) {
    reason = "multi-GPU work needs at least 2 GPUs; " + std::to_string(devices.size()) + " visible";
    return nullptr;
  }
  try {
    return std::make_unique<CudaMultiGpu>(devices);
  } catch (const std::exception& e) {
    reason = std::string("multi-GPU set-up failed: ") + e.what();
    return nullptr;
  }
}

}  // namespace gpusizer::kernels::cuda
