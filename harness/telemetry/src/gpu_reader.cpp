#include "gpu_reader.hpp"

#include <cstdint>

namespace gpusizer::telemetry {
namespace {

std::optional<double> field_number(const nvmlFieldValue_t& v) {
  switch (v.valueType) {
    case NVML_VALUE_TYPE_DOUBLE:
      return v.value.dVal;
    case NVML_VALUE_TYPE_UNSIGNED_INT:
      return static_cast<double>(v.value.uiVal);
    case NVML_VALUE_TYPE_UNSIGNED_LONG:
      return static_cast<double>(v.value.ulVal);
    case NVML_VALUE_TYPE_UNSIGNED_LONG_LONG:
      return static_cast<double>(v.value.ullVal);
    case NVML_VALUE_TYPE_SIGNED_LONG_LONG:
      return static_cast<double>(v.value.sllVal);
    case NVML_VALUE_TYPE_SIGNED_INT:
      return static_cast<double>(v.value.siVal);
    default:
      return std::nullopt;
  }
}

}  // namespace

GpuReader::GpuReader(std::shared_ptr<NvmlLibrary> nvml, nvmlDevice_t device)
    : nvml_(std::move(nvml)), device_(device) {
  const NvmlApi& api = nvml_->api();
  unsigned int mhz = 0;
  bool default_clock = api.default_applications_clock != nullptr;
  if (default_clock &&
      ok(api.default_applications_clock(device_, NVML_CLOCK_SM, &mhz), default_clock,
         "default applications clock") &&
      mhz > 0) {
    statics_.default_sm_clock_mhz = mhz;
    statics_.default_sm_clock_source = "default applications clock";
  } else {
    bool max_clock = api.max_clock_info != nullptr;
    if (max_clock &&
        ok(api.max_clock_info(device_, NVML_CLOCK_SM, &mhz), max_clock, "max SM clock") &&
        mhz > 0) {
      statics_.default_sm_clock_mhz = mhz;
      statics_.default_sm_clock_source = "max SM clock";
    }
  }
  // Decide the power source once, with a probe read.
  read_power_watts();
  if (instant_field_) {
    statics_.power_field = "instant";
  } else if (power_usage_) {
    statics_.power_field = "average (1 s)";
  }
  if (!api.clocks_event_reasons && api.clocks_throttle_reasons)
    statics_.notes.push_back(
        "clock-event reasons read with nvmlDeviceGetCurrentClocksThrottleReasons");
}

bool GpuReader::ok(nvmlReturn_t rc, bool& enabled, const char* metric) {
  if (rc == NVML_SUCCESS) return true;
  if (rc == NVML_ERROR_GPU_IS_LOST) {
    if (lost_reason_.empty()) lost_reason_ = "GPU is lost: " + nvml_->error_text(rc);
    return false;
  }
  if (enabled) statics_.notes.push_back(std::string(metric) + ": " + nvml_->error_text(rc));
  enabled = false;
  return false;
}

std::optional<double> GpuReader::read_power_watts() {
  const NvmlApi& api = nvml_->api();
  if (instant_field_ && api.field_values) {
    nvmlFieldValue_t v{};
    v.fieldId = NVML_FI_DEV_POWER_INSTANT;
    const nvmlReturn_t rc = api.field_values(device_, 1, &v);
    if (ok(rc, instant_field_, "power (NVML_FI_DEV_POWER_INSTANT)") &&
        ok(v.nvmlReturn, instant_field_, "power (NVML_FI_DEV_POWER_INSTANT)")) {
      if (auto mw = field_number(v)) return *mw / 1000.0;
      instant_field_ = false;
    }
  } else {
    instant_field_ = false;
  }
  if (lost()) return std::nullopt;
  if (power_usage_ && api.power_usage) {
    unsigned int mw = 0;
    if (ok(api.power_usage(device_, &mw), power_usage_, "power (nvmlDeviceGetPowerUsage)"))
      return mw / 1000.0;
  } else if (power_usage_) {
    power_usage_ = false;
    statics_.notes.push_back("power: nvmlDeviceGetPowerUsage missing in this driver");
  }
  return std::nullopt;
}

bool GpuReader::has_symbol(bool present, bool& enabled, const char* metric, const char* symbol) {
  if (present) return true;
  if (enabled)
    statics_.notes.push_back(std::string(metric) + ": " + symbol + " missing in this driver");
  enabled = false;
  return false;
}

void GpuReader::read_memory_health(GpuSample& s) {
  const NvmlApi& api = nvml_->api();
  if (remapped_rows_ && has_symbol(api.remapped_rows != nullptr, remapped_rows_, "row remapping",
                                   "nvmlDeviceGetRemappedRows")) {
    unsigned int corrected = 0, uncorrected = 0, pending = 0, failure = 0;
    if (ok(api.remapped_rows(device_, &corrected, &uncorrected, &pending, &failure), remapped_rows_,
           "row remapping")) {
      s.remapped_rows_corrected = corrected;
      s.remapped_rows_uncorrected = uncorrected;
      s.row_remap_pending = pending != 0;
      s.row_remap_failure = failure != 0;
    }
  }
  if (lost()) return;
  if (retired_pages_ && has_symbol(api.retired_pages != nullptr, retired_pages_, "retired pages",
                                   "nvmlDeviceGetRetiredPages")) {
    std::uint64_t total = 0;
    bool all = true;
    for (auto cause : {NVML_PAGE_RETIREMENT_CAUSE_MULTIPLE_SINGLE_BIT_ECC_ERRORS,
                       NVML_PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR}) {
      // pageCount 0 and no buffer: only the count comes back (INSUFFICIENT_SIZE when > 0).
      unsigned int count = 0;
      nvmlReturn_t rc = api.retired_pages(device_, cause, &count, nullptr);
      if (rc == NVML_ERROR_INSUFFICIENT_SIZE) rc = NVML_SUCCESS;
      if (!ok(rc, retired_pages_, "retired pages")) {
        all = false;
        break;
      }
      total += count;
    }
    if (all) s.retired_pages = total;
  }
  if (lost()) return;
  if (retired_pages_pending_ &&
      has_symbol(api.retired_pages_pending != nullptr, retired_pages_pending_,
                 "retired pages pending", "nvmlDeviceGetRetiredPagesPendingStatus")) {
    nvmlEnableState_t pending = NVML_FEATURE_DISABLED;
    if (ok(api.retired_pages_pending(device_, &pending), retired_pages_pending_,
           "retired pages pending"))
      s.retired_pages_pending = pending == NVML_FEATURE_ENABLED;
  }
}

std::optional<GpuSample> GpuReader::read(double t_seconds, bool memory_health) {
  if (lost()) return std::nullopt;
  const NvmlApi& api = nvml_->api();
  GpuSample s;
  s.t_seconds = t_seconds;
  s.power_watts = read_power_watts();
  if (energy_ && api.total_energy) {
    unsigned long long mj = 0;
    if (ok(api.total_energy(device_, &mj), energy_, "energy counter")) s.energy_millijoules = mj;
  }
  if (utilization_ && api.utilization) {
    nvmlUtilization_t u{};
    if (ok(api.utilization(device_, &u), utilization_, "utilization")) {
      s.gpu_utilization_percent = u.gpu;
      s.memory_utilization_percent = u.memory;
    }
  }
  unsigned int value = 0;
  if (sm_clock_ && api.clock_info &&
      ok(api.clock_info(device_, NVML_CLOCK_SM, &value), sm_clock_, "SM clock"))
    s.sm_clock_mhz = value;
  if (memory_clock_ && api.clock_info &&
      ok(api.clock_info(device_, NVML_CLOCK_MEM, &value), memory_clock_, "memory clock"))
    s.memory_clock_mhz = value;
  if (temperature_ && api.temperature &&
      ok(api.temperature(device_, NVML_TEMPERATURE_GPU, &value), temperature_, "temperature"))
    s.temperature_celsius = value;
  auto reasons_fn =
      api.clocks_event_reasons ? api.clocks_event_reasons : api.clocks_throttle_reasons;
  unsigned long long bits = 0;
  if (reasons_ && reasons_fn && ok(reasons_fn(device_, &bits), reasons_, "clock-event reasons"))
    s.clock_event_reasons = bits;
  if (ecc_ && api.total_ecc_errors) {
    unsigned long long corrected = 0, uncorrected = 0;
    if (ok(api.total_ecc_errors(device_, NVML_MEMORY_ERROR_TYPE_CORRECTED, NVML_VOLATILE_ECC,
                                &corrected),
           ecc_, "ECC counters") &&
        ok(api.total_ecc_errors(device_, NVML_MEMORY_ERROR_TYPE_UNCORRECTED, NVML_VOLATILE_ECC,
                                &uncorrected),
           ecc_, "ECC counters")) {
      s.ecc_corrected_volatile = corrected;
      s.ecc_uncorrected_volatile = uncorrected;
    }
  }
  if (memory_health && !lost()) read_memory_health(s);
  if (lost()) return std::nullopt;
  return s;
}

}  // namespace gpusizer::telemetry
