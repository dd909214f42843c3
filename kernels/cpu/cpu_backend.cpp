// Placeholder until the CPU backend lands (same commit series); every factory says so.
#include "gpusizer/host_info.hpp"
#include "gpusizer/kernels/discovery.hpp"

namespace gpusizer::kernels {
namespace {
class CpuBackend final : public Backend {
 public:
  CpuBackend() : target_(cpu_target()) {}
  const Target& target() const override { return target_; }
  std::unique_ptr<Workload> stream(const StreamCase&) override { throw Unsupported("CPU stream: not built yet"); }
  std::unique_ptr<Workload> copy(const CopyCase&) override { throw Unsupported("CPU copy: not built yet"); }
  std::unique_ptr<Workload> gemm(const GemmCase&) override { throw Unsupported("CPU gemm: not built yet"); }
  std::unique_ptr<Workload> io_pipeline(const IoCase&) override { throw Unsupported("CPU io: not built yet"); }
  std::vector<CopyKind> copy_kinds() const override { return {CopyKind::host_to_host}; }
  std::vector<Dtype> gemm_dtypes() const override { return {Dtype::f32, Dtype::f64}; }
 private:
  Target target_;
};
}  // namespace
std::unique_ptr<Backend> make_cpu_backend() { return std::make_unique<CpuBackend>(); }
}  // namespace gpusizer::kernels
