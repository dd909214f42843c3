// Finds what this machine can benchmark: always the CPU, plus each CUDA GPU when built with CUDA
// and a driver is present. A machine without a driver has 0 GPUs and a reason; nothing throws.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gpusizer/kernels/backend.hpp"
#include "gpusizer/kernels/collectives.hpp"
#include "gpusizer/kernels/multi_gpu.hpp"

namespace gpusizer::kernels {

struct DiscoveryOptions {
  bool cpu = true;
  bool gpus = true;
  std::vector<int> gpu_indices;  // CUDA ordinals; empty = all CUDA exposes
  // The GPUs and MIG slices NVML lists (targets with NVML ids and UUIDs): each CUDA device is
  // named by its UUID from this list (identify_device, device_identity.hpp). Empty: NVML is
  // unavailable and devices are "gpu<CUDA ordinal>".
  std::vector<Target> known_devices;
  // GPUs in MIG mode whose slices NVML could not list (e.g. NVML_ERROR_NO_PERMISSION).
  std::vector<std::string> gpus_with_unlisted_slices;
};

struct Discovery {
  std::vector<std::unique_ptr<Backend>> backends;  // the CPU first, then GPUs in index order
  std::string gpu_unavailable_reason;  // why there are no GPU backends ("" when there are some)
  std::unique_ptr<CollectiveGroup> collectives;  // null when fewer than 2 GPUs
  std::string collectives_unavailable_reason;
  std::unique_ptr<MultiGpu> multi_gpu;  // null when fewer than 2 GPUs
  std::string multi_gpu_unavailable_reason;
  std::vector<std::string> warnings;
};

Discovery discover(const DiscoveryOptions& options);

// Implemented by kernels/cpu.
std::unique_ptr<Backend> make_cpu_backend();
// Implemented by kernels/cuda (or by the stand-in when built without CUDA): the GPUs alone, no
// CPU backend; discover() puts the CPU's first.
Discovery discover_cuda(const DiscoveryOptions& options);
// True when this binary was built with the CUDA backend.
bool built_with_cuda();

}  // namespace gpusizer::kernels
