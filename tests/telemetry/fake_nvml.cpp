// A fake libnvidia-ml for tests: the same C ABI as the NVML functions gpusizer resolves with
// dlsym (prototypes from NVIDIA's nvml.h), driven by a JSON scenario named in
// GPUSIZER_FAKE_NVML_SCENARIO. Time is virtual when a test sets it with
// gpusizer_fake_nvml_set_time(seconds), otherwise wall time since nvmlInit.
// Scenario (all optional except gpus):
//   {"init_error": "DRIVER_NOT_LOADED", "driver_version": "570.86.15",
//    "energy_update_ms": 100, "power_average_window_s": 1, "call_latency_us": {...},
//    "gpus": [{"name", "uuid", "power_limit_mw", "default_app_sm_clock_mhz", "max_sm_clock_mhz",
//              "max_mem_clock_mhz", "instant_power": true, "energy_base_mj", "lost_at": s,
//              "reset_required_at": s, "energy_update_ms", "power_average_window_s",
//              "not_supported": ["nvmlDeviceGetUtilizationRates", ...],
//              "transient_errors": [{"call": "nvmlDeviceGetClockInfo", "from": s, "to": s,
//                                    "error": "UNKNOWN"}, ...],
//              "trace": {"power_w" | "sm_clock_mhz" | "mem_clock_mhz" | "gpu_util" | "mem_util" |
//                        "temp_c" | "reasons" | "ecc_corrected" | "ecc_uncorrected" |
//                        "fb_used_mib" (framebuffer in use; the size is memory_mb):
//                        [[t, value], ...] (piecewise constant from t on)},
//              "remapped_rows": [[t, corrected, uncorrected, pending, failure], ...],
//              "retired_pages": [[t, multiple_sbe_count, dbe_count, pending], ...]
//                (piecewise constant from t on; absent: zero rows/pages, nothing pending),
//              "pci_bus_id": "00000000:53:00.0" (default 00000000:<0x18 + 0x10 x index>:00.0),
//              "mig": {"current": 1, "pending": 1, "max_devices": 7,
//                      "devices": [{"slot", "uuid", "gi", "ci", "profile", "sm_count",
//                                   "memory_mb", "gi_slices", "ci_slices", "name_has_profile",
//                                   "utilization": false (true: answers with its own traces),
//                                   "trace": {"fb_used_mib" | "gpu_util" | "mem_util": ...}}]},
//              "mig_enumeration_error": "NO_PERMISSION"}]}
//   mig_enumeration_error: nvmlDeviceGetMigDeviceHandleByIndex returns that error for every slot
//     (populated or empty), as in a pod without MIG monitoring rights; without it an empty slot
//     is NOT_FOUND and a populated one gives its handle.
// What makes it behave like a real driver (measured on an H200, driver 580; docs/telemetry.md):
//   energy_update_ms: the total-energy counter advances only every this many ms (default 100,
//     as a real driver: a read returns the integral up to the last update); 0 = the exact
//     integral at the moment of the call. Top level or per GPU (the GPU's wins).
//   power_average_window_s: nvmlDeviceGetPowerUsage and field NVML_FI_DEV_POWER_AVERAGE return
//     the mean of the power trace over this many seconds before the call (default 1, as
//     Ampere+); 0 = the instantaneous trace value. NVML_FI_DEV_POWER_INSTANT is always instant.
//   call_latency_us: a number (every device call) or {"nvmlDeviceGetTotalEnergyConsumption":
//     3300, "default": 8}; each device call then takes that long while holding one lock for the
//     whole library, as the driver's (calls from several threads serialise). Absent: free.
//   transient_errors: the named call fails with `error` (UNKNOWN, TIMEOUT, ...) for from <= t <
//     to, and works again afterwards.
//   reset_required_at: from t on, every device call returns NVML_ERROR_RESET_REQUIRED.
//   A GPU in MIG mode (mig.current 1) answers NOT_SUPPORTED to nvmlDeviceGetRemappedRows, as
//   the real driver does.
// Errors by name (init_error, mig_enumeration_error, transient_errors): DRIVER_NOT_LOADED,
// NO_PERMISSION, NOT_SUPPORTED, NOT_FOUND, GPU_IS_LOST, RESET_REQUIRED, TIMEOUT; anything else
// is UNKNOWN.
// Built twice: libgpusizer_fake_nvml.so has the current names (nvmlDeviceGetCurrentClocks-
// EventReasons, nvmlDeviceGetTemperatureV, nvmlDeviceGetClock) beside the deprecated ones, as
// driver 580 does; libgpusizer_fake_nvml_legacy.so (GPUSIZER_FAKE_NVML_LEGACY) lacks the current
// names, like an older driver, so callers must fall back to the deprecated ones.
#include <nvml.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

