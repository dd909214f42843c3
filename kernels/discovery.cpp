// Assembles the backends of this machine: the CPU, then each GPU the CUDA layer finds.
#include "gpusizer/kernels/discovery.hpp"

namespace gpusizer::kernels {

Discovery discover(const DiscoveryOptions& options) {
  Discovery d;
  std::unique_ptr<Backend> cpu = options.cpu ? make_cpu_backend() : nullptr;
  if (options.gpus) {
    d = discover_cuda(options);
  } else {
    d.gpu_unavailable_reason = "GPUs not requested (--no-gpu)";
    d.collectives_unavailable_reason = d.gpu_unavailable_reason;
    d.multi_gpu_unavailable_reason = d.gpu_unavailable_reason;
  }
  if (cpu) d.backends.insert(d.backends.begin(), std::move(cpu));
  return d;
}

}  // namespace gpusizer::kernels
