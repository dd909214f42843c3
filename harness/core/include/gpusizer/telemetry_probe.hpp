// The runner's view of telemetry: for each target, a probe that observes the device while one
// measurement runs. harness/telemetry implements it with NVML (GPUs, MIG parents) and RAPL (the
// CPU package); the runner only calls begin() before sampling and end() after it.
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "gpusizer/report.hpp"
#include "gpusizer/telemetry_window.hpp"

namespace gpusizer {

class TelemetryProbe {
 public:
  virtual ~TelemetryProbe() = default;
  TelemetryProbe() = default;
  TelemetryProbe(const TelemetryProbe&) = delete;
  TelemetryProbe& operator=(const TelemetryProbe&) = delete;

  virtual void begin() = 0;
  virtual TelemetryWindow end() = 0;
};

class TelemetryProvider {
 public:
  virtual ~TelemetryProvider() = default;
  TelemetryProvider() = default;
  TelemetryProvider(const TelemetryProvider&) = delete;
  TelemetryProvider& operator=(const TelemetryProvider&) = delete;

  // A probe for one target; never null (an "unavailable" probe says why).
  virtual std::unique_ptr<TelemetryProbe> probe_for(const Target& target) = 0;
  // Facts measured once per run before the suite (idle power...), keyed by target id; stored in
  // Report::target_telemetry.
  virtual nlohmann::json measure_idle(const std::vector<Target>& targets) = 0;
};

// A probe that observes nothing and says why (telemetry disabled, no driver, no RAPL access).
class UnavailableProbe final : public TelemetryProbe {
 public:
  UnavailableProbe(std::string scope, std::string reason)
      : scope_(std::move(scope)), reason_(std::move(reason)) {}
  void begin() override {}
  TelemetryWindow end() override {
    TelemetryWindow w;
    w.source = TelemetrySource::unavailable;
    w.scope = scope_;
    w.unavailable_reason = reason_;
    return w;
  }

 private:
  std::string scope_;
  std::string reason_;
};

}  // namespace gpusizer