struct nvmlDevice_st {
  int gpu = 0;
  int mig = -1;  // index into the GPU's mig.devices, -1 for the physical GPU
};

namespace {

using nlohmann::json;

struct State {
  std::mutex mutex;
  int refcount = 0;
  json scenario;
  std::deque<nvmlDevice_st> handles;
  std::chrono::steady_clock::time_point init_time;
  std::atomic<double> virtual_time{-1.0};
  // call_latency_us, parsed at init: per function, and the default for the others.
  std::map<std::string, double> latency_us;
  double default_latency_us = 0;
  std::mutex driver_lock;  // held for the duration of a call that has a latency
};

State& state() {
  static State s;
  return s;
}

double now_seconds() {
  const double v = state().virtual_time.load();
  if (v >= 0) return v;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - state().init_time)
      .count();
}

const json& gpu_of(nvmlDevice_t d) {
  return state().scenario["gpus"][static_cast<std::size_t>(d->gpu)];
}

double trace_at(const json& gpu, const char* key, double t, double fallback = 0) {
  if (!gpu.contains("trace") || !gpu["trace"].contains(key)) return fallback;
  double v = fallback;
  bool first = true;
  for (const auto& point : gpu["trace"][key]) {
    if (first || point[0].get<double>() <= t) v = point[1].get<double>();
    first = false;
    if (point[0].get<double>() > t) break;
  }
  return v;
}

// A per-GPU setting, else the scenario's top-level one, else `fallback`.
double setting(const json& gpu, const char* key, double fallback) {
  if (gpu.contains(key)) return gpu[key].get<double>();
  return state().scenario.value(key, fallback);
}

// Integral of the piecewise-constant power trace from 0 to t (J).
double energy_joules_exact(const json& gpu, double t) {
  double joules = 0;
  if (gpu.contains("trace") && gpu["trace"].contains("power_w")) {
    const auto& pts = gpu["trace"]["power_w"];
    for (std::size_t i = 0; i < pts.size(); ++i) {
      const double a = std::max(0.0, pts[i][0].get<double>());
      const double b = i + 1 < pts.size() ? pts[i + 1][0].get<double>() : 1e300;
      if (t <= a) break;
      joules += pts[i][1].get<double>() * (std::min(t, b) - a);
    }
  }
  return joules;
}

// The total-energy counter in mJ: the integral up to the counter's last update at or before t.
unsigned long long energy_mj(const json& gpu, double t) {
  const double update_s = setting(gpu, "energy_update_ms", 100.0) / 1000.0;
  if (update_s > 0) t = std::floor(t / update_s + 1e-9) * update_s;
  return gpu.value("energy_base_mj", 0ULL) +
         static_cast<unsigned long long>(energy_joules_exact(gpu, t) * 1000.0 + 0.5);
}

// nvmlDeviceGetPowerUsage / NVML_FI_DEV_POWER_AVERAGE: the trace's mean over the window before t.
double average_power_watts(const json& gpu, double t) {
  const double window = setting(gpu, "power_average_window_s", 1.0);
  if (window <= 0) return trace_at(gpu, "power_w", t);
  const double from = std::max(0.0, t - window);
  if (t - from <= 0) return trace_at(gpu, "power_w", t);
  return (energy_joules_exact(gpu, t) - energy_joules_exact(gpu, from)) / (t - from);
}

// The row of a piecewise-constant table ([[t, ...], ...]) in force at t; null if none.
const json* row_at(const json& gpu, const char* key, double t) {
  if (!gpu.contains(key)) return nullptr;
  const json* row = nullptr;
  for (const auto& r : gpu[key]) {
    if (row && r[0].get<double>() > t) break;
    row = &r;
  }
  return row;
}

nvmlReturn_t from_name(const std::string& name);

