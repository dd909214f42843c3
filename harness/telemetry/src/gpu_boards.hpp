// The GPUs NVML sees, as the telemetry provider needs them: the sensors of the physical GPU
// behind a gpu or mig target, and how a MIG slice's reading is attributed. nvml_boards.cpp
// implements it over NVML; a build without nvml.h links nvml_absent.cpp instead, whose open
// says why (the provider, its probes and RAPL are the same in both builds).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "gpu_sensor.hpp"
#include "gpusizer/report.hpp"

namespace gpusizer::telemetry {

struct BoardMatch {
  std::shared_ptr<GpuSensor> sensor;  // a fresh reader of the physical GPU
  std::string attribution;            // "whole device", or the MIG board-sharing caveat
};

class GpuBoards {
 public:
  virtual ~GpuBoards() = default;
  // nullopt with `why` when no GPU NVML sees matches the target.
  virtual std::optional<BoardMatch> find(const Target& target, std::string& why) const = 0;
};

// Null with `why_not` when NVML cannot be used (no driver, or built without nvml.h).
std::unique_ptr<GpuBoards> open_gpu_boards(std::string& why_not);

}  // namespace gpusizer::telemetry
