// The CUDA backend of one visible GPU (or MIG slice), and discovery of all of them.
#include <cuda_runtime.h>

#include <algorithm>

#include "cuda_check.hpp"
#include "gpusizer/kernels/discovery.hpp"
#include "host/gemm_model.hpp"
#include "raii.hpp"
#include "workloads.hpp"

namespace gpusizer::kernels {
namespace cuda {
namespace {

class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(DeviceFacts facts) : facts_(std::move(facts)), target_(to_target(facts_)) {}
  const Target& target() const override { return target_; }
  // The primary context: created by the first runtime call that needs it on this device, and
  // kept until the process exits.
  void open_context() override {
    DeviceScope scope(facts_.index);
    GPUSIZER_CUDA_CALL(cudaFree(nullptr));
  }
  std::unique_ptr<Workload> stream(const StreamCase& c) override {
    return make_stream_workload(facts_, c);
  }
  std::unique_ptr<Workload> copy(const CopyCase& c) override {
    return make_copy_workload(facts_, c);
  }
  std::unique_ptr<Workload> gemm(const GemmCase& c) override {
    return make_gemm_workload(facts_, c);
  }
  std::unique_ptr<Workload> io_pipeline(const IoCase& c) override {
    return make_io_workload(facts_, c);
  }
  std::vector<CopyKind> copy_kinds() const override { return gpu_copy_kinds(); }
  std::vector<Dtype> gemm_dtypes() const override { return gpu_gemm_dtypes(); }

 private:
  DeviceFacts facts_;
  Target target_;
};

std::string no_gpu_reason(cudaError_t e) {
  switch (e) {
    case cudaErrorNoDevice:
      return "no CUDA device visible (cudaErrorNoDevice)";
    case cudaErrorInsufficientDriver:
      return "the NVIDIA driver is older than this CUDA runtime or missing "
             "(cudaErrorInsufficientDriver)";
    default:
      return std::string("CUDA is unavailable: ") + cudaGetErrorName(e) + " (" +
             cudaGetErrorString(e) + ")";
  }
}

}  // namespace
}  // namespace cuda

Discovery discover_cuda(const DiscoveryOptions& options) {
  Discovery g;
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    g.gpu_unavailable_reason = e != cudaSuccess ? cuda::no_gpu_reason(e) : "no CUDA device visible";
    cudaGetLastError();  // clear the sticky-free error so later calls start clean
    g.collectives_unavailable_reason = g.gpu_unavailable_reason;
    g.multi_gpu_unavailable_reason = g.gpu_unavailable_reason;
    return g;
  }
  std::vector<cuda::DeviceFacts> selected;
  for (int i = 0; i < count; ++i) {
    if (!options.gpu_indices.empty() &&
        std::find(options.gpu_indices.begin(), options.gpu_indices.end(), i) ==
            options.gpu_indices.end())
      continue;
    try {
      selected.push_back(cuda::read_device_facts(i, options));
    } catch (const std::exception& ex) {
      g.warnings.push_back("gpu" + std::to_string(i) + " skipped: " + ex.what());
    }
  }
  for (int wanted : options.gpu_indices)
    if (wanted < 0 || wanted >= count)
      g.warnings.push_back("requested GPU index " + std::to_string(wanted) + " does not exist (" +
                           std::to_string(count) + " visible)");
  if (selected.empty()) g.gpu_unavailable_reason = "none of the requested GPUs is visible";
  for (const auto& f : selected) g.backends.push_back(std::make_unique<cuda::CudaBackend>(f));
  // MIG slices have no peer access and no NCCL: multi-GPU work runs on whole GPUs only.
  std::vector<cuda::DeviceFacts> whole;
  for (const auto& f : selected)
    if (!f.is_mig) whole.push_back(f);
  g.multi_gpu = cuda::make_multi_gpu(whole, g.multi_gpu_unavailable_reason);
  g.collectives = cuda::make_nccl_group(whole, g.collectives_unavailable_reason);
  return g;
}

bool built_with_cuda() {
  return true;
}

}  // namespace gpusizer::kernels