// A call's cost: sleeps (spins, under 200 us) for its latency while holding the driver lock.
void pay_latency(const char* function) {
  State& s = state();
  const auto it = s.latency_us.find(function);
  const double us = it != s.latency_us.end() ? it->second : s.default_latency_us;
  if (us <= 0) return;
  std::lock_guard lock(s.driver_lock);
  const auto until = std::chrono::steady_clock::now() +
                     std::chrono::nanoseconds(static_cast<long long>(us * 1000.0));
  if (us >= 200) std::this_thread::sleep_until(until);
  while (std::chrono::steady_clock::now() < until) {
  }
}

// The common prologue of every device call: latency, lost GPU, reset required, unsupported
// function, transient errors.
nvmlReturn_t check(nvmlDevice_t d, const char* function) {
  if (!d || state().refcount == 0) return NVML_ERROR_UNINITIALIZED;
  pay_latency(function);
  const json& gpu = gpu_of(d);
  const double t = now_seconds();
  if (gpu.contains("lost_at") && t >= gpu["lost_at"].get<double>()) return NVML_ERROR_GPU_IS_LOST;
  if (gpu.contains("reset_required_at") && t >= gpu["reset_required_at"].get<double>())
    return NVML_ERROR_RESET_REQUIRED;
  if (gpu.contains("not_supported")) {
    for (const auto& f : gpu["not_supported"])
      if (f.get<std::string>() == function) return NVML_ERROR_NOT_SUPPORTED;
  }
  if (gpu.contains("transient_errors")) {
    for (const auto& e : gpu["transient_errors"]) {
      if (e["call"].get<std::string>() == function && t >= e["from"].get<double>() &&
          t < e["to"].get<double>())
        return from_name(e.value("error", std::string("UNKNOWN")));
    }
  }
  return NVML_SUCCESS;
}

const json* mig_of(nvmlDevice_t d) {
  if (d->mig < 0) return nullptr;
  return &gpu_of(d)["mig"]["devices"][static_cast<std::size_t>(d->mig)];
}

nvmlReturn_t copy_string(const std::string& s, char* out, unsigned int length) {
  if (!out || s.size() + 1 > length) return NVML_ERROR_INSUFFICIENT_SIZE;
  std::memcpy(out, s.c_str(), s.size() + 1);
  return NVML_SUCCESS;
}

nvmlReturn_t from_name(const std::string& name) {
  if (name == "DRIVER_NOT_LOADED") return NVML_ERROR_DRIVER_NOT_LOADED;
  if (name == "NO_PERMISSION") return NVML_ERROR_NO_PERMISSION;
  if (name == "NOT_SUPPORTED") return NVML_ERROR_NOT_SUPPORTED;
  if (name == "NOT_FOUND") return NVML_ERROR_NOT_FOUND;
  if (name == "GPU_IS_LOST") return NVML_ERROR_GPU_IS_LOST;
  if (name == "RESET_REQUIRED") return NVML_ERROR_RESET_REQUIRED;
  if (name == "TIMEOUT") return NVML_ERROR_TIMEOUT;
  return NVML_ERROR_UNKNOWN;
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) void gpusizer_fake_nvml_set_time(double seconds) {
  state().virtual_time.store(seconds);
}

nvmlReturn_t nvmlInit_v2(void) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  if (s.refcount == 0) {
    const char* file = std::getenv("GPUSIZER_FAKE_NVML_SCENARIO");
    if (!file) return NVML_ERROR_LIBRARY_NOT_FOUND;
    std::ifstream in(file);
    if (!in) return NVML_ERROR_LIBRARY_NOT_FOUND;
    s.scenario = json::parse(in);
    if (s.scenario.contains("init_error")) return from_name(s.scenario["init_error"]);
    s.latency_us.clear();
    s.default_latency_us = 0;
    if (s.scenario.contains("call_latency_us")) {
      const json& l = s.scenario["call_latency_us"];
      if (l.is_number()) {
        s.default_latency_us = l.get<double>();
      } else {
        for (const auto& [name, us] : l.items()) {
          if (name == "default")
            s.default_latency_us = us.get<double>();
          else
            s.latency_us[name] = us.get<double>();
        }
      }
    }
    s.handles.clear();
    s.init_time = std::chrono::steady_clock::now();
  }
  ++s.refcount;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlShutdown(void) {
  std::lock_guard lock(state().mutex);
  if (state().refcount == 0) return NVML_ERROR_UNINITIALIZED;
  --state().refcount;
  return NVML_SUCCESS;
}

