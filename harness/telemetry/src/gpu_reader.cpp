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

// Answers that will be the same at the next call: the metric is switched off.
bool is_permanent(nvmlReturn_t rc) {
  switch (rc) {
    case NVML_ERROR_NOT_SUPPORTED:
    case NVML_ERROR_NO_PERMISSION:
    case NVML_ERROR_FUNCTION_NOT_FOUND:
    case NVML_ERROR_INVALID_ARGUMENT:
    case NVML_ERROR_ARGUMENT_VERSION_MISMATCH:
    case NVML_ERROR_NOT_FOUND:
      return true;
    default:
      return false;
  }
}

}  // namespace

GpuReader::GpuReader(std::shared_ptr<NvmlLibrary> nvml, nvmlDevice_t device, ReaderScope scope)
    : nvml_(std::move(nvml)), device_(device) {
  const NvmlApi& api = nvml_->api();
  if (scope == ReaderScope::mig_slice) {  // the board's sensors are read on the parent
    instant_field_ = power_usage_ = energy_ = sm_clock_ = memory_clock_ = temperature_ = false;
    reasons_ = ecc_ = remapped_rows_ = retired_pages_ = retired_pages_pending_ = false;
    return;
  }
  read_default_clock();
  // Decide the power source once, with a probe read.
  read_power_watts(nullptr);
  if (instant_field_) {
    statics_.power_field = "instant";
  } else if (power_usage_) {
    statics_.power_field = "average (1 s)";
  }
  if (!api.clocks_event_reasons && api.clocks_throttle_reasons)
    statics_.notes.push_back(
        "clock-event reasons read with nvmlDeviceGetCurrentClocksThrottleReasons (deprecated; "
        "the driver lacks nvmlDeviceGetCurrentClocksEventReasons)");
  if (!api.temperature_v && api.temperature)
    statics_.notes.push_back(
        "temperature read with nvmlDeviceGetTemperature (deprecated; the driver lacks "
        "nvmlDeviceGetTemperatureV)");
}

void GpuReader::read_default_clock() {
  const NvmlApi& api = nvml_->api();
  unsigned int mhz = 0;
  bool default_clock = api.clock || api.default_applications_clock;
  bool found = false;
  if (api.clock) {
    found = ok(api.clock(device_, NVML_CLOCK_SM, NVML_CLOCK_ID_APP_CLOCK_DEFAULT, &mhz),
               default_clock, "default applications clock", nullptr) &&
            mhz > 0;
  } else if (api.default_applications_clock) {
    statics_.notes.push_back(
        "default clock read with nvmlDeviceGetDefaultApplicationsClock (the driver lacks "
        "nvmlDeviceGetClock)");
    found = ok(api.default_applications_clock(device_, NVML_CLOCK_SM, &mhz), default_clock,
               "default applications clock", nullptr) &&
            mhz > 0;
  }
  if (found) {
    statics_.default_sm_clock_mhz = mhz;
    statics_.default_sm_clock_source = "default applications clock";
    return;
  }
  bool max_clock = api.max_clock_info != nullptr;
  if (max_clock &&
      ok(api.max_clock_info(device_, NVML_CLOCK_SM, &mhz), max_clock, "max SM clock", nullptr) &&
      mhz > 0) {
    statics_.default_sm_clock_mhz = mhz;
    statics_.default_sm_clock_source = "max SM clock";
  }
}

bool GpuReader::ok(nvmlReturn_t rc, bool& enabled, const char* metric, GpuSample* sample) {
  if (rc == NVML_SUCCESS) return true;
  if (rc == NVML_ERROR_GPU_IS_LOST || rc == NVML_ERROR_RESET_REQUIRED) {
    if (lost_reason_.empty())
      lost_reason_ =
          std::string(rc == NVML_ERROR_GPU_IS_LOST ? "GPU is lost" : "GPU requires reset") + ": " +
          nvml_->error_text(rc);
    return false;
  }
  const std::string text = std::string(metric) + ": " + nvml_->error_text(rc);
  if (!is_permanent(rc)) {
    if (sample)
      sample->transient_errors.push_back(text);
    else
      statics_.notes.push_back(text + " (at start-up)");
    return false;
  }
  if (enabled) statics_.notes.push_back(text);
  enabled = false;
  return false;
}

