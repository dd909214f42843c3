// The probe for a GPU or MIG target: samples the (physical) GPU from begin() to end().
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "gpu_sensor.hpp"
#include "gpusizer/telemetry_probe.hpp"
#include "periodic_sampler.hpp"

namespace gpusizer::telemetry {

class GpuProbe final : public TelemetryProbe {
 public:
  // `attribution` is copied into every window (MIG: the reading is the whole board's).
  GpuProbe(std::shared_ptr<GpuSensor> reader, double sample_period_seconds,
           std::string attribution);
  ~GpuProbe() override;

  void begin() override;
  TelemetryWindow end() override;

 private:
  void take_sample(bool counters);

  std::shared_ptr<GpuSensor> reader_;  // shared: one reader per physical GPU
  double period_seconds_;
  std::string attribution_;
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  std::vector<GpuSample> samples_;
  std::unique_ptr<PeriodicSampler> sampler_;
};

}  // namespace gpusizer::telemetry