const char* nvmlErrorString(nvmlReturn_t result) {
  switch (result) {
    case NVML_SUCCESS:
      return "Success";
    case NVML_ERROR_NOT_SUPPORTED:
      return "Not Supported";
    case NVML_ERROR_GPU_IS_LOST:
      return "GPU is lost";
    case NVML_ERROR_NOT_FOUND:
      return "Not Found";
    case NVML_ERROR_DRIVER_NOT_LOADED:
      return "Driver Not Loaded";
    case NVML_ERROR_NO_PERMISSION:
      return "Insufficient Permissions";
    case NVML_ERROR_INSUFFICIENT_SIZE:
      return "Insufficient Size";
    case NVML_ERROR_RESET_REQUIRED:
      return "GPU requires reset";
    case NVML_ERROR_TIMEOUT:
      return "Timeout";
    default:
      return "Unknown Error";
  }
}

nvmlReturn_t nvmlSystemGetDriverVersion(char* version, unsigned int length) {
  return copy_string(state().scenario.value("driver_version", "570.00.00"), version, length);
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int* count) {
  if (state().refcount == 0) return NVML_ERROR_UNINITIALIZED;
  *count = static_cast<unsigned int>(state().scenario["gpus"].size());
  return NVML_SUCCESS;
}

static nvmlDevice_t make_handle(int gpu, int mig) {
  std::lock_guard lock(state().mutex);
  for (auto& h : state().handles)
    if (h.gpu == gpu && h.mig == mig) return &h;
  state().handles.push_back(nvmlDevice_st{gpu, mig});
  return &state().handles.back();
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t* device) {
  if (state().refcount == 0) return NVML_ERROR_UNINITIALIZED;
  if (index >= state().scenario["gpus"].size()) return NVML_ERROR_INVALID_ARGUMENT;
  *device = make_handle(static_cast<int>(index), -1);
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char* name, unsigned int length) {
  if (auto rc = check(d, "nvmlDeviceGetName")) return rc;
  std::string n = gpu_of(d).value("name", "NVIDIA H200");
  if (const json* m = mig_of(d))
    n += m->value("name_has_profile", true) ? " MIG " + m->value("profile", std::string()) : " MIG";
  return copy_string(n, name, length);
}

nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t d, char* uuid, unsigned int length) {
  if (auto rc = check(d, "nvmlDeviceGetUUID")) return rc;
  const json* m = mig_of(d);
  return copy_string(m ? (*m)["uuid"].get<std::string>() : gpu_of(d)["uuid"].get<std::string>(),
                     uuid, length);
}

