// Telemetry for a case that spans several devices (collectives, P2P): one probe per device, begun
// and ended together; energy and power add up across the devices, flags are or-ed.
#pragma once

#include <vector>

#include "gpusizer/telemetry_probe.hpp"

namespace gpusizer::bench {

class CombinedProbe final : public TelemetryProbe {
 public:
  explicit CombinedProbe(std::vector<TelemetryProbe*> probes) : probes_(std::move(probes)) {}
  void begin() override;
  TelemetryWindow end() override;

 private:
  std::vector<TelemetryProbe*> probes_;
};

// The sum of windows observed at the same time on different devices.
TelemetryWindow sum_windows(const std::vector<TelemetryWindow>& windows);

}  // namespace gpusizer::bench
