// Host-to-host copy: one thread, plain std::memcpy, the same loop a user would time by hand
// (tools/memcpy_baseline is that loop; the two must agree within a few percent).
#pragma once

#include <cstddef>

#include "aligned_buffer.hpp"
#include "cpu_workload.hpp"

namespace gpusizer::kernels::cpu {

class MemcpyCpu final : public CpuWorkload {
 public:
  // Throws InputError when bytes == 0.
  explicit MemcpyCpu(const CopyCase& c);

  double run(std::size_t repeats) override;
  WorkAmount work_per_op() const override;
  std::map<std::string, std::string> details() const override;

  // Test hook: flips one byte of the destination.
  void corrupt_output_for_test();

 private:
  std::string verification_method() const override;
  void check_output(Verification& v) const override;
  std::size_t bytes_;
  AlignedBuffer src_, dst_;
};

}  // namespace gpusizer::kernels::cpu
