// Assembles the backends of this machine: the CPU, then each GPU the CUDA layer finds.
#include "gpusizer/kernels/discovery.hpp"

namespace gpusizer::kernels {

Discovery discover(const DiscoveryOptions& options) {
  Discovery d;
  if (options.cpu) d.backends.push_back(make_cpu_backend());
  if (options.gpus) {
    GpuDiscovery g = discover_cuda(options);
    for (auto& b : g.backends) d.backends.push_back(std::move(b));
    d.gpu_unavailable_reason = g.unavailable_reason;
    d.collectives = std::move(g.collectives);
    d.collectives_unavailable_reason = g.collectives_unavailable_reason;
    d.multi_gpu = std::move(g.multi_gpu);
    d.multi_gpu_unavailable_reason = g.multi_gpu_unavailable_reason;
    d.warnings = std::move(g.warnings);
  } else {
    d.gpu_unavailable_reason = "GPUs not requested (--no-gpu)";
    d.collectives_unavailable_reason = d.gpu_unavailable_reason;
    d.multi_gpu_unavailable_reason = d.gpu_unavailable_reason;
  }
  return d;
}

}  // namespace gpusizer::kernels
