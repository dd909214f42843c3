// Walking NVML's device tree: physical GPUs by index and the MIG devices inside each.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "nvml_library.hpp"

namespace gpusizer::telemetry {

struct NvmlMigHandle {
  nvmlDevice_t handle = nullptr;
  std::string uuid;
};

struct NvmlGpuHandle {
  unsigned int index = 0;
  nvmlDevice_t handle = nullptr;
  std::string uuid;
  std::string name;
  std::optional<unsigned int> mig_current;  // NVML_DEVICE_MIG_ENABLE / DISABLE
  std::optional<unsigned int> mig_pending;
  std::vector<NvmlMigHandle> mig_devices;  // empty unless MIG is enabled
};

// Every GPU NVML can open (a GPU whose handle fails is skipped with a note in `notes`).
std::vector<NvmlGpuHandle> enumerate_gpus(const NvmlLibrary& nvml, std::vector<std::string>& notes);

std::string device_string(const NvmlLibrary& nvml, nvmlDevice_t device,
                          decltype(&::nvmlDeviceGetName) fn);

}  // namespace gpusizer::telemetry
