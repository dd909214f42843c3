// Telemetry for a case that spans several devices (collectives, P2P): one probe per device, begun
// and ended together; energy and power add up across the devices, flags are or-ed.
#pragma once

#include <cstdint>
#include <optional>
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

// The sum of windows observed at the same time on different devices: energy and power add up
// (absent on one device -> absent); counter deltas (ECC, remapped rows, retired pages) add up
// over the devices that count them; flags and end-of-window states (ECC / memory errors, row
// remap pending / failure, retired pages pending, throttled, power_capped, energy counter
// disagreement) are or-ed; throttle reasons are the union and each reason's share the largest
// on any device; energy counter updates are the fewest any device saw; transient errors add up;
// every device's notes are kept.
TelemetryWindow sum_windows(const std::vector<TelemetryWindow>& windows);

// Repetitions of one case: clock-event reason shares weighted by sample count; energy counter
// updates, busy samples and transient errors added up (used by merge_windows).
void merge_clock_events(const std::vector<TelemetryWindow>& windows, TelemetryWindow& merged);

// A counter delta (ECC, remapped rows, retired pages) added over the windows that count it;
// nullopt only when none does (a device that cannot count says so in its notes). Used both for
// devices observed together (sum_windows) and for repetitions of one case (merge_windows).
std::optional<std::uint64_t> sum_counts(const std::vector<TelemetryWindow>& windows,
                                        std::optional<std::uint64_t> TelemetryWindow::*field);

}  // namespace gpusizer::bench
