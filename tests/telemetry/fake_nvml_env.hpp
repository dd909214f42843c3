// Points the telemetry library at the fake NVML with one scenario, and drives its virtual clock.
#pragma once

#include <dlfcn.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "gpusizer/report.hpp"

namespace gpusizer::test {

inline void* open_fake(const char* path) {
  void* handle = ::dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) throw std::runtime_error(std::string("cannot load fake NVML: ") + ::dlerror());
  return handle;
}

// The fake the tests use now (the current one, or the legacy build without the current names).
inline const char*& fake_nvml_path() {
  static const char* path = GPUSIZER_FAKE_NVML_PATH;
  return path;
}

inline void* fake_nvml_handle() {
  // Kept open for the whole test process so the fake's state survives provider lifetimes.
  static void* handle = open_fake(GPUSIZER_FAKE_NVML_PATH);
#ifdef GPUSIZER_FAKE_NVML_LEGACY_PATH
  static void* legacy = open_fake(GPUSIZER_FAKE_NVML_LEGACY_PATH);
  if (std::string(fake_nvml_path()) == GPUSIZER_FAKE_NVML_LEGACY_PATH) return legacy;
#endif
  return handle;
}

// Negative: wall time since nvmlInit.
inline void fake_nvml_set_time(double seconds) {
  using SetTime = void (*)(double);
  auto fn = reinterpret_cast<SetTime>(::dlsym(fake_nvml_handle(), "gpusizer_fake_nvml_set_time"));
  if (!fn) throw std::runtime_error("fake NVML lacks gpusizer_fake_nvml_set_time");
  fn(seconds);
}

inline void use_fake_nvml(const std::string& scenario, double virtual_time = -1) {
  fake_nvml_path() = GPUSIZER_FAKE_NVML_PATH;
  fake_nvml_handle();
  ::setenv("GPUSIZER_NVML_LIBRARY", GPUSIZER_FAKE_NVML_PATH, 1);
  const std::string file =
      std::string(GPUSIZER_SOURCE_DIR) + "/tests/telemetry/scenarios/" + scenario;
  ::setenv("GPUSIZER_FAKE_NVML_SCENARIO", file.c_str(), 1);
  fake_nvml_set_time(virtual_time);
}

#ifdef GPUSIZER_FAKE_NVML_LEGACY_PATH
// The fake as an older driver: no nvmlDeviceGetCurrentClocksEventReasons, nvmlDeviceGetTemperatureV
// or nvmlDeviceGetClock. Until the next use_fake_nvml, the time setter drives this one.
inline void use_legacy_fake_nvml(const std::string& scenario, double virtual_time = -1) {
  use_fake_nvml(scenario, -1);
  fake_nvml_path() = GPUSIZER_FAKE_NVML_LEGACY_PATH;
  ::setenv("GPUSIZER_NVML_LIBRARY", GPUSIZER_FAKE_NVML_LEGACY_PATH, 1);
  fake_nvml_set_time(virtual_time);
}
#endif

// A whole-GPU target as discovery makes it, for probes of the fake NVML's GPUs.
inline Target gpu_target(int index, const std::string& uuid) {
  Target t;
  t.id = "gpu" + std::to_string(index);
  t.kind = TargetKind::gpu;
  t.index = index;
  t.uuid = uuid;
  return t;
}

}  // namespace gpusizer::test
