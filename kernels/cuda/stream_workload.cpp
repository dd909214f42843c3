// STREAM kernels (BabelStream names and weights) over doubles, 16-byte vectorized, grid-stride.
// Arrays start at a = 0.1, b = 0.2, c = 0.05, scalar 0.4; each kernel is idempotent when
// repeated, so after any number of runs the expected value is one step of the scalar recurrence.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <string>
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
    for (const StreamVariant& v : stream_variants())
      if (stream_variant_applies(v, static_cast<StreamKernel>(c.op), d.cc_major))
        candidates_.push_back({&v, stream_variant_blocks(d.index, v)});
    int max_blocks = 1;
    for (const auto& cand : candidates_) max_blocks = std::max(max_blocks, cand.blocks);
    a_ = DeviceBuffer(n_ * sizeof(double));
    b_ = DeviceBuffer(n_ * sizeof(double));
    c_ = DeviceBuffer(n_ * sizeof(double));
    partials_ = DeviceBuffer(static_cast<std::size_t>(max_blocks) * sizeof(double));
    for (auto [buf, v] : {std::pair{&a_, kA}, std::pair{&b_, kB}, std::pair{&c_, kC}}) {
      std::vector<double> host(n_, v);
      GPUSIZER_CUDA_CALL(
          cudaMemcpy(buf->get(), host.data(), n_ * sizeof(double), cudaMemcpyHostToDevice));
    }
    GPUSIZER_CUDA_CALL(cudaMemset(partials_.get(), 0xff, partials_.bytes()));  // poison
    GPUSIZER_CUDA_CALL(
        cudaDeviceSynchronize());  // the timer stream does not wait on the null stream
    choose_variant();
    // The trials wrote the output: poison it again, so verify() sees only the measured runs'.
    poison_output();
  }

  double run(std::size_t repeats) override {
    DeviceScope scope(facts_.index);
    return timer_->time_hot(repeats, [this](cudaStream_t s) { launch(s, chosen_); });
  }

  Verification verify() override {
    DeviceScope scope(facts_.index);
    GPUSIZER_CUDA_CALL(cudaDeviceSynchronize());
    Verification v;
    v.method =
        "every element vs the scalar recurrence (a=0.1, b=0.2, c=0.05, s=0.4), relative 100 eps";
    if (case_.op == StreamOp::dot) {
      const double sum = dot_sum(chosen_.blocks);
      const double expected = kA * kB * static_cast<double>(n_);
      const std::size_t wrong =
          count_outside(std::span<const double>(&sum, 1), expected, 1e7 * kEps);
      v.method = "dot = N x a x b within relative 1e7 eps (BabelStream's dot tolerance)";
      v.status = wrong == 0 ? VerificationStatus::passed : VerificationStatus::failed;
      v.detail = "sum " + std::to_string(sum) + ", expected " + std::to_string(expected);
      return v;
    }
    const auto [buffer, expected] = result();
    std::vector<double> host(n_);
    GPUSIZER_CUDA_CALL(
        cudaMemcpy(host.data(), buffer->get(), n_ * sizeof(double), cudaMemcpyDeviceToHost));
    const std::size_t wrong = count_outside(host, expected, 100 * kEps);
    v.status = wrong == 0 ? VerificationStatus::passed : VerificationStatus::failed;
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
  Timer timer() const override { return Timer::cuda_events; }
  std::map<std::string, std::string> details() const override {
    return {
        {"elements", std::to_string(n_)},
        {"grid", std::to_string(chosen_.blocks) + " blocks x 256 threads, double2 (16 B) elements"},
        {"kernel_variant", chosen_.variant->name + " (fastest of: " + trials_ + ")"}};
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

  struct Candidate {
    const StreamVariant* variant;
    int blocks;
  };

  void launch(cudaStream_t s, const Candidate& c) {
    launch_stream(static_cast<StreamKernel>(case_.op), s, c.blocks, *c.variant, a_.as<double>(),
                  b_.as<double>(), c_.as<double>(), kScalar, kFill, partials_.as<double>(), n_);
  }

  void poison_output() {
    const DeviceBuffer* out = case_.op == StreamOp::dot ? &partials_ : result().first;
    GPUSIZER_CUDA_CALL(cudaMemset(out->get(), 0xff, out->bytes()));
    GPUSIZER_CUDA_CALL(cudaDeviceSynchronize());
  }

  double dot_sum(int blocks) const {
    std::vector<double> partials(static_cast<std::size_t>(blocks));
    GPUSIZER_CUDA_CALL(cudaMemcpy(partials.data(), partials_.get(),
                                  partials.size() * sizeof(double), cudaMemcpyDeviceToHost));
    double sum = 0;
    for (double p : partials) sum += p;
    return sum;
  }

  // A quick check of a variant's output before it can be chosen: 64 runs of 8 elements spread
  // over the array (the first and the last included), or the dot sum. A variant that writes
  // wrong values is rejected, never measured.
  bool spot_check(const Candidate& c) {
    GPUSIZER_CUDA_CALL(cudaStreamSynchronize(timer_->stream()));
    if (case_.op == StreamOp::dot) {
      const double sum = dot_sum(c.blocks), expected = kA * kB * static_cast<double>(n_);
      return count_outside(std::span<const double>(&sum, 1), expected, 1e7 * kEps) == 0;
    }
    const auto [buffer, expected] = result();
    constexpr std::size_t kRuns = 64, kRun = 8;
    std::vector<double> got(kRun);
    for (std::size_t r = 0; r < kRuns; ++r) {
      const std::size_t len = std::min(kRun, n_);
      const std::size_t start = r + 1 == kRuns ? n_ - len : (n_ - len) / (kRuns - 1) * r;
      GPUSIZER_CUDA_CALL(cudaMemcpy(got.data(), buffer->as<double>() + start, len * sizeof(double),
                                    cudaMemcpyDeviceToHost));
      if (count_outside(std::span<const double>(got.data(), len), expected, 100 * kEps) != 0)
        return false;
    }
    return true;
  }

  // Times each applicable kernel variant briefly (best of 3 batches of back-to-back launches
  // covering about 2 ms) and keeps the fastest that passes a spot check: which one is fastest
  // depends on the GPU (on an H200 the per-thread variants were within 2 % of each other). Every
  // variant writes the same values.
  void choose_variant() {
    double best = 0;
    for (const Candidate& c : candidates_) {
      poison_output();
      const double first = timer_->time_hot(1, [&](cudaStream_t s) { launch(s, c); });
      const auto reps =
          static_cast<std::size_t>(std::clamp(2e-3 / std::max(first, 1e-7), 2.0, 50.0));
      double t = 1e300;
      for (int rep = 0; rep < 3; ++rep)
        t = std::min(t, timer_->time_hot(reps, [&](cudaStream_t s) { launch(s, c); }) /
                            static_cast<double>(reps));
      const bool ok = spot_check(c);
      char buf[128];
      std::snprintf(buf, sizeof buf, "%s%s %.4g us%s", trials_.empty() ? "" : ", ",
                    c.variant->name.c_str(), t * 1e6, ok ? "" : " (wrong results: rejected)");
      trials_ += buf;
      if (ok && (best == 0 || t < best)) {
        best = t;
        chosen_ = c;
      }
    }
    if (best == 0)
      throw RuntimeError("every STREAM kernel variant wrote wrong results: " + trials_);
  }

  DeviceFacts facts_;
  StreamCase case_;
  std::size_t n_ = 0;
  std::vector<Candidate> candidates_;
  Candidate chosen_{&stream_variants().front(), 1};
  std::string trials_;
  std::unique_ptr<GpuTimer> timer_;
  DeviceBuffer a_, b_, c_, partials_;
};

}  // namespace

std::unique_ptr<Workload> make_stream_workload(const DeviceFacts& d, const StreamCase& c) {
  return std::make_unique<StreamWorkload>(d, c);
}

}  // namespace gpusizer::kernels::cuda
