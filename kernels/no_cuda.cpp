// Stand-in linked when the build has no CUDA compiler: the binary still runs, with 0 GPUs and
// the reason stated in the report.
#include "gpusizer/kernels/discovery.hpp"

namespace gpusizer::kernels {

GpuDiscovery discover_cuda(const DiscoveryOptions&) {
  GpuDiscovery g;
  g.unavailable_reason = "this gpusizer was built without CUDA (no nvcc at configure time)";
  g.collectives_unavailable_reason = g.unavailable_reason;
  g.multi_gpu_unavailable_reason = g.unavailable_reason;
  return g;
}

bool built_with_cuda() {
  return false;
}

}  // namespace gpusizer::kernels
