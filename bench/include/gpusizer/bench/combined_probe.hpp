// Telemetry for a case that spans several devices (collectives, P2P): one probe per device, begun
// and ended together, their windows combined across devices by the one combiner
// (gpusizer/telemetry_combine.hpp: energy and power add up, flags are or-ed, ...).
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

}  // namespace gpusizer::bench
