// Measurement spread carried through the plan ("plans with error bars", docs/sizing.md): the
// 5th and 95th percentile of each measured rate's per-sample rates, and what they make of each
// option's rate, instance count, cost and perf/$. Estimated options (datasheet peaks) and
// user-measured rates have no measured spread: the plan says so instead of inventing one.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace gpusizer::sizing {

// The spread of one measured rate: the p5 and p95 of its per-sample rates (value x median
// per-op time / per-op time of each sample), widened to contain the headline value.
struct RateSpread {
  double p5 = 0;
  double p95 = 0;
  std::size_t samples = 0;
};

struct ValueRange {
  double low = 0;
  double high = 0;
  double width() const { return high - low; }
  bool overlaps(const ValueRange& other) const { return low <= other.high && other.low <= high; }
};

// One plan option's ranges: rates at the p5 (low) and p95 (high) of every measured rate the
// roofline used; the count, cost and perf/$ that those rates give.
struct MeasurementSpread {
  bool available = false;
  std::string why_not;          // when !available: estimated, user-measured rate, ...
  std::size_t min_samples = 0;  // fewest samples behind any rate used (0: a rate had none)
  ValueRange units_per_second_per_replica;
  ValueRange units_per_second_per_instance;
  std::string binding_at_low;  // the binding term at the p5 rates when it differs from the point's
  // Instances at the p5 rate (the most) and at the p95 rate (the fewest); nullopt when that end
  // leaves what the option can buy (capacity blocks beyond 256 instances).
  std::optional<int> instances_at_low_rate;
  std::optional<int> instances_at_high_rate;
  // "2 instances; 3 if the rate is at the low end of what was measured (p5)" when the count
  // depends on where in the range the rate is (also among the option's cost notes), else empty.
  std::string count_note;
  ValueRange usd_per_month;
  std::optional<ValueRange> window_usd;
  ValueRange units_per_dollar;
  ValueRange rank_usd;  // the ranking key (window cost when a window is given, else monthly)
  // 1-based ranks of the options this one cannot be told apart from within the measurement.
  std::vector<int> indistinguishable_from;
};

}  // namespace gpusizer::sizing
