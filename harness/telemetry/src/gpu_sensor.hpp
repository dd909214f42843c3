// One physical GPU's sensors as the probes use them, with no nvml.h type in sight: the probes and
// the provider build the same with or without NVML's header (GpuReader is the NVML one).
#pragma once

#include <optional>
#include <string>

#include "gpu_sample.hpp"

namespace gpusizer::telemetry {

class GpuSensor {
 public:
  virtual ~GpuSensor() = default;
  virtual const GpuStatics& statics() const = 0;
  // A sample stamped with t_seconds; nullopt once the GPU is lost. `counters` also reads the
  // ECC, remapped-row and retired-page counters (a window's first and last sample only: they
  // change rarely, and every call takes the driver's lock).
  virtual std::optional<GpuSample> read(double t_seconds, bool counters = false) = 0;
  virtual bool lost() const = 0;
  virtual const std::string& lost_reason() const = 0;
};

}  // namespace gpusizer::telemetry
