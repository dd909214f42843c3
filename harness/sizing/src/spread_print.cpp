// The printers' side of the measurement spread: a row's JSON and the plan's text lines.
#include <algorithm>
#include <utility>

#include "gpusizer/sizing/plan_print.hpp"
#include "gpusizer/text.hpp"
#include "uncertainty.hpp"

namespace gpusizer::sizing::detail {
namespace {

using nlohmann::json;

json range_json(const ValueRange& r) {
  return {{"low", r.low}, {"high", r.high}};
}

}  // namespace

std::string rank_list(const std::vector<int>& ranks) {
  std::string out;
  for (int r : ranks) out += (out.empty() ? "#" : ", #") + std::to_string(r);
  return out;
}

std::string number_range(const ValueRange& r) {
  return short_number(r.low) + "-" + short_number(r.high);
}

std::string usd_range(const ValueRange& r) {
  return format_usd(r.low) + "-" + format_usd(r.high);
}

std::string count_at_ends(const MeasurementSpread& s) {
  std::string out =
      s.instances_at_low_rate ? std::to_string(*s.instances_at_low_rate) : "more than buyable";
  out += " at p5, ";
  out += s.instances_at_high_rate ? std::to_string(*s.instances_at_high_rate) : "-";
  return out + " at p95";
}

std::string count_text(const PlanRow& row) {
  return std::to_string(row.cost.instances) + " instance(s) (" + count_at_ends(row.spread) + ")";
}

json spread_json(const MeasurementSpread& s) {
  if (!s.available) return {{"available", false}, {"why_not", s.why_not}};
  json j{{"available", true},
         {"percentiles", {5, 95}},
         {"min_samples", s.min_samples},
         {"units_per_second_per_replica", range_json(s.units_per_second_per_replica)},
         {"units_per_second_per_instance", range_json(s.units_per_second_per_instance)},
         {"instances",
          {{"at_low_rate", s.instances_at_low_rate ? json(*s.instances_at_low_rate) : json()},
           {"at_high_rate", s.instances_at_high_rate ? json(*s.instances_at_high_rate) : json()}}},
         {"usd_per_month", range_json(s.usd_per_month)},
         {"units_per_dollar", range_json(s.units_per_dollar)},
         {"rank_usd", range_json(s.rank_usd)},
         {"indistinguishable_from", s.indistinguishable_from}};
  if (s.window_usd) j["window_usd"] = range_json(*s.window_usd);
  if (!s.binding_at_low.empty()) j["binding_at_low"] = s.binding_at_low;
  return j;
}

std::vector<std::string> spread_lines(const Plan& plan) {
  std::vector<std::string> lines;
  // Options without a measured spread: one line per reason, listing their ranks.
  std::vector<std::pair<std::string, std::vector<int>>> without;
  for (std::size_t i = 0; i < plan.rows.size(); ++i) {
    const PlanRow& r = plan.rows[i];
    const MeasurementSpread& s = r.spread;
    if (!s.available) {
      auto it = std::find_if(without.begin(), without.end(),
                             [&](const auto& w) { return w.first == s.why_not; });
      if (it == without.end()) it = without.insert(without.end(), {s.why_not, {}});
      it->second.push_back(static_cast<int>(i + 1));
      continue;
    }
    std::string line = "#" + std::to_string(i + 1) + " " + r.instance_type +
                       (r.mig_profile ? " [MIG " + *r.mig_profile + "]" : "") + " " +
                       r.cost.option + ": ";
    line += number_range(s.units_per_second_per_replica) + " " + plan.unit + "/s per replica";
    if (!s.binding_at_low.empty()) line += " (binding at p5: " + s.binding_at_low + ")";
    line += ", " + count_text(r) + ", " +
            (s.window_usd ? usd_range(*s.window_usd) + " over the window"
                          : usd_range(s.usd_per_month) + "/month") +
            ", perf/$ " + number_range(s.units_per_dollar) + " " + plan.unit + "/$";
    line += s.min_samples > 0 ? ", >= " + std::to_string(s.min_samples) + " samples per rate"
                              : ", a rate without samples counted as exact";
    if (!s.indistinguishable_from.empty()) {
      line +=
          "; indistinguishable within the measurement from " + rank_list(s.indistinguishable_from);
    }
    lines.push_back(line);
  }
  for (const auto& [why, list] : without) {
    lines.push_back(rank_list(list) + ": no measured spread (" + why + ")");
  }
  return lines;
}

}  // namespace gpusizer::sizing::detail
