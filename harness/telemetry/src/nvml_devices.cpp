#include "nvml_devices.hpp"

namespace gpusizer::telemetry {

std::string device_string(const NvmlLibrary&, nvmlDevice_t device,
                          decltype(&::nvmlDeviceGetName) fn) {
  if (!fn) return "";
  char buf[NVML_DEVICE_NAME_V2_BUFFER_SIZE + NVML_DEVICE_UUID_V2_BUFFER_SIZE] = {};
  if (fn(device, buf, sizeof buf) != NVML_SUCCESS) return "";
  return buf;
}

std::vector<NvmlGpuHandle> enumerate_gpus(const NvmlLibrary& nvml,
                                          std::vector<std::string>& notes) {
  const NvmlApi& api = nvml.api();
  std::vector<NvmlGpuHandle> gpus;
  unsigned int count = 0;
  if (nvmlReturn_t rc = api.device_count(&count); rc != NVML_SUCCESS) {
    notes.push_back("nvmlDeviceGetCount: " + nvml.error_text(rc));
    return gpus;
  }
  for (unsigned int i = 0; i < count; ++i) {
    NvmlGpuHandle g;
    g.index = i;
    if (nvmlReturn_t rc = api.handle_by_index(i, &g.handle); rc != NVML_SUCCESS) {
      notes.push_back("GPU " + std::to_string(i) + ": " + nvml.error_text(rc));
      continue;
    }
    g.uuid = device_string(nvml, g.handle, api.uuid);
    g.name = device_string(nvml, g.handle, api.name);
    unsigned int current = 0, pending = 0;
    if (api.mig_mode && api.mig_mode(g.handle, &current, &pending) == NVML_SUCCESS) {
      g.mig_current = current;
      g.mig_pending = pending;
    }
    unsigned int max_mig = 0;
    if (g.mig_current == NVML_DEVICE_MIG_ENABLE && api.max_mig_device_count &&
        api.mig_device_handle_by_index &&
        api.max_mig_device_count(g.handle, &max_mig) == NVML_SUCCESS) {
      for (unsigned int m = 0; m < max_mig; ++m) {
        NvmlMigHandle mig;
        // NOT_FOUND for unused indices: MIG devices need not be contiguous.
        if (api.mig_device_handle_by_index(g.handle, m, &mig.handle) != NVML_SUCCESS) continue;
        mig.uuid = device_string(nvml, mig.handle, api.uuid);
        g.mig_devices.push_back(std::move(mig));
      }
    }
    gpus.push_back(std::move(g));
  }
  return gpus;
}

}  // namespace gpusizer::telemetry
