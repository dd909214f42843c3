#include "nvml_library.hpp"

#include <dlfcn.h>

#include <cstdlib>

namespace gpusizer::telemetry {
namespace {

template <typename Fn>
void resolve(void* handle, Fn& slot, const char* symbol) {
  slot = reinterpret_cast<Fn>(::dlsym(handle, symbol));
}

NvmlApi resolve_all(void* h) {
  NvmlApi a;
  resolve(h, a.init, "nvmlInit_v2");
  resolve(h, a.shutdown, "nvmlShutdown");
  resolve(h, a.error_string, "nvmlErrorString");
  resolve(h, a.driver_version, "nvmlSystemGetDriverVersion");
  resolve(h, a.device_count, "nvmlDeviceGetCount_v2");
  resolve(h, a.handle_by_index, "nvmlDeviceGetHandleByIndex_v2");
  resolve(h, a.name, "nvmlDeviceGetName");
  resolve(h, a.uuid, "nvmlDeviceGetUUID");
  resolve(h, a.index, "nvmlDeviceGetIndex");
  resolve(h, a.field_values, "nvmlDeviceGetFieldValues");
  resolve(h, a.power_usage, "nvmlDeviceGetPowerUsage");
  resolve(h, a.total_energy, "nvmlDeviceGetTotalEnergyConsumption");
  resolve(h, a.enforced_power_limit, "nvmlDeviceGetEnforcedPowerLimit");
  resolve(h, a.power_management_limit, "nvmlDeviceGetPowerManagementLimit");
  resolve(h, a.utilization, "nvmlDeviceGetUtilizationRates");
  resolve(h, a.memory_info, "nvmlDeviceGetMemoryInfo");
  resolve(h, a.clock_info, "nvmlDeviceGetClockInfo");
  resolve(h, a.max_clock_info, "nvmlDeviceGetMaxClockInfo");
  resolve(h, a.default_applications_clock, "nvmlDeviceGetDefaultApplicationsClock");
  resolve(h, a.clock, "nvmlDeviceGetClock");
  resolve(h, a.temperature, "nvmlDeviceGetTemperature");
  resolve(h, a.temperature_v, "nvmlDeviceGetTemperatureV");
  resolve(h, a.clocks_event_reasons, "nvmlDeviceGetCurrentClocksEventReasons");
  resolve(h, a.clocks_throttle_reasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
  resolve(h, a.total_ecc_errors, "nvmlDeviceGetTotalEccErrors");
  resolve(h, a.remapped_rows, "nvmlDeviceGetRemappedRows");
  resolve(h, a.retired_pages, "nvmlDeviceGetRetiredPages");
  resolve(h, a.retired_pages_pending, "nvmlDeviceGetRetiredPagesPendingStatus");
  resolve(h, a.mig_mode, "nvmlDeviceGetMigMode");
  resolve(h, a.max_mig_device_count, "nvmlDeviceGetMaxMigDeviceCount");
  resolve(h, a.mig_device_handle_by_index, "nvmlDeviceGetMigDeviceHandleByIndex");
  resolve(h, a.is_mig_device_handle, "nvmlDeviceIsMigDeviceHandle");
  resolve(h, a.gpu_instance_id, "nvmlDeviceGetGpuInstanceId");
  resolve(h, a.compute_instance_id, "nvmlDeviceGetComputeInstanceId");
  resolve(h, a.attributes, "nvmlDeviceGetAttributes_v2");
  resolve(h, a.pci_info, "nvmlDeviceGetPciInfo_v3");
  return a;
}

}  // namespace

std::shared_ptr<NvmlLibrary> NvmlLibrary::open(std::string& why_not) {
  const char* overridden = std::getenv("GPUSIZER_NVML_LIBRARY");
  const std::string path = overridden && *overridden ? overridden : "libnvidia-ml.so.1";
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* err = ::dlerror();
    why_not = "cannot load " + path + " (no NVIDIA driver?): " + (err ? err : "dlopen failed");
    return nullptr;
  }
  NvmlApi api = resolve_all(handle);
  if (!api.init || !api.device_count || !api.handle_by_index) {
    ::dlclose(handle);
    why_not = path + " lacks nvmlInit_v2/nvmlDeviceGetCount_v2/nvmlDeviceGetHandleByIndex_v2";
    return nullptr;
  }
  const nvmlReturn_t rc = api.init();
  if (rc != NVML_SUCCESS) {
    why_not = "nvmlInit failed: " + std::string(api.error_string ? api.error_string(rc) : "error") +
              " (code " + std::to_string(static_cast<int>(rc)) + ")";
    ::dlclose(handle);
    return nullptr;
  }
  return std::shared_ptr<NvmlLibrary>(new NvmlLibrary(handle, path, api));
}

NvmlLibrary::~NvmlLibrary() {
  if (api_.shutdown) api_.shutdown();
  ::dlclose(handle_);
}

std::string NvmlLibrary::error_text(nvmlReturn_t rc) const {
  std::string text = api_.error_string ? api_.error_string(rc) : "NVML error";
  return text + " (code " + std::to_string(static_cast<int>(rc)) + ")";
}

}  // namespace gpusizer::telemetry