nvmlReturn_t nvmlDeviceGetIndex(nvmlDevice_t d, unsigned int* index) {
  if (auto rc = check(d, "nvmlDeviceGetIndex")) return rc;
  *index = static_cast<unsigned int>(d->gpu);
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetFieldValues(nvmlDevice_t d, int count, nvmlFieldValue_t* values) {
  if (auto rc = check(d, "nvmlDeviceGetFieldValues")) return rc;
  const json& gpu = gpu_of(d);
  for (int i = 0; i < count; ++i) {
    nvmlFieldValue_t& v = values[i];
    v.nvmlReturn = NVML_ERROR_NOT_SUPPORTED;
    if (v.fieldId == NVML_FI_DEV_POWER_INSTANT && gpu.value("instant_power", true)) {
      v.nvmlReturn = NVML_SUCCESS;
      v.valueType = NVML_VALUE_TYPE_UNSIGNED_INT;
      v.value.uiVal =
          static_cast<unsigned int>(trace_at(gpu, "power_w", now_seconds()) * 1000.0 + 0.5);
    } else if (v.fieldId == NVML_FI_DEV_POWER_AVERAGE) {
      v.nvmlReturn = NVML_SUCCESS;
      v.valueType = NVML_VALUE_TYPE_UNSIGNED_INT;
      v.value.uiVal =
          static_cast<unsigned int>(average_power_watts(gpu, now_seconds()) * 1000.0 + 0.5);
    }
  }
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned int* mw) {
  if (auto rc = check(d, "nvmlDeviceGetPowerUsage")) return rc;
  *mw = static_cast<unsigned int>(average_power_watts(gpu_of(d), now_seconds()) * 1000.0 + 0.5);
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t d, unsigned long long* mj) {
  if (auto rc = check(d, "nvmlDeviceGetTotalEnergyConsumption")) return rc;
  *mj = energy_mj(gpu_of(d), now_seconds());
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t d, unsigned int* limit) {
  if (auto rc = check(d, "nvmlDeviceGetEnforcedPowerLimit")) return rc;
  *limit = gpu_of(d).value("power_limit_mw", 700000U);
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetPowerManagementLimit(nvmlDevice_t d, unsigned int* limit) {
  return nvmlDeviceGetEnforcedPowerLimit(d, limit);
}

// On a MIG device handle: NOT_SUPPORTED, as most drivers, unless the slice says
// "utilization": true (then its own gpu_util/mem_util traces).
nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t d, nvmlUtilization_t* u) {
  if (auto rc = check(d, "nvmlDeviceGetUtilizationRates")) return rc;
  const json* mig = mig_of(d);
  if (mig && !mig->value("utilization", false)) return NVML_ERROR_NOT_SUPPORTED;
  const json& source = mig ? *mig : gpu_of(d);
  const double t = now_seconds();
  u->gpu = static_cast<unsigned int>(trace_at(source, "gpu_util", t));
  u->memory = static_cast<unsigned int>(trace_at(source, "mem_util", t));
  return NVML_SUCCESS;
}

// On a MIG device handle: the slice's own memory (its memory_mb, its fb_used_mib trace).
nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t* m) {
  if (auto rc = check(d, "nvmlDeviceGetMemoryInfo")) return rc;
  constexpr unsigned long long kMiB = 1ULL << 20;
  const json* mig = mig_of(d);
  const json& source = mig ? *mig : gpu_of(d);
  m->total = source.value("memory_mb", 143771ULL) * kMiB;
  m->used = static_cast<unsigned long long>(trace_at(source, "fb_used_mib", now_seconds())) * kMiB;
  m->free = m->total > m->used ? m->total - m->used : 0;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t d, nvmlPciInfo_t* pci) {
  if (auto rc = check(d, "nvmlDeviceGetPciInfo_v3")) return rc;
  if (!pci) return NVML_ERROR_INVALID_ARGUMENT;
  *pci = nvmlPciInfo_t{};
  char made_up[NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE];
  std::snprintf(made_up, sizeof made_up, "00000000:%02X:00.0", 0x18 + 0x10 * d->gpu);
  return copy_string(gpu_of(d).value("pci_bus_id", std::string(made_up)), pci->busId,
                     sizeof pci->busId);
}

nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t d, nvmlClockType_t type, unsigned int* mhz) {
  if (auto rc = check(d, "nvmlDeviceGetClockInfo")) return rc;
  const char* key = type == NVML_CLOCK_MEM ? "mem_clock_mhz" : "sm_clock_mhz";
  *mhz = static_cast<unsigned int>(trace_at(gpu_of(d), key, now_seconds()));
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t d, nvmlClockType_t type, unsigned int* mhz) {
  if (auto rc = check(d, "nvmlDeviceGetMaxClockInfo")) return rc;
  *mhz = gpu_of(d).value(type == NVML_CLOCK_MEM ? "max_mem_clock_mhz" : "max_sm_clock_mhz", 0U);
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetDefaultApplicationsClock(nvmlDevice_t d, nvmlClockType_t type,
                                                   unsigned int* mhz) {
  if (auto rc = check(d, "nvmlDeviceGetDefaultApplicationsClock")) return rc;
  if (type != NVML_CLOCK_SM || !gpu_of(d).contains("default_app_sm_clock_mhz"))
    return NVML_ERROR_NOT_SUPPORTED;
  *mhz = gpu_of(d)["default_app_sm_clock_mhz"].get<unsigned int>();
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t d, nvmlTemperatureSensors_t, unsigned int* c) {
  if (auto rc = check(d, "nvmlDeviceGetTemperature")) return rc;
  *c = static_cast<unsigned int>(trace_at(gpu_of(d), "temp_c", now_seconds()));
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t d, unsigned long long* bits) {
  if (auto rc = check(d, "nvmlDeviceGetCurrentClocksThrottleReasons")) return rc;
  *bits = static_cast<unsigned long long>(trace_at(gpu_of(d), "reasons", now_seconds()));
  return NVML_SUCCESS;
}

#ifndef GPUSIZER_FAKE_NVML_LEGACY
// The current names (driver 580 has them; the legacy build, like an older driver, does not).
nvmlReturn_t nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t d, unsigned long long* bits) {
  if (auto rc = check(d, "nvmlDeviceGetCurrentClocksEventReasons")) return rc;
  *bits = static_cast<unsigned long long>(trace_at(gpu_of(d), "reasons", now_seconds()));
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetTemperatureV(nvmlDevice_t d, nvmlTemperature_t* temperature) {
  if (auto rc = check(d, "nvmlDeviceGetTemperatureV")) return rc;
  if (!temperature) return NVML_ERROR_INVALID_ARGUMENT;
  if (temperature->version != nvmlTemperature_v1) return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
  if (temperature->sensorType != NVML_TEMPERATURE_GPU) return NVML_ERROR_NOT_SUPPORTED;
  temperature->temperature = static_cast<int>(trace_at(gpu_of(d), "temp_c", now_seconds()));
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetClock(nvmlDevice_t d, nvmlClockType_t type, nvmlClockId_t id,
                                unsigned int* mhz) {
  if (auto rc = check(d, "nvmlDeviceGetClock")) return rc;
  if (!mhz) return NVML_ERROR_INVALID_ARGUMENT;
  const json& gpu = gpu_of(d);
  if (id == NVML_CLOCK_ID_CURRENT) {
    const char* key = type == NVML_CLOCK_MEM ? "mem_clock_mhz" : "sm_clock_mhz";
    *mhz = static_cast<unsigned int>(trace_at(gpu, key, now_seconds()));
    return NVML_SUCCESS;
  }
  if ((id == NVML_CLOCK_ID_APP_CLOCK_DEFAULT || id == NVML_CLOCK_ID_APP_CLOCK_TARGET) &&
      type == NVML_CLOCK_SM && gpu.contains("default_app_sm_clock_mhz")) {
    *mhz = gpu["default_app_sm_clock_mhz"].get<unsigned int>();
    return NVML_SUCCESS;
  }
  return NVML_ERROR_NOT_SUPPORTED;
}
#endif

nvmlReturn_t nvmlDeviceGetTotalEccErrors(nvmlDevice_t d, nvmlMemoryErrorType_t type,
                                         nvmlEccCounterType_t counter, unsigned long long* n) {
  if (auto rc = check(d, "nvmlDeviceGetTotalEccErrors")) return rc;
  if (counter != NVML_VOLATILE_ECC) return NVML_ERROR_NOT_SUPPORTED;
  const char* key = type == NVML_MEMORY_ERROR_TYPE_CORRECTED ? "ecc_corrected" : "ecc_uncorrected";
  *n = static_cast<unsigned long long>(trace_at(gpu_of(d), key, now_seconds()));
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetRemappedRows(nvmlDevice_t d, unsigned int* corr, unsigned int* unc,
                                       unsigned int* pending, unsigned int* failure) {
  if (auto rc = check(d, "nvmlDeviceGetRemappedRows")) return rc;
  if (!corr || !unc || !pending || !failure) return NVML_ERROR_INVALID_ARGUMENT;
  // As the real driver: no row-remap query on a GPU in MIG mode (nor on a MIG handle).
  const json& gpu = gpu_of(d);
  if (d->mig >= 0 || (gpu.contains("mig") && gpu["mig"].value("current", 0U) == 1U))
    return NVML_ERROR_NOT_SUPPORTED;
  const json* row = row_at(gpu_of(d), "remapped_rows", now_seconds());
  *corr = row ? (*row)[1].get<unsigned int>() : 0U;
  *unc = row ? (*row)[2].get<unsigned int>() : 0U;
  *pending = row ? (*row)[3].get<unsigned int>() : 0U;
  *failure = row ? (*row)[4].get<unsigned int>() : 0U;
  return NVML_SUCCESS;
}

// Like the real one: *count in is the buffer size; INSUFFICIENT_SIZE with the needed count.
nvmlReturn_t nvmlDeviceGetRetiredPages(nvmlDevice_t d, nvmlPageRetirementCause_t cause,
                                       unsigned int* count, unsigned long long* addresses) {
  if (auto rc = check(d, "nvmlDeviceGetRetiredPages")) return rc;
  if (!count || cause >= NVML_PAGE_RETIREMENT_CAUSE_COUNT) return NVML_ERROR_INVALID_ARGUMENT;
  const json* row = row_at(gpu_of(d), "retired_pages", now_seconds());
  const std::size_t column = cause == NVML_PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR ? 2 : 1;
  const unsigned int n = row ? (*row)[column].get<unsigned int>() : 0U;
  if (*count < n) {
    *count = n;
    return NVML_ERROR_INSUFFICIENT_SIZE;
  }
  if (n > 0 && !addresses) return NVML_ERROR_INVALID_ARGUMENT;
  for (unsigned int i = 0; i < n; ++i) addresses[i] = 0x1000ULL * (i + 1);
  *count = n;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetRetiredPagesPendingStatus(nvmlDevice_t d, nvmlEnableState_t* pending) {
  if (auto rc = check(d, "nvmlDeviceGetRetiredPagesPendingStatus")) return rc;
  if (!pending) return NVML_ERROR_INVALID_ARGUMENT;
  const json* row = row_at(gpu_of(d), "retired_pages", now_seconds());
  *pending =
      row && (*row)[3].get<unsigned int>() != 0 ? NVML_FEATURE_ENABLED : NVML_FEATURE_DISABLED;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t d, unsigned int* current, unsigned int* pending) {
  if (auto rc = check(d, "nvmlDeviceGetMigMode")) return rc;
  const json& gpu = gpu_of(d);
  if (!gpu.contains("mig")) return NVML_ERROR_NOT_SUPPORTED;
  *current = gpu["mig"].value("current", 0U);
  *pending = gpu["mig"].value("pending", *current);
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMaxMigDeviceCount(nvmlDevice_t d, unsigned int* count) {
  if (auto rc = check(d, "nvmlDeviceGetMaxMigDeviceCount")) return rc;
  if (!gpu_of(d).contains("mig")) return NVML_ERROR_NOT_SUPPORTED;
  *count = gpu_of(d)["mig"].value("max_devices", 7U);
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMigDeviceHandleByIndex(nvmlDevice_t d, unsigned int index,
                                                 nvmlDevice_t* mig) {
  if (auto rc = check(d, "nvmlDeviceGetMigDeviceHandleByIndex")) return rc;
  const json& gpu = gpu_of(d);
  if (!gpu.contains("mig")) return NVML_ERROR_NOT_SUPPORTED;
  if (gpu.contains("mig_enumeration_error"))
    return from_name(gpu["mig_enumeration_error"].get<std::string>());
  const auto& devices = gpu["mig"]["devices"];
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (devices[i].value("slot", static_cast<unsigned int>(i)) == index) {
      *mig = make_handle(d->gpu, static_cast<int>(i));
      return NVML_SUCCESS;
    }
  }
  return NVML_ERROR_NOT_FOUND;
}

nvmlReturn_t nvmlDeviceIsMigDeviceHandle(nvmlDevice_t d, unsigned int* is_mig) {
  if (auto rc = check(d, "nvmlDeviceIsMigDeviceHandle")) return rc;
  *is_mig = d->mig >= 0 ? 1U : 0U;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetGpuInstanceId(nvmlDevice_t d, unsigned int* id) {
  if (auto rc = check(d, "nvmlDeviceGetGpuInstanceId")) return rc;
  const json* m = mig_of(d);
  if (!m) return NVML_ERROR_INVALID_ARGUMENT;
  *id = (*m)["gi"].get<unsigned int>();
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetComputeInstanceId(nvmlDevice_t d, unsigned int* id) {
  if (auto rc = check(d, "nvmlDeviceGetComputeInstanceId")) return rc;
  const json* m = mig_of(d);
  if (!m) return NVML_ERROR_INVALID_ARGUMENT;
  *id = (*m)["ci"].get<unsigned int>();
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetAttributes_v2(nvmlDevice_t d, nvmlDeviceAttributes_t* a) {
  if (auto rc = check(d, "nvmlDeviceGetAttributes_v2")) return rc;
  *a = nvmlDeviceAttributes_t{};
  if (const json* m = mig_of(d)) {
    a->multiprocessorCount = m->value("sm_count", 0U);
    a->gpuInstanceSliceCount = m->value("gi_slices", 0U);
    a->computeInstanceSliceCount = m->value("ci_slices", a->gpuInstanceSliceCount);
    a->memorySizeMB = m->value("memory_mb", 0ULL);
  } else {
    a->multiprocessorCount = gpu_of(d).value("sm_count", 132U);
    a->gpuInstanceSliceCount = 7;
    a->computeInstanceSliceCount = 7;
    a->memorySizeMB = gpu_of(d).value("memory_mb", 143771ULL);
  }
  return NVML_SUCCESS;
}

}  // extern "C"
