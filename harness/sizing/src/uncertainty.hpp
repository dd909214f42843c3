// Internal: measurement spread through the sizing (spread.hpp, docs/sizing.md "Plans with error
// bars"): per-sample rates of a record, the capability at its p5/p95, the roofline, count, cost
// and perf/$ at both ends, and which ranked options cannot be told apart.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusizer/report.hpp"
#include "gpusizer/sizing/plan.hpp"
#include "roofline.hpp"

namespace gpusizer::sizing::detail {

inline constexpr double kSpreadLowPercentile = 0.05;
inline constexpr double kSpreadHighPercentile = 0.95;

// p5/p95 of the per-sample rates of a record whose headline is `value` (work / median per-op
// time): rate_i = value x median(t) / t_i; nullopt with fewer than 2 usable samples.
std::optional<RateSpread> sample_spread(const Record& record, double value);

// `device` with every measured rate at its p5 (`low`) or p95; rates without samples as measured.
DeviceCapability at_bound(const DeviceCapability& device, bool low);

// The rate range of a measured roofline result: `run` evaluated on the device at its p5 and p95.
MeasurementSpread roofline_spread(
    const RooflineResult& point, const DeviceCapability& device,
    const std::function<RooflineResult(const DeviceCapability&)>& run);

// Why a row has no measured spread.
MeasurementSpread no_spread(const std::string& why);

// The option costs at the low and the high end of the per-replica rate (`price_at(rate)`), empty
// when the spread is not available.
struct SpreadCosts {
  std::vector<OptionCost> at_low;
  std::vector<OptionCost> at_high;
};
SpreadCosts price_at_spread(const MeasurementSpread& spread,
                            const std::function<std::vector<OptionCost>(double rate)>& price_at);

// Fills the row's count, cost and perf/$ ranges from the option priced at both ends, and adds
// the count note to its cost notes when the count depends on where in the range the rate is.
void attach_option_spread(PlanRow& row, const SpreadCosts& costs);

// Marks ranked options that are indistinguishable within the measurement (after ranking) and
// says so in the summary when the top plan is one of them.
void mark_ties(Plan& plan);

// Printers' side: the JSON of a row's spread and the plan's "Measurement spread" lines.
nlohmann::json spread_json(const MeasurementSpread& spread);
std::vector<std::string> spread_lines(const Plan& plan);

}  // namespace gpusizer::sizing::detail
