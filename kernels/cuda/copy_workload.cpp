// Copy-engine copies on one GPU: H2D, D2H (pinned NUMA-local or pageable), D2D, and H2D+D2H at
// once. A copy of N bytes counts N (nvbandwidth); bidirectional counts both directions (2N).
// Sources hold an xorshift pattern, destinations another; verify() checks the destination.
#include <cuda_runtime.h>

#include <cstring>
#include <span>
#include <vector>

#include "gpu_timer.hpp"
#include "host/numeric.hpp"
#include "numa_host.hpp"
#include "workloads.hpp"

namespace gpusizer::kernels::cuda {
namespace {

constexpr std::uint64_t kSrcSeed = 0xBAADF00D, kDstSeed = 0xCAFEBABE;

// Host memory of one side of the copy: pinned (NUMA-local) or pageable.
class HostSide {
 public:
  HostSide(std::size_t bytes, HostMemory kind, int numa_node) {
    if (kind == HostMemory::pinned) {
      pinned_ = NumaPinnedBuffer(bytes, numa_node);
      data_ = static_cast<std::uint8_t*>(pinned_.get());
      placement_ = pinned_.placement();
    } else {
      pageable_.resize(bytes);
      data_ = pageable_.data();
      placement_ = "pageable (std::vector)";
    }
    size_ = bytes;
  }
  std::uint8_t* data() const { return data_; }
  std::span<std::uint8_t> span() const { return {data_, size_}; }
  const std::string& placement() const { return placement_; }

 private:
  NumaPinnedBuffer pinned_;
  std::vector<std::uint8_t> pageable_;
  std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  std::string placement_;
};

class CopyWorkload final : public Workload, public CorruptibleOutput {
 public:
  CopyWorkload(const DeviceFacts& d, const CopyCase& c) : facts_(d), case_(c) {
    if (c.kind == CopyKind::host_to_host)
      throw Unsupported("host-to-host copies run on the CPU backend");
    if (c.bytes == 0) throw InputError("copy size must be positive");
    if (c.kind == CopyKind::bidirectional && c.host_memory == HostMemory::pageable)
      throw Unsupported("bidirectional copies need pinned memory (pageable copies serialize)");
    DeviceScope scope(d.index);
    timer_ = std::make_unique<GpuTimer>(d.index, 0);
    second_ = Stream::create();
    fork_ = Event::create(false);
    join_ = Event::create(false);
    const std::size_t n = c.bytes;
    dev_src_ = DeviceBuffer(n);
    dev_dst_ = DeviceBuffer(n);
    if (c.kind != CopyKind::device_to_device) {
      host_src_ = std::make_unique<HostSide>(n, c.host_memory, d.numa_node);
      host_dst_ = std::make_unique<HostSide>(n, c.host_memory, d.numa_node);
    }
    // Sources: the pattern; destinations: a different pattern.
    std::vector<std::uint8_t> pattern(n), other(n);
    fill_pattern(pattern, kSrcSeed);
    fill_pattern(other, kDstSeed);
    GPUSIZER_CUDA_CALL(cudaMemcpy(dev_src_.get(), pattern.data(), n, cudaMemcpyHostToDevice));
    GPUSIZER_CUDA_CALL(cudaMemcpy(dev_dst_.get(), other.data(), n, cudaMemcpyHostToDevice));
    if (host_src_) {
      std::memcpy(host_src_->data(), pattern.data(), n);
      std::memcpy(host_dst_->data(), other.data(), n);
    }
    // A cudaMemcpy from pageable memory may return before its DMA lands, and the timer's
    // non-blocking stream does not wait on the legacy stream.
    GPUSIZER_CUDA_CALL(cudaDeviceSynchronize());
  }

  double run(std::size_t repeats) override {
    DeviceScope scope(facts_.index);
    // Pageable copies block the host until staged, so they cannot sit behind the spin kernel.
    const bool blocker =
        case_.host_memory == HostMemory::pinned || case_.kind == CopyKind::device_to_device;
    return timer_->time_hot(
        repeats, [this](cudaStream_t s) { enqueue(s); }, blocker);
  }

  Verification verify() override {
    DeviceScope scope(facts_.index);
    GPUSIZER_CUDA_CALL(cudaDeviceSynchronize());
    std::vector<std::uint8_t> tmp;
    std::size_t wrong = 0;
    auto check_device = [&](const DeviceBuffer& b) {
      tmp.resize(case_.bytes);
      GPUSIZER_CUDA_CALL(cudaMemcpy(tmp.data(), b.get(), case_.bytes, cudaMemcpyDeviceToHost));
      wrong += check_pattern(tmp, kSrcSeed).wrong_bytes;
    };
    switch (case_.kind) {
      case CopyKind::host_to_device:
        check_device(dev_dst_);
        break;
      case CopyKind::device_to_host:
        wrong += check_pattern(host_dst_->span(), kSrcSeed).wrong_bytes;
        break;
      case CopyKind::device_to_device:
        check_device(dev_dst_);
        break;
      case CopyKind::bidirectional:
        check_device(dev_dst_);
        wrong += check_pattern(host_dst_->span(), kSrcSeed).wrong_bytes;
        break;
      case CopyKind::host_to_host:
        break;
    }
    return pattern_result(wrong,
                          "destination compared byte by byte with the source's xorshift pattern");
  }