std::optional<double> GpuReader::read_power_watts(GpuSample* sample) {
  const NvmlApi& api = nvml_->api();
  if (instant_field_ && api.field_values) {
    nvmlFieldValue_t v{};
    v.fieldId = NVML_FI_DEV_POWER_INSTANT;
    const nvmlReturn_t rc = api.field_values(device_, 1, &v);
    if (ok(rc, instant_field_, "power (NVML_FI_DEV_POWER_INSTANT)", sample) &&
        ok(v.nvmlReturn, instant_field_, "power (NVML_FI_DEV_POWER_INSTANT)", sample)) {
      if (auto mw = field_number(v)) return *mw / 1000.0;
      instant_field_ = false;
    }
    // A transient failure: no power in this sample rather than a reading of another kind.
    if (instant_field_) return std::nullopt;
  } else {
    instant_field_ = false;
  }
  if (lost()) return std::nullopt;
  if (power_usage_ && api.power_usage) {
    unsigned int mw = 0;
    if (ok(api.power_usage(device_, &mw), power_usage_, "power (nvmlDeviceGetPowerUsage)", sample))
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

void GpuReader::read_counters(GpuSample& s) {
  const NvmlApi& api = nvml_->api();
  if (ecc_ && api.total_ecc_errors) {
    unsigned long long corrected = 0, uncorrected = 0;
    if (ok(api.total_ecc_errors(device_, NVML_MEMORY_ERROR_TYPE_CORRECTED, NVML_VOLATILE_ECC,
                                &corrected),
           ecc_, "ECC counters", &s) &&
        ok(api.total_ecc_errors(device_, NVML_MEMORY_ERROR_TYPE_UNCORRECTED, NVML_VOLATILE_ECC,
                                &uncorrected),
           ecc_, "ECC counters", &s)) {
      s.ecc_corrected_volatile = corrected;
      s.ecc_uncorrected_volatile = uncorrected;
    }
  }
  if (!lost()) read_memory_health(s);
}

void GpuReader::read_memory_health(GpuSample& s) {
  const NvmlApi& api = nvml_->api();
  if (remapped_rows_ && has_symbol(api.remapped_rows != nullptr, remapped_rows_, "row remapping",
                                   "nvmlDeviceGetRemappedRows")) {
    unsigned int corrected = 0, uncorrected = 0, pending = 0, failure = 0;
    if (ok(api.remapped_rows(device_, &corrected, &uncorrected, &pending, &failure), remapped_rows_,
           "row remapping", &s)) {
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
      if (!ok(rc, retired_pages_, "retired pages", &s)) {
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
           "retired pages pending", &s))
      s.retired_pages_pending = pending == NVML_FEATURE_ENABLED;
  }
}

std::optional<GpuSample> GpuReader::read(double t_seconds, bool counters) {
  if (lost()) return std::nullopt;
  const NvmlApi& api = nvml_->api();
  GpuSample s;
  s.t_seconds = t_seconds;
  s.power_watts = read_power_watts(&s);
  if (energy_ && api.total_energy && !lost()) {
    unsigned long long mj = 0;
    if (ok(api.total_energy(device_, &mj), energy_, "energy counter", &s))
      s.energy_millijoules = mj;
  }
  if (utilization_ && api.utilization && !lost()) {
    nvmlUtilization_t u{};
    if (ok(api.utilization(device_, &u), utilization_, "utilization", &s)) {
      s.gpu_utilization_percent = u.gpu;
      s.memory_utilization_percent = u.memory;
    }
  }
  if (memory_info_ && api.memory_info && !lost()) {
    nvmlMemory_t m{};
    if (ok(api.memory_info(device_, &m), memory_info_, "memory used", &s)) {
      s.memory_used_bytes = m.used;
      s.memory_total_bytes = m.total;
    }
  }
  unsigned int value = 0;
  if (sm_clock_ && api.clock_info && !lost() &&
      ok(api.clock_info(device_, NVML_CLOCK_SM, &value), sm_clock_, "SM clock", &s))
    s.sm_clock_mhz = value;
  if (memory_clock_ && api.clock_info && !lost() &&
      ok(api.clock_info(device_, NVML_CLOCK_MEM, &value), memory_clock_, "memory clock", &s))
    s.memory_clock_mhz = value;
  if (temperature_ && !lost()) {
    if (api.temperature_v) {
      nvmlTemperature_t t{};
      t.version = nvmlTemperature_v1;
      t.sensorType = NVML_TEMPERATURE_GPU;
      if (ok(api.temperature_v(device_, &t), temperature_, "temperature", &s))
        s.temperature_celsius = t.temperature;
    } else if (api.temperature && ok(api.temperature(device_, NVML_TEMPERATURE_GPU, &value),
                                     temperature_, "temperature", &s)) {
      s.temperature_celsius = value;
    }
  }
  auto reasons_fn =
      api.clocks_event_reasons ? api.clocks_event_reasons : api.clocks_throttle_reasons;
  unsigned long long bits = 0;
  if (reasons_ && reasons_fn && !lost() &&
      ok(reasons_fn(device_, &bits), reasons_, "clock-event reasons", &s))
    s.clock_event_reasons = bits;
  if (counters && !lost()) read_counters(s);
  if (lost()) return std::nullopt;
  return s;
}

}  // namespace gpusizer::telemetry
