// Which device a CUDA device ordinal is: a whole GPU or a MIG slice, named as NVML names it.
// CUDA numbers only what CUDA_VISIBLE_DEVICES lets it see (a process on a machine with a GPU in
// MIG mode may see one slice and nothing else), so an ordinal says nothing by itself. Every CUDA
// device has a UUID (cudaDeviceProp::uuid: the GPU's, or the MIG device's for a slice), and NVML
// lists the same UUIDs ("GPU-<hex>", "MIG-<hex>"): matching the two names the device, finds a
// slice's parent GPU and gives the slice its board telemetry, whether the slice came from our
// own child runs or from a Kubernetes device plugin that set no CUDA_VISIBLE_DEVICES at all.
// Pure: the CUDA backend feeds it what cudaGetDeviceProperties returned.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpusizer/report.hpp"

namespace gpusizer::kernels {

struct DeviceIdentity {
  std::string id;  // "gpu3" (NVML index), "gpu0/mig-1g.10gb-gi13-ci0", or "gpu<ordinal>"
  TargetKind kind = TargetKind::gpu;       // gpu | mig
  std::string uuid;                        // "GPU-..." | "MIG-..."
  std::optional<std::string> parent;       // MIG: the parent GPU's id ("unknown" if not known)
  std::optional<std::string> mig_profile;  // MIG: "1g.10gb" ("unknown" if not known)
  std::optional<int> nvml_index;           // whole GPUs matched in NVML
  nlohmann::json attributes = nlohmann::json::object();  // the NVML target's (slice ids, ...)
  std::string identified_by;  // how: "NVML UUID", or why the fallback was taken
};

// `cuda_uuid`: the 16 bytes of cudaDeviceProp::uuid as lower-case hex, dashed 8-4-4-4-12, no
// prefix. `known`: the GPUs and MIG slices NVML lists (targets with NVML ids and UUIDs).
// `unlisted_mig_parents`: ids of GPUs in MIG mode whose slices NVML could not list. Without a
// UUID match the device is "gpu<ordinal>", or a MIG slice when CUDA's name carries " MIG ",
// CUDA_VISIBLE_DEVICES names MIG devices, or a GPU's slices could not be listed.
DeviceIdentity identify_device(const std::string& cuda_uuid, int cuda_ordinal,
                               const std::string& cuda_name, const std::vector<Target>& known,
                               const std::vector<std::string>& unlisted_mig_parents,
                               const std::optional<std::string>& cuda_visible_devices);

// "NVIDIA H100 80GB HBM3 MIG 1g.10gb" -> "1g.10gb"; "" when the name carries no profile.
std::string mig_profile_from_name(const std::string& name);

}  // namespace gpusizer::kernels
