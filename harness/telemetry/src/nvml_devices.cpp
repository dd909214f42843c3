#include "nvml_devices.hpp"

#include <cmath>

namespace gpusizer::telemetry {

std::string device_string(const NvmlLibrary&, nvmlDevice_t device,
                          decltype(&::nvmlDeviceGetName) fn) {
  if (!fn) return "";
  char buf[NVML_DEVICE_NAME_V2_BUFFER_SIZE + NVML_DEVICE_UUID_V2_BUFFER_SIZE] = {};
  if (fn(device, buf, sizeof buf) != NVML_SUCCESS) return "";
  return buf;
}

namespace {

// "NVIDIA H200 MIG 1g.18gb" -> "1g.18gb"; "" when the name carries no profile.
std::string profile_from_name(const std::string& name) {
  const auto at = name.find("MIG ");
  if (at == std::string::npos) return "";
  std::string rest = name.substr(at + 4);
  const auto end = rest.find(' ');
  if (end != std::string::npos) rest = rest.substr(0, end);
  if (rest.size() < 4 || rest.find('g') == std::string::npos) return "";
  return rest;
}

std::string describe(const NvmlLibrary& nvml, const char* call, nvmlReturn_t rc) {
  return std::string(call) + ": " + nvml_error_name(rc) + " (" + nvml.error_text(rc) + ")";
}

// Only NOT_FOUND is an empty slot (MIG devices need not be contiguous). Any other error (no
// permission in a pod without MIG monitoring rights, an uninitialised driver...) means the list
// is incomplete: it is recorded, never taken for "no slices".
void list_mig_devices(const NvmlLibrary& nvml, NvmlGpuHandle& g) {
  const NvmlApi& api = nvml.api();
  if (!api.max_mig_device_count || !api.mig_device_handle_by_index) {
    g.mig_enumeration_error =
        "nvmlDeviceGetMaxMigDeviceCount / nvmlDeviceGetMigDeviceHandleByIndex missing in this "
        "driver";
    return;
  }
  unsigned int max_mig = 0;
  if (nvmlReturn_t rc = api.max_mig_device_count(g.handle, &max_mig); rc != NVML_SUCCESS) {
    g.mig_enumeration_error = describe(nvml, "nvmlDeviceGetMaxMigDeviceCount", rc);
    return;
  }
  for (unsigned int m = 0; m < max_mig; ++m) {
    NvmlMigHandle mig;
    const nvmlReturn_t rc = api.mig_device_handle_by_index(g.handle, m, &mig.handle);
    if (rc == NVML_ERROR_NOT_FOUND) continue;
    if (rc != NVML_SUCCESS) {
      if (g.mig_enumeration_error.empty())
        g.mig_enumeration_error = describe(nvml, "nvmlDeviceGetMigDeviceHandleByIndex", rc);
      continue;
    }
    mig.uuid = device_string(nvml, mig.handle, api.uuid);
    g.mig_devices.push_back(std::move(mig));
  }
}

}  // namespace

NvmlMigDevice describe_mig(const NvmlLibrary& nvml, const NvmlMigHandle& h) {
  const NvmlApi& api = nvml.api();
  NvmlMigDevice d;
  d.uuid = h.uuid;
  if (api.gpu_instance_id) api.gpu_instance_id(h.handle, &d.gpu_instance_id);
  if (api.compute_instance_id) api.compute_instance_id(h.handle, &d.compute_instance_id);
  nvmlDeviceAttributes_t attrs{};
  const bool have_attrs = api.attributes && api.attributes(h.handle, &attrs) == NVML_SUCCESS;
  if (have_attrs) {
    d.sm_count = attrs.multiprocessorCount;
    d.gpu_instance_slices = attrs.gpuInstanceSliceCount;
    d.compute_instance_slices = attrs.computeInstanceSliceCount;
    d.memory_bytes = attrs.memorySizeMB * 1024ULL * 1024ULL;
  }
  d.profile = profile_from_name(device_string(nvml, h.handle, api.name));
  if (!d.profile.empty()) {
    d.profile_source = "device name";
  } else if (have_attrs) {
    const auto gb = static_cast<unsigned long long>(
        std::ceil(static_cast<double>(attrs.memorySizeMB) / 1024.0));
    d.profile = std::to_string(attrs.gpuInstanceSliceCount) + "g." + std::to_string(gb) + "gb";
    d.profile_source = "derived from attributes (g, MiB)";
  } else {
    d.profile = "unknown";
    d.profile_source = "unavailable";
  }
  return d;
}

std::string nvml_error_name(nvmlReturn_t rc) {
  switch (rc) {
    case NVML_SUCCESS:
      return "NVML_SUCCESS";
    case NVML_ERROR_UNINITIALIZED:
      return "NVML_ERROR_UNINITIALIZED";
    case NVML_ERROR_INVALID_ARGUMENT:
      return "NVML_ERROR_INVALID_ARGUMENT";
    case NVML_ERROR_NOT_SUPPORTED:
      return "NVML_ERROR_NOT_SUPPORTED";
    case NVML_ERROR_NO_PERMISSION:
      return "NVML_ERROR_NO_PERMISSION";
    case NVML_ERROR_NOT_FOUND:
      return "NVML_ERROR_NOT_FOUND";
    case NVML_ERROR_INSUFFICIENT_SIZE:
      return "NVML_ERROR_INSUFFICIENT_SIZE";
    case NVML_ERROR_DRIVER_NOT_LOADED:
      return "NVML_ERROR_DRIVER_NOT_LOADED";
    case NVML_ERROR_TIMEOUT:
      return "NVML_ERROR_TIMEOUT";
    case NVML_ERROR_GPU_IS_LOST:
      return "NVML_ERROR_GPU_IS_LOST";
    case NVML_ERROR_RESET_REQUIRED:
      return "NVML_ERROR_RESET_REQUIRED";
    case NVML_ERROR_IN_USE:
      return "NVML_ERROR_IN_USE";
    case NVML_ERROR_MEMORY:
      return "NVML_ERROR_MEMORY";
    case NVML_ERROR_UNKNOWN:
      return "NVML_ERROR_UNKNOWN";
    default:
      return "NVML error " + std::to_string(static_cast<int>(rc));
  }
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
    nvmlPciInfo_t pci{};
    if (api.pci_info && api.pci_info(g.handle, &pci) == NVML_SUCCESS) g.pci_bus_id = pci.busId;
    unsigned int current = 0, pending = 0;
    if (api.mig_mode && api.mig_mode(g.handle, &current, &pending) == NVML_SUCCESS) {
      g.mig_current = current;
      g.mig_pending = pending;
    }
    if (g.mig_current == NVML_DEVICE_MIG_ENABLE) list_mig_devices(nvml, g);
    gpus.push_back(std::move(g));
  }
  return gpus;
}

}  // namespace gpusizer::telemetry
