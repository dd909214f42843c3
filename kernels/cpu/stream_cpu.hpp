// BabelStream kernels on the CPU: copy, mul, add, triad, dot and fill over three double arrays,
// spread over every worker of the thread pool with static partitioning.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "aligned_buffer.hpp"
#include "cpu_workload.hpp"
#include "gpusizer/kernels/backend.hpp"
#include "thread_pool.hpp"

namespace gpusizer::kernels::cpu {

// BabelStream's start values.
inline constexpr double kStreamInitA = 0.1;
inline constexpr double kStreamInitB = 0.2;
inline constexpr double kStreamInitC = 0.0;
inline constexpr double kStreamScalar = 0.4;

// The kernels that run once, in BabelStream's classic order (copy, mul, add, triad, dot), before
// `op` is measured, so that every array `op` reads holds a non-trivial value (mul alone would
// multiply c = 0.0). Empty for copy and fill.
std::vector<StreamOp> stream_prefix(StreamOp op);

class StreamCpu final : public CpuWorkload {
 public:
  // Throws InputError when array_bytes holds less than one double.
  StreamCpu(std::shared_ptr<ThreadPool> pool, const StreamCase& c);

  double run(std::size_t repeats) override;
  WorkAmount work_per_op() const override;
  std::map<std::string, std::string> details() const override;

  std::size_t elements() const { return n_; }
  // Test hook: damages one value of the last run's output (the written array, or the dot sum).
  void corrupt_output_for_test();

 private:
  std::string verification_method() const override;
  void check_output(Verification& v) const override;
  void region(StreamOp op);  // one parallel kernel over all workers
  void slice(StreamOp op, std::size_t worker);
  void init_slice(std::size_t worker);

  std::shared_ptr<ThreadPool> pool_;
  StreamOp op_;
  std::size_t n_;
  AlignedBuffer a_, b_, c_;
  AlignedBuffer partial_sums_;  // one cache line per worker
  double dot_sum_ = 0;
  StreamOp current_ = StreamOp::copy;  // read by body_ inside a region
  bool initialising_ = false;
  std::function<void(std::size_t)> body_;  // built once: run() allocates nothing
};

}  // namespace gpusizer::kernels::cpu
