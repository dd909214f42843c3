// STREAM kernels (BabelStream names and weights) over doubles, 16-byte vectorized, grid-stride.
// Arrays start at a = 0.1, b = 0.2, c = 0.05, scalar 0.4; each kernel is idempotent when
// repeated, so after any number of runs the expected value is one step of the scalar recurrence.
#include <cuda_runtime.h>

#include <vector>

#include "gpu_timer.hpp"
#include "host/numeric.hpp"
#include "workloads.hpp"

namespace gpusizer::kernels::cuda {
namespace {

constexpr double kA = 0.1, kB = 0.2, kC = 0.05, kScalar = 0.4, kFill = 0.7;
static_assert(static_cast<int>(StreamKernel::fill) == static_cast<int>(StreamOp::fill) &&
              static_cast<int>(StreamKernel::dot) == static_cast<int>(StreamOp::dot));
constexpr double kEps = 2.220446049250313e-16;

class StreamWorkload final : public Workload, public CorruptibleOutput {
 public:
  StreamWorkload(const DeviceFacts& d, const StreamCase& c) : facts_(d), case_(c) {
    n_ = (c.array_bytes / sizeof(double)) & ~std::size_t{1};
    if (n_ < 2) throw InputError("STREAM array must hold at least 2 doubles");
    DeviceScope scope(d.index);
    timer_ = std::make_unique<GpuTimer>(d.index, 0);
    blocks_ = stream_grid_blocks(d.index);
    a_ = DeviceBuffer(n_ * sizeof(double));
    b_ = DeviceBuffer(n_ * sizeof(double));
    c_ = DeviceBuffer(n_ * sizeof(double));
    partials_ = DeviceBuffer(static_cast<std::size_t>(blocks_) * sizeof(double));
    for (auto [buf, v] : {std::pair{&a_, kA}, std::pair{&b_, kB}, std::pair{&c_, kC}}) {
      std::vector<double> host(n_, v);
      GPUSIZER_CUDA_CALL(
          cudaMemcpy(buf->get(), host.data(), n_ * sizeof(double), cudaMemcpyHostToDevice));
    }
    GPUSIZER_CUDA_CALL(cudaMemset(partials_.get(), 0xff, partials_.bytes()));  // poison
    GPUSIZER_CUDA_CALL(
        cudaDeviceSynchronize());  // the timer stream does not wait on the null stream
  }

  double run(std::size_t repeats) override {
    DeviceScope scope(facts_.index);
    return timer_->time_hot(repeats, [this](cudaStream_t s) {
      launch_stream(static_cast<StreamKernel>(case_.op), s, blocks_, a_.as<double>(),
                    b_.as<double>(), c_.as<double>(), kScalar, kFill, partials_.as<double>(), n_);
    });
  }

  VerificationResult verify() override {
    DeviceScope scope(facts_.index);
    GPUSIZER_CUDA_CALL(cudaDeviceSynchronize());
    VerificationResult v;
    v.method =
        "every element vs the scalar recurrence (a=0.1, b=0.2, c=0.05, s=0.4), relative 100 eps";
    if (case_.op == StreamOp::dot) {
      std::vector<double> partials(static_cast<std::size_t>(blocks_));
      GPUSIZER_CUDA_CALL(
          cudaMemcpy(partials.data(), partials_.get(), partials_.bytes(), cudaMemcpyDeviceToHost));
      double sum = 0;
      for (double p : partials) sum += p;
      const double expected = kA * kB * static_cast<double>(n_);
      const std::size_t wrong =
          count_outside(std::span<const double>(&sum, 1), expected, 1e7 * kEps);
      v.method = "dot = N x a x b within relative 1e7 eps (BabelStream's dot tolerance)";
      v.status = wrong == 0 ? "passed" : "failed";
      v.detail = "sum " + std::to_string(sum) + ", expected " + std::to_string(expected);
      return v;
    }
    const auto [buffer, expected] = result();
    std::vector<double> host(n_);
    GPUSIZER_CUDA_CALL(
        cudaMemcpy(host.data(), buffer->get(), n_ * sizeof(double), cudaMemcpyDeviceToHost));
    const std::size_t wrong = count_outside(host, expected, 100 * kEps);
    v.status = wrong == 0 ? "passed" : "failed";
    v.detail = std::to_string(wrong) + " of " + std::to_string(n_) + " elements outside tolerance";
    return v;
  }

  void corrupt_output_for_test() override {
    DeviceScope scope(facts_.index);
    GPUSIZER_CUDA_CALL(cudaDeviceSynchronize());
    const DeviceBuffer* target = case_.op == StreamOp::dot ? &partials_ : result().first;
    const double bad = 12345.0;
    GPUSIZER_CUDA_CALL(cudaMemcpy(target->get(), &bad, sizeof bad, cudaMemcpyHostToDevice));
  }

  WorkAmount work_per_op() const override {
    WorkAmount w;
    const int weight = stream_weight(case_.op);
    w.bytes = static_cast<double>(weight) * sizeof(double) * static_cast<double>(n_);
    w.rule = "bytes = " + std::to_string(weight) + " x 8 B x N (BabelStream " +
             to_string(case_.op) + " weight)";
    return w;
  }
  std::string timer() const override { return "cuda_events"; }
  std::map<std::string, std::string> details() const override {
    return {{"elements", std::to_string(n_)},
            {"grid", std::to_string(blocks_) +
                         " blocks x 256 threads, grid-stride, double2 (16 B) accesses"}};
  }
  double peak_rate() const override { return facts_.theoretical_memory_bytes_per_second; }
  std::string peak_source() const override {
    return "2 x memory clock x bus width / 8 (cudaDeviceGetAttribute)";
  }

 private:
  // The array a kernel writes, and the value it must then hold.
  std::pair<const DeviceBuffer*, double> result() const {
    switch (case_.op) {
      case StreamOp::copy:
        return {&c_, kA};
      case StreamOp::mul:
        return {&b_, kScalar * kC};
      case StreamOp::add:
        return {&c_, kA + kB};
      case StreamOp::triad:
        return {&a_, kB + kScalar * kC};
      case StreamOp::fill:
        return {&a_, kFill};
      case StreamOp::dot:
        return {&partials_, 0};
    }
    return {&a_, 0};
  }

  DeviceFacts facts_;
  StreamCase case_;
  std::size_t n_ = 0;
  int blocks_ = 0;
  std::unique_ptr<GpuTimer> timer_;
  DeviceBuffer a_, b_, c_, partials_;
};

}  // namespace

std::unique_ptr<Workload> make_stream_workload(const DeviceFacts& d, const StreamCase& c) {
  return std::make_unique<StreamWorkload>(d, c);
}

}  // namespace gpusizer::kernels::cuda
