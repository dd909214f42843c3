// The CPU as a benchmark target: STREAM and memcpy over host memory, OpenBLAS GEMM, and the
// storage -> host ring -> consumer I/O pipeline.
#include <memory>

#include "gemm_cpu.hpp"
#include "gpusizer/host_info.hpp"
#include "gpusizer/kernels/discovery.hpp"
#include "io_pipeline_cpu.hpp"
#include "memcpy_cpu.hpp"
#include "stream_cpu.hpp"
#include "thread_pool.hpp"

namespace gpusizer::kernels {
namespace {

class CpuBackend final : public Backend {
 public:
  CpuBackend() : target_(cpu_target()) {}
  const Target& target() const override { return target_; }

  std::unique_ptr<Workload> stream(const StreamCase& c) override {
    return std::make_unique<cpu::StreamCpu>(pool(), c);
  }
  std::unique_ptr<Workload> copy(const CopyCase& c) override {
    if (c.kind != CopyKind::host_to_host) {
      throw Unsupported("the CPU backend has host memory only: " + to_string(c.kind) +
                        " needs a GPU");
    }
    return std::make_unique<cpu::MemcpyCpu>(c);
  }
  std::unique_ptr<Workload> gemm(const GemmCase& c) override {
    return std::make_unique<cpu::GemmCpu>(c, static_cast<int>(cpu::allowed_cpu_count()));
  }
  std::unique_ptr<Workload> io_pipeline(const IoCase& c) override {
    return std::make_unique<cpu::IoPipelineCpu>(c);
  }
  std::vector<CopyKind> copy_kinds() const override { return {CopyKind::host_to_host}; }
  std::vector<Dtype> gemm_dtypes() const override { return {Dtype::f64, Dtype::f32}; }

 private:
  // Workers start on first use (a `devices` listing needs none) and are shared by every stream
  // workload of this backend.
  std::shared_ptr<cpu::ThreadPool> pool() {
    if (!pool_) pool_ = std::make_shared<cpu::ThreadPool>();
    return pool_;
  }

  Target target_;
  std::shared_ptr<cpu::ThreadPool> pool_;
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend() {
  return std::make_unique<CpuBackend>();
}

}  // namespace gpusizer::kernels
