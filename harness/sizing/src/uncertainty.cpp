#include "uncertainty.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

#include "gpusizer/stats.hpp"

namespace gpusizer::sizing::detail {
namespace {

// Every measured rate of a device (const or not).
template <typename Device, typename Fn>
void for_each_rate(Device& d, Fn fn) {
  for (auto& [key, r] : d.flops) fn(r);
  for (auto* slot : {&d.memory_bandwidth, &d.host_link, &d.io}) {
    if (*slot) fn(**slot);
  }
  for (auto& [key, r] : d.collectives) fn(r);
  for (auto& [key, r] : d.inter_node_collectives) fn(r);
}

// The fewest samples behind the rates a roofline used (0 when one had no samples).
std::size_t min_samples(const DeviceCapability& device, const std::vector<Evidence>& used) {
  std::size_t fewest = SIZE_MAX;
  for_each_rate(device, [&](const ResourceRate& r) {
    for (const auto& e : used) {
      if (e.record_id == r.evidence.record_id && e.report_sha256 == r.evidence.report_sha256) {
        fewest = std::min(fewest, r.spread ? r.spread->samples : std::size_t{0});
      }
    }
  });
  return fewest == SIZE_MAX ? 0 : fewest;
}

const OptionCost* find_option(const std::vector<OptionCost>& costs, const std::string& option) {
  for (const auto& c : costs) {
    if (c.option == option) return &c;
  }
  return nullptr;
}

double rank_of(const OptionCost& c) {
  return c.window_usd ? *c.window_usd : c.usd_per_month;
}

// The records a row's rate rests on: rows resting on the same records move together.
std::set<std::tuple<std::string, std::string, std::string>> evidence_set(const PlanRow& row) {
  std::set<std::tuple<std::string, std::string, std::string>> out;
  for (const auto& e : row.evidence) out.emplace(e.report_sha256, e.record_id, e.target_id);
  return out;
}

int sign(double v) {
  return (v > 0) - (v < 0);
}

// Two ranked options are indistinguishable within the measurement when their order by the
// ranking key can change inside the measured ranges: for options resting on the same records
// (their rates move together), when one is cheaper at one of the p5 end, the point and the p95
// end and dearer at another; else when their ranges overlap (and not both are zero-width).
bool indistinguishable(const PlanRow& a, const PlanRow& b) {
  if (evidence_set(a) == evidence_set(b)) {
    const int at_point = sign(a.rank_usd - b.rank_usd);
    const int at_low_rate = sign(a.spread.rank_usd.high - b.spread.rank_usd.high);
    const int at_high_rate = sign(a.spread.rank_usd.low - b.spread.rank_usd.low);
    const bool cheaper = at_point < 0 || at_low_rate < 0 || at_high_rate < 0;
    const bool dearer = at_point > 0 || at_low_rate > 0 || at_high_rate > 0;
    return cheaper && dearer;
  }
  if (a.spread.rank_usd.width() <= 0 && b.spread.rank_usd.width() <= 0) return false;
  return a.spread.rank_usd.overlaps(b.spread.rank_usd);
}

// The rate range of a measured roofline result: `run` on the device at its p5 and at its p95.
MeasurementSpread roofline_spread(const RooflineResult& point, const DeviceCapability& device,
                                  const RooflineRun& run) {
  const DeviceCapability low_device = at_bound(device, true);
  const DeviceCapability high_device = at_bound(device, false);
  const RooflineResult low = run(&low_device);
  const RooflineResult high = run(&high_device);
  if (!low.ok || !high.ok || low.estimated || high.estimated) {
    return no_spread("the roofline at the p5/p95 rates did not evaluate");
  }
  MeasurementSpread s;
  s.available = true;
  s.min_samples = min_samples(device, point.evidence);
  // Every term's time grows as its rate falls, so the p5 rates give the lowest roofline rate.
  s.units_per_second_per_replica = {std::min(low.units_per_second, point.units_per_second),
                                    std::max(high.units_per_second, point.units_per_second)};
  if (low.binding != point.binding) s.binding_at_low = low.binding;
  return s;
}

// The option costs at the low and the high end of the per-replica rate (`price_at(rate)`), empty
// when the spread is not available.
struct SpreadCosts {
  std::vector<OptionCost> at_low;
  std::vector<OptionCost> at_high;
};
SpreadCosts price_at_spread(const MeasurementSpread& spread,
                            const std::function<std::vector<OptionCost>(double rate)>& price_at) {
  SpreadCosts out;
  if (!spread.available) return out;
  out.at_low = price_at(spread.units_per_second_per_replica.low);
  out.at_high = price_at(spread.units_per_second_per_replica.high);
  return out;
}

// Fills the row's count, cost and perf/$ ranges from the option priced at both ends, and adds
// the count note to its cost notes when the count depends on where in the range the rate is.
void attach_option_spread(PlanRow& row, const SpreadCosts& costs) {
  MeasurementSpread& s = row.spread;
  if (!s.available) return;
  const double per_instance =
      row.units_per_second_per_replica > 0
          ? row.units_per_second_per_instance / row.units_per_second_per_replica
          : 0;
  s.units_per_second_per_instance = {s.units_per_second_per_replica.low * per_instance,
                                     s.units_per_second_per_replica.high * per_instance};
  OptionCost& c = row.cost;
  const OptionCost* low = find_option(costs.at_low, c.option);
  const OptionCost* high = find_option(costs.at_high, c.option);
  // Fewer units per second need at least as many instances: the p5 end costs the most.
  if (low != nullptr) s.instances_at_low_rate = low->instances;
  if (high != nullptr) s.instances_at_high_rate = high->instances;
  s.usd_per_month = {high ? high->usd_per_month : c.usd_per_month,
                     low ? low->usd_per_month : c.usd_per_month};
  if (c.window_usd) {
    s.window_usd = ValueRange{high && high->window_usd ? *high->window_usd : *c.window_usd,
                              low && low->window_usd ? *low->window_usd : *c.window_usd};
  }
  s.units_per_dollar = {low ? low->units_per_dollar : c.units_per_dollar,
                        high ? high->units_per_dollar : c.units_per_dollar};
  s.rank_usd = {high ? rank_of(*high) : row.rank_usd, low ? rank_of(*low) : row.rank_usd};
  const std::string count =
      std::to_string(c.instances) + (c.instances == 1 ? " instance" : " instances");
  std::string note = count;
  if (low == nullptr) {
    note += "; at the low end of what was measured (p5) more than a " + c.option + " can hold";
  } else if (low->instances != c.instances) {
    note += "; " + std::to_string(low->instances) +
            " if the rate is at the low end of what was measured (p5)";
  }
  if (high != nullptr && high->instances != c.instances) {
    note += "; " + std::to_string(high->instances) + " at the high end (p95)";
  }
  if (note != count) {
    s.count_note = note;
    c.notes.push_back(note);
  }
}

}  // namespace

std::optional<RateSpread> sample_spread(const Record& record, double value) {
  if (!record.timing) return std::nullopt;
  std::vector<double> seconds;
  for (double t : record.timing->samples_seconds) {
    if (std::isfinite(t) && t > 0) seconds.push_back(t);
  }
  if (seconds.size() < 2) return std::nullopt;
  std::sort(seconds.begin(), seconds.end());
  const double median = percentile_sorted(seconds, 0.5);
  std::vector<double> rates;
  rates.reserve(seconds.size());
  for (double t : seconds) rates.push_back(value * median / t);
  std::sort(rates.begin(), rates.end());
  RateSpread s;
  s.samples = seconds.size();
  s.p5 = std::min(value, percentile_sorted(rates, kSpreadLowPercentile));
  s.p95 = std::max(value, percentile_sorted(rates, kSpreadHighPercentile));
  return s;
}

DeviceCapability at_bound(const DeviceCapability& device, bool low) {
  DeviceCapability out = device;
  for_each_rate(out, [low](ResourceRate& r) {
    if (r.spread) r.value = low ? r.spread->p5 : r.spread->p95;
  });
  return out;
}

MeasurementSpread no_spread(const std::string& why) {
  MeasurementSpread s;
  s.why_not = why;
  return s;
}

RooflinePasses roofline_passes(const DeviceCapability* device, const RooflineRun& run) {
  RooflinePasses out;
  out.point = run(device);
  if (!out.point.ok) return out;
  out.spread = device == nullptr
                   ? no_spread("estimated from datasheet peaks: nothing measured to spread")
                   : roofline_spread(out.point, *device, run);
  return out;
}

std::vector<PlanRow> priced_rows(const PlanRow& row, const InstanceTypeInfo& type,
                                 const Demand& workload,
                                 const std::function<CountModel(double rate)>& model_at,
                                 const EngineOptions& options, const std::string& region,
                                 std::vector<Excluded>& excluded) {
  auto costs = price_options(type, workload, model_at(row.units_per_second_per_replica), options,
                             region, excluded);
  EngineOptions unbounded = options;
  unbounded.max_instances.reset();
  const SpreadCosts spread_costs = price_at_spread(row.spread, [&](double rate) {
    std::vector<Excluded> ignored;
    return price_options(type, workload, model_at(rate), unbounded, region, ignored);
  });
  std::vector<PlanRow> rows;
  for (auto& c : costs) {
    PlanRow r = row;
    r.cost = std::move(c);
    r.rank_usd = rank_of(r.cost);
    attach_option_spread(r, spread_costs);
    rows.push_back(std::move(r));
  }
  return rows;
}

void mark_ties(Plan& plan) {
  for (std::size_t i = 0; i < plan.rows.size(); ++i) {
    for (std::size_t j = i + 1; j < plan.rows.size(); ++j) {
      PlanRow& a = plan.rows[i];
      PlanRow& b = plan.rows[j];
      // Ranked in one group (measured, then the rest) and both with a measured spread.
      if (!a.spread.available || !b.spread.available) continue;
      if ((a.label == PlanLabel::measured) != (b.label == PlanLabel::measured)) continue;
      if (!indistinguishable(a, b)) continue;
      a.spread.indistinguishable_from.push_back(static_cast<int>(j + 1));
      b.spread.indistinguishable_from.push_back(static_cast<int>(i + 1));
    }
  }
  if (plan.rows.empty() || plan.rows.front().spread.indistinguishable_from.empty()) return;
  std::string others;
  for (int rank : plan.rows.front().spread.indistinguishable_from) {
    const PlanRow& o = plan.rows[static_cast<std::size_t>(rank - 1)];
    others += (others.empty() ? "#" : ", #") + std::to_string(rank) + " " + o.instance_type + " " +
              o.cost.option;
  }
  plan.summary.push_back(
      "the top plan is indistinguishable within the measurement (p5-p95 of the samples) from " +
      others +
      ": which costs less can change within the measured range; measure again with more "
      "samples or choose on other grounds");
}

}  // namespace gpusizer::sizing::detail
