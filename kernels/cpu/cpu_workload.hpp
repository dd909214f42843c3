// What every CPU workload shares: the steady clock as its timer, the count of ops run, and the
// first rule of verify(): a workload that has not run yet has no output to check.
#pragma once

#include <cstddef>
#include <string>

#include "gpusizer/kernels/backend.hpp"

namespace gpusizer::kernels::cpu {

class CpuWorkload : public Workload {
 public:
  Timer timer() const final { return Timer::steady_clock; }

  // The method always; "failed" before any run; otherwise check_output's verdict.
  Verification verify() final {
    Verification v;
    v.method = verification_method();
    if (runs_done_ == 0) {
      v.status = VerificationStatus::failed;
      v.detail = "verify() called before any run";
      return v;
    }
    check_output(v);
    return v;
  }

 protected:
  void count_runs(std::size_t repeats) { runs_done_ += repeats; }  // at the end of run()
  std::size_t runs_done() const { return runs_done_; }

 private:
  virtual std::string verification_method() const = 0;
  // Called after at least one run, with v.method set: sets v.status and v.detail.
  virtual void check_output(Verification& v) const = 0;

  std::size_t runs_done_ = 0;
};

}  // namespace gpusizer::kernels::cpu
