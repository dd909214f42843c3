// Internal: measurement spread through the sizing (spread.hpp, docs/sizing.md "Plans with error
// bars"): per-sample rates of a record, the capability at its p5/p95, the roofline, count, cost
// and perf/$ at both ends, and which ranked options cannot be told apart. The engine (engine.cpp)
// keeps the flow and calls roofline_passes and priced_rows.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusizer/report.hpp"
#include "gpusizer/sizing/plan.hpp"
#include "purchase.hpp"
#include "roofline.hpp"

namespace gpusizer::sizing::detail {

inline constexpr double kSpreadLowPercentile = 0.05;
inline constexpr double kSpreadHighPercentile = 0.95;

// p5/p95 of the per-sample rates of a record whose headline is `value` (work / median per-op
// time): rate_i = value x median(t) / t_i; nullopt with fewer than 2 usable samples.
std::optional<RateSpread> sample_spread(const Record& record, double value);

// `device` with every measured rate at its p5 (`low`) or p95; rates without samples as measured.
DeviceCapability at_bound(const DeviceCapability& device, bool low);

// Evaluates a workload's roofline on a device (null: no report, estimated from datasheet peaks).
using RooflineRun = std::function<RooflineResult(const DeviceCapability*)>;

// The three roofline passes of an option: `run` on the device as measured (the point), then with
// every measured rate at its p5 and at its p95 (the spread of the rate per replica). The spread
// is set when the point evaluates; without a device nothing was measured to spread.
struct RooflinePasses {
  RooflineResult point;
  MeasurementSpread spread;
};
RooflinePasses roofline_passes(const DeviceCapability* device, const RooflineRun& run);

// Why a row has no measured spread.
MeasurementSpread no_spread(const std::string& why);

// The plan rows of `row`, one per purchase option that applies (the others go to `excluded`):
// priced with model_at(the row's rate per replica), and again at both ends of its measured spread
// (without --max-instances, as the range says what the count would be, and excluding nothing)
// for the count, cost and perf/$ ranges and the count note.
std::vector<PlanRow> priced_rows(const PlanRow& row, const InstanceTypeInfo& type,
                                 const Demand& workload,
                                 const std::function<CountModel(double rate)>& model_at,
                                 const EngineOptions& options, const std::string& region,
                                 std::vector<Excluded>& excluded);

// Marks ranked options that are indistinguishable within the measurement (after ranking) and
// says so in the summary when the top plan is one of them.
void mark_ties(Plan& plan);

// Printers' side: the JSON of a row's spread and the plan's "Measurement spread" lines.
nlohmann::json spread_json(const MeasurementSpread& spread);
std::vector<std::string> spread_lines(const Plan& plan);
// "low-high" in the one number format (short_number) or in dollars (format_usd), both ends
// always, a zero-width range too ("5-5"): the reader sees that it was measured exact.
std::string number_range(const ValueRange& range);
std::string usd_range(const ValueRange& range);
// "#2, #5": ranks as the plan prints them.
std::string rank_list(const std::vector<int>& ranks);
// "3 at p5, 2 at p95": the count at both ends of the spread ("more than buyable at p5" when the
// p5 end leaves what the option can buy); count_text adds the point: "2 instance(s) (...)".
std::string count_at_ends(const MeasurementSpread& spread);
std::string count_text(const PlanRow& row);

}  // namespace gpusizer::sizing::detail
