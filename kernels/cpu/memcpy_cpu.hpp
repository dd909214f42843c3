// Host-to-host copy: one thread, plain std::memcpy, the same loop a user would time by hand
// (tools/memcpy_baseline is that loop; the two must agree within a few percent).
#pragma once

#include <cstddef>

#include "aligned_buffer.hpp"
#include "gpusizer/kernels/backend.hpp"

namespace gpusizer::kernels::cpu {

class MemcpyCpu final : public Workload {
 public:
  // Throws InputError when bytes == 0.
  explicit MemcpyCpu(const CopyCase& c);

  double run(std::size_t repeats) override;
  VerificationResult verify() override;
  WorkAmount work_per_op() const override;
  std::string timer() const override { return "steady_clock"; }
  std::map<std::string, std::string> details() const override;

  // Test hook: flips one byte of the destination.
  void corrupt_output_for_test();

 private:
  std::size_t bytes_;
  AlignedBuffer src_, dst_;
  std::size_t runs_done_ = 0;
};

}  // namespace gpusizer::kernels::cpu
