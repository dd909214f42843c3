// Walking NVML's device tree: physical GPUs by index and the MIG devices inside each.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpusizer/telemetry/nvml_inventory.hpp"
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
  std::string pci_bus_id;  // "00000000:53:00.0" (nvmlPciInfo_t busId); "" when unreadable
  std::optional<unsigned int> mig_current;  // NVML_DEVICE_MIG_ENABLE / DISABLE
  std::optional<unsigned int> mig_pending;
  std::vector<NvmlMigHandle> mig_devices;  // empty unless MIG is enabled
  // Why the MIG devices could not all be listed ("" when they could): an NVML error other than
  // NOT_FOUND (an empty slot), e.g. "nvmlDeviceGetMigDeviceHandleByIndex: NVML_ERROR_NO_PERMISSION
  // (Insufficient Permissions)" in a pod without MIG monitoring rights.
  std::string mig_enumeration_error;
};

// Every GPU NVML can open (a GPU whose handle fails is skipped with a note in `notes`).
std::vector<NvmlGpuHandle> enumerate_gpus(const NvmlLibrary& nvml, std::vector<std::string>& notes);

// A MIG device's GPU/compute instance IDs, attributes and profile name ("1g.18gb", from its
// device name, else derived from its attributes).
NvmlMigDevice describe_mig(const NvmlLibrary& nvml, const NvmlMigHandle& handle);

// "NVML_ERROR_NO_PERMISSION" for NVML_ERROR_NO_PERMISSION; "NVML error <code>" for others.
std::string nvml_error_name(nvmlReturn_t rc);

std::string device_string(const NvmlLibrary& nvml, nvmlDevice_t device,
                          decltype(&::nvmlDeviceGetName) fn);

}  // namespace gpusizer::telemetry
