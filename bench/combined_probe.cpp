#include "gpusizer/bench/combined_probe.hpp"

#include "gpusizer/telemetry_combine.hpp"

namespace gpusizer::bench {

void CombinedProbe::begin() {
  for (auto* p : probes_) p->begin();
}

TelemetryWindow CombinedProbe::end() {
  std::vector<TelemetryWindow> windows;
  for (auto* p : probes_) windows.push_back(p->end());
  return combine_across_devices(windows);
}

}  // namespace gpusizer::bench
