// NVML loaded with dlopen at run time (libnvidia-ml.so.1, or GPUSIZER_NVML_LIBRARY), so gpusizer
// runs on machines without a driver. Every function is resolved with dlsym into a table; a symbol
// an older driver lacks stays null and only the metric that needs it is disabled.
// Types and prototypes come from NVIDIA's real nvml.h (never declared by hand here).
#pragma once

#include <memory>
#include <string>

#include <nvml.h>

namespace gpusizer::telemetry {

// Function table. Names are the versioned symbols nvml.h maps its macros to (nvmlInit ->
// nvmlInit_v2 ...). Any pointer may be null.
struct NvmlApi {
  decltype(&::nvmlInit_v2) init = nullptr;
  decltype(&::nvmlShutdown) shutdown = nullptr;
  decltype(&::nvmlErrorString) error_string = nullptr;
  decltype(&::nvmlSystemGetDriverVersion) driver_version = nullptr;
  decltype(&::nvmlDeviceGetCount_v2) device_count = nullptr;
  decltype(&::nvmlDeviceGetHandleByIndex_v2) handle_by_index = nullptr;
  decltype(&::nvmlDeviceGetName) name = nullptr;
  decltype(&::nvmlDeviceGetUUID) uuid = nullptr;
  decltype(&::nvmlDeviceGetIndex) index = nullptr;
  decltype(&::nvmlDeviceGetFieldValues) field_values = nullptr;
  decltype(&::nvmlDeviceGetPowerUsage) power_usage = nullptr;
  decltype(&::nvmlDeviceGetTotalEnergyConsumption) total_energy = nullptr;
  decltype(&::nvmlDeviceGetEnforcedPowerLimit) enforced_power_limit = nullptr;
  decltype(&::nvmlDeviceGetPowerManagementLimit) power_management_limit = nullptr;
  decltype(&::nvmlDeviceGetUtilizationRates) utilization = nullptr;
  decltype(&::nvmlDeviceGetMemoryInfo) memory_info = nullptr;  // framebuffer total/used/free
  decltype(&::nvmlDeviceGetClockInfo) clock_info = nullptr;
  decltype(&::nvmlDeviceGetMaxClockInfo) max_clock_info = nullptr;
  decltype(&::nvmlDeviceGetDefaultApplicationsClock) default_applications_clock = nullptr;
  decltype(&::nvmlDeviceGetClock) clock = nullptr;  // current name for the default clock
  decltype(&::nvmlDeviceGetTemperature) temperature = nullptr;  // deprecated: TemperatureV
  decltype(&::nvmlDeviceGetTemperatureV) temperature_v = nullptr;
  decltype(&::nvmlDeviceGetCurrentClocksEventReasons) clocks_event_reasons = nullptr;
  decltype(&::nvmlDeviceGetCurrentClocksThrottleReasons) clocks_throttle_reasons = nullptr;
  decltype(&::nvmlDeviceGetTotalEccErrors) total_ecc_errors = nullptr;
  decltype(&::nvmlDeviceGetRemappedRows) remapped_rows = nullptr;
  decltype(&::nvmlDeviceGetRetiredPages) retired_pages = nullptr;
  decltype(&::nvmlDeviceGetRetiredPagesPendingStatus) retired_pages_pending = nullptr;
  decltype(&::nvmlDeviceGetMigMode) mig_mode = nullptr;
  decltype(&::nvmlDeviceGetMaxMigDeviceCount) max_mig_device_count = nullptr;
  decltype(&::nvmlDeviceGetMigDeviceHandleByIndex) mig_device_handle_by_index = nullptr;
  decltype(&::nvmlDeviceIsMigDeviceHandle) is_mig_device_handle = nullptr;
  decltype(&::nvmlDeviceGetGpuInstanceId) gpu_instance_id = nullptr;
  decltype(&::nvmlDeviceGetComputeInstanceId) compute_instance_id = nullptr;
  decltype(&::nvmlDeviceGetAttributes_v2) attributes = nullptr;
  decltype(&::nvmlDeviceGetPciInfo_v3) pci_info = nullptr;  // busId: dcgm-exporter's pci_bus_id
};

// One loaded and initialised NVML; shutdown and dlclose on destruction. Shared by the probes
// that use it (shared_ptr), so it outlives every sampler thread.
class NvmlLibrary {
 public:
  // Null with `why_not` set when NVML cannot be used here (no library, init failed...).
  static std::shared_ptr<NvmlLibrary> open(std::string& why_not);

  ~NvmlLibrary();
  NvmlLibrary(const NvmlLibrary&) = delete;
  NvmlLibrary& operator=(const NvmlLibrary&) = delete;

  const NvmlApi& api() const { return api_; }
  const std::string& path() const { return path_; }
  std::string error_text(nvmlReturn_t rc) const;

 private:
  NvmlLibrary(void* handle, std::string path, const NvmlApi& api)
      : handle_(handle), path_(std::move(path)), api_(api) {}

  void* handle_;
  std::string path_;
  NvmlApi api_;
};

}  // namespace gpusizer::telemetry
