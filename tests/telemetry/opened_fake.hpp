// The fake NVML opened the way the telemetry library opens a driver: the library and its GPUs,
// for tests of the internals (GpuReader, window summaries) on scripted scenarios.
#pragma once

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "fake_nvml_env.hpp"
#include "nvml_devices.hpp"
#include "nvml_library.hpp"

namespace gpusizer::telemetry::test_support {

inline bool has_note(const std::vector<std::string>& notes, const std::string& part) {
  return std::any_of(notes.begin(), notes.end(),
                     [&](const std::string& n) { return n.find(part) != std::string::npos; });
}

struct Opened {
  std::shared_ptr<NvmlLibrary> nvml;
  std::vector<NvmlGpuHandle> gpus;
};

// `legacy`: the fake as an older driver, without the current NVML names.
inline Opened open_fake(const std::string& scenario, bool legacy = false) {
  if (legacy) {
#ifdef GPUSIZER_FAKE_NVML_LEGACY_PATH
    gpusizer::test::use_legacy_fake_nvml(scenario, 0.0);
#else
    throw std::runtime_error("this test binary has no legacy fake NVML");
#endif
  } else {
    gpusizer::test::use_fake_nvml(scenario, 0.0);
  }
  Opened o;
  std::string why;
  o.nvml = NvmlLibrary::open(why);
  if (!o.nvml) throw std::runtime_error(why);
  std::vector<std::string> notes;
  o.gpus = enumerate_gpus(*o.nvml, notes);
  return o;
}

}  // namespace gpusizer::telemetry::test_support