  void corrupt_output_for_test() override {
    DeviceScope scope(facts_.index);
    GPUSIZER_CUDA_CALL(cudaDeviceSynchronize());
    const std::size_t at = case_.bytes / 2;
    if (case_.kind == CopyKind::device_to_host) {
      host_dst_->data()[at] ^= 0x01;
    } else {
      std::uint8_t b = 0;
      GPUSIZER_CUDA_CALL(
          cudaMemcpy(&b, dev_dst_.as<std::uint8_t>() + at, 1, cudaMemcpyDeviceToHost));
      b ^= 0x01;
      GPUSIZER_CUDA_CALL(
          cudaMemcpy(dev_dst_.as<std::uint8_t>() + at, &b, 1, cudaMemcpyHostToDevice));
    }
  }

  WorkAmount work_per_op() const override {
    WorkAmount w;
    const bool both = case_.kind == CopyKind::bidirectional;
    w.bytes = static_cast<double>(case_.bytes) * (both ? 2 : 1);
    w.rule = both ? "bytes = 2 x N (N each way at once; a copy of N bytes counts N, nvbandwidth)"
                  : "bytes = N (a copy of N bytes counts N, nvbandwidth)";
    return w;
  }
  Timer timer() const override { return Timer::cuda_events; }
  std::map<std::string, std::string> details() const override {
    std::map<std::string, std::string> d{{"engine", "copy engine (cudaMemcpyAsync)"}};
    if (host_src_) d["host_memory"] = host_src_->placement();
    if (facts_.numa_node >= 0) d["gpu_numa_node"] = std::to_string(facts_.numa_node);
    return d;
  }
  double peak_rate() const override {
    if (case_.kind == CopyKind::device_to_device)  // N counted, 2N moved through DRAM
      return facts_.theoretical_memory_bytes_per_second / 2;
    const double link = facts_.pcie_bytes_per_second_per_direction;
    return case_.kind == CopyKind::bidirectional ? 2 * link : link;
  }
  std::string peak_source() const override {
    if (case_.kind == CopyKind::device_to_device)
      return "half of 2 x memory clock x bus width / 8 (a D2D copy of N bytes moves 2N)";
    return facts_.pcie_bytes_per_second_per_direction > 0
               ? "PCIe Gen" + std::to_string(facts_.pcie_generation) + " x" +
                     std::to_string(facts_.pcie_width) + " payload after encoding (" +
                     facts_.pcie_peak_source + ")"
               : "";
  }

 private:
  void enqueue(cudaStream_t s) {
    const std::size_t n = case_.bytes;
    switch (case_.kind) {
      case CopyKind::host_to_device:
        GPUSIZER_CUDA_CALL(
            cudaMemcpyAsync(dev_dst_.get(), host_src_->data(), n, cudaMemcpyHostToDevice, s));
        break;
      case CopyKind::device_to_host:
        GPUSIZER_CUDA_CALL(
            cudaMemcpyAsync(host_dst_->data(), dev_src_.get(), n, cudaMemcpyDeviceToHost, s));
        break;
      case CopyKind::device_to_device:
        GPUSIZER_CUDA_CALL(
            cudaMemcpyAsync(dev_dst_.get(), dev_src_.get(), n, cudaMemcpyDeviceToDevice, s));
        break;
      case CopyKind::bidirectional:
        // Fork onto a second stream so both copy engines run at once, then join.
        GPUSIZER_CUDA_CALL(cudaEventRecord(fork_.get(), s));
        GPUSIZER_CUDA_CALL(cudaStreamWaitEvent(second_.get(), fork_.get(), 0));
        GPUSIZER_CUDA_CALL(
            cudaMemcpyAsync(dev_dst_.get(), host_src_->data(), n, cudaMemcpyHostToDevice, s));
        GPUSIZER_CUDA_CALL(cudaMemcpyAsync(host_dst_->data(), dev_src_.get(), n,
                                           cudaMemcpyDeviceToHost, second_.get()));
        GPUSIZER_CUDA_CALL(cudaEventRecord(join_.get(), second_.get()));
        GPUSIZER_CUDA_CALL(cudaStreamWaitEvent(s, join_.get(), 0));
        break;
      case CopyKind::host_to_host:
        break;
    }
  }

  DeviceFacts facts_;
  CopyCase case_;
  std::unique_ptr<GpuTimer> timer_;
  Stream second_;
  Event fork_, join_;
  DeviceBuffer dev_src_, dev_dst_;
  std::unique_ptr<HostSide> host_src_, host_dst_;
};

}  // namespace

std::unique_ptr<Workload> make_copy_workload(const DeviceFacts& d, const CopyCase& c) {
  return std::make_unique<CopyWorkload>(d, c);
}

}  // namespace gpusizer::kernels::cuda
