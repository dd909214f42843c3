// `aws ec2 describe-spot-price-history` output -> spot prices. Each row is a price change of one
// (instance type, product description, Availability Zone) at `Timestamp`; a price stays in force
// until the next change. Per zone we take the highest price in force during the window (the
// last change before the window counts: it was in force when the window opened), then one
// stated statistic across zones.
#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "gpusizer/error.hpp"
#include "gpusizer/sizing/aws_import.hpp"
#include "gpusizer/sizing/dates.hpp"
#include "gpusizer/text.hpp"
#include "input_checks.hpp"

namespace gpusizer::sizing {
namespace {

struct Change {
  std::int64_t at = 0;
  double usd = 0;
};

bool linux_unix(const std::string& description) {
  return description == "Linux/UNIX" || description == "Linux/UNIX (Amazon VPC)";
}

double quantile_of(SpotStatistic statistic) {
  switch (statistic) {
    case SpotStatistic::min:
      return 0.0;
    case SpotStatistic::p50:
      return 0.5;
    case SpotStatistic::p90:
      return 0.9;
    case SpotStatistic::max:
      return 1.0;
  }
  return 1.0;
}

double statistic_of(std::vector<double> values, SpotStatistic statistic) {
  std::sort(values.begin(), values.end());
  const double n = static_cast<double>(values.size());
  const double q = quantile_of(statistic);
  std::size_t rank = q <= 0 ? 1 : static_cast<std::size_t>(std::ceil(q * n - 1e-9));
  rank = std::clamp<std::size_t>(rank, 1, values.size());
  return values[rank - 1];
}

std::string count_text(int n, const std::string& what) {
  return std::to_string(n) + " row" + (n == 1 ? "" : "s") + " " + what;
}

}  // namespace

AwsImport import_spot_price_history(const JsonInput& in, const AwsImportOptions& options) {
  if (!in.is_object()) {
    in.fail("expected `aws ec2 describe-spot-price-history` output (a JSON object), got " +
            describe_json(in.raw()));
  }
  if (options.window_days < 1) throw InputError("--window-days: expected at least 1 day");
  AwsImport result;
  result.format = "aws ec2 describe-spot-price-history";
  result.option = "spot";
  result.overlay.region = options.region;
  result.overlay.generated_from = result.format + " (" + in.source() + ")";
  auto list = in.at("SpotPriceHistory");
  // type -> zone -> changes
  std::map<std::string, std::map<std::string, std::vector<Change>>> series;
  std::map<std::string, int> left_out;
  std::int64_t newest = 0;
  bool any = false;
  for (const auto& item : list.items()) {
    ++result.rows_seen;
    const std::string type = item.at("InstanceType").non_empty_string();
    const std::string description = item.at("ProductDescription").non_empty_string();
    const std::string zone = item.at("AvailabilityZone").non_empty_string();
    const std::int64_t at = detail::timestamp_at(
        item.at("Timestamp"), "2014-01-06T07:10:55.000Z or 2014-01-06T07:10:55+00:00");
    const double usd = positive_decimal(item.at("SpotPrice"));
    const std::string region = region_of_zone(zone);
    if (region.empty()) {
      item.at("AvailabilityZone")
          .fail("expected an Availability Zone name (us-east-1a), got \"" + zone + "\"");
    }
    if (!linux_unix(description)) {
      ++left_out["with product description \"" + description + "\""];
      continue;
    }
    if (region != options.region) {
      ++left_out["of region " + region];
      continue;
    }
    auto& changes = series[type][zone];
    const Change c{at, usd};
    // Linux/UNIX and Linux/UNIX (Amazon VPC) rows of one change are the same price.
    if (std::any_of(changes.begin(), changes.end(),
                    [&](const Change& o) { return o.at == c.at && o.usd == c.usd; })) {
      ++left_out["repeating a change already read"];
      continue;
    }
    changes.push_back(c);
    ++result.rows_kept;
    newest = any ? std::max(newest, at) : at;
    any = true;
  }
  for (const auto& [why, n] : left_out) result.left_out.push_back(count_text(n, why));
  if (auto token = in.optional_string("NextToken"); token && !token->empty()) {
    result.warnings.push_back(in.source() +
                              ": /NextToken: the file is one page of several (a NextToken is "
                              "left): zones or changes on later pages are missing");
  }
  if (!any) {
    std::string why;
    for (const auto& l : result.left_out) why += (why.empty() ? "" : "; ") + l;
    list.fail("no Linux/UNIX spot price for region " + options.region +
              (why.empty() ? "" : " (" + why + ")"));
  }
  const std::int64_t window_start = newest - static_cast<std::int64_t>(options.window_days) * 86400;
  result.as_of = format_timestamp(newest);
  const std::int64_t newest_day = *as_of_day(result.as_of);
  if (options.today > 0 && options.today - newest_day > options.max_price_age_days) {
    result.warnings.push_back("the newest spot price change in " + in.source() + " is from " +
                              result.as_of + ", " + std::to_string(options.today - newest_day) +
                              " days ago: fetch a current history (--start-time)");
  }
  for (auto& [type, zones] : series) {
    std::vector<double> zone_values;
    std::string per_zone;
    for (auto& [zone, changes] : zones) {
      std::sort(changes.begin(), changes.end(),
                [](const Change& a, const Change& b) { return a.at < b.at; });
      double highest = 0;
      bool seen = false;
      for (std::size_t i = 0; i < changes.size(); ++i) {
        const bool in_window = changes[i].at >= window_start;
        const bool in_force_at_start =
            changes[i].at < window_start &&
            (i + 1 == changes.size() || changes[i + 1].at > window_start);
        if (in_window || in_force_at_start) {
          highest = seen ? std::max(highest, changes[i].usd) : changes[i].usd;
          seen = true;
        }
      }
      zone_values.push_back(highest);
      per_zone += (per_zone.empty() ? "" : ", ") + zone + " " + exact_usd(highest);
    }
    Price p;
    p.usd_per_hour = statistic_of(zone_values, options.statistic);
    p.source = result.format + " (" + in.source() + ")";
    p.as_of = result.as_of;
    std::ostringstream note;
    note << "Linux/UNIX spot, " << to_string(options.statistic) << " across " << zone_values.size()
         << " Availability Zone(s) of each zone's highest price in force in the "
         << options.window_days << " day(s) to " << result.as_of << ": " << per_zone;
    p.note = note.str();
    result.details.push_back(type + ": " + exact_usd(p.usd_per_hour) + "/h (" + p.note + ")");
    result.overlay.prices.push_back({type, "spot", p});
  }
  return result;
}

}  // namespace gpusizer::sizing
