// The probe for the CPU target: RAPL package energy over the window, read periodically so
// counter wraps are caught, and the per-interval power as statistics.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <vector>

#include "gpusizer/telemetry/rapl.hpp"
#include "gpusizer/telemetry_probe.hpp"
#include "periodic_sampler.hpp"

namespace gpusizer::telemetry {

class RaplProbe final : public TelemetryProbe {
 public:
  RaplProbe(RaplReader reader, double sample_period_seconds);
  ~RaplProbe() override;

  void begin() override;
  TelemetryWindow end() override;

 private:
  struct Reading {
    double t_seconds;
    std::vector<std::uint64_t> counters;
  };
  void take_sample();

  RaplReader reader_;
  double period_seconds_;
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  std::vector<Reading> readings_;
  std::unique_ptr<PeriodicSampler> sampler_;
};

}  // namespace gpusizer::telemetry
