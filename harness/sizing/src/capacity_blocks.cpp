// `aws ec2 describe-capacity-block-offerings` output -> capacity_block prices. The hourly price
// per instance is UpfrontFee / (InstanceCount x (CapacityBlockDurationHours +
// CapacityBlockDurationMinutes / 60)); the offering (AZ, start, end, count, duration, fee) stays
// with the price so the plan can say when it needs another count or duration than the offer.
#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "gpusizer/sizing/aws_import.hpp"
#include "gpusizer/sizing/dates.hpp"
#include "gpusizer/text.hpp"
#include "input_checks.hpp"

namespace gpusizer::sizing {
namespace {

struct Offer {
  std::string type;
  CapacityOffer offer;
  double usd_per_hour = 0;
  bool started = false;
  std::string pointer;
};

bool block_size(int n) {
  return n == 1 || n == 2 || n == 4 || n == 8 || n == 16 || n == 32 || n == 64;
}

}  // namespace

AwsImport import_capacity_block_offerings(const JsonInput& in, const AwsImportOptions& options) {
  if (!in.is_object()) {
    in.fail("expected `aws ec2 describe-capacity-block-offerings` output (a JSON object), got " +
            describe_json(in.raw()));
  }
  AwsImport result;
  result.format = "aws ec2 describe-capacity-block-offerings";
  result.option = "capacity_block";
  result.overlay.region = options.region;
  result.overlay.generated_from = result.format + " (" + in.source() + ")";
  result.as_of = options.as_of.empty() ? format_day(options.today) : options.as_of;
  auto list = in.at("CapacityBlockOfferings");
  std::map<std::string, int> left_out;
  std::vector<Offer> offers;
  for (const auto& item : list.items()) {
    ++result.rows_seen;
    Offer o;
    o.pointer = item.pointer();
    o.type = item.at("InstanceType").non_empty_string();
    o.offer.id = item.optional_string("CapacityBlockOfferingId").value_or("");
    o.offer.availability_zone = item.at("AvailabilityZone").non_empty_string();
    auto count = item.at("InstanceCount");
    o.offer.instance_count = static_cast<int>(count.count());
    if (o.offer.instance_count < 1) count.fail("expected at least 1 instance");
    std::int64_t bounds[2] = {0, 0};
    const char* names[2] = {"StartDate", "EndDate"};
    for (int i = 0; i < 2; ++i) {
      bounds[i] = detail::timestamp_at(item.at(names[i]),
                                       "2026-12-01T11:30:00Z or 2026-12-01T11:30:00+00:00");
    }
    o.offer.start_date = item.at("StartDate").string();
    o.offer.end_date = item.at("EndDate").string();
    auto hours = item.at("CapacityBlockDurationHours");
    double duration = static_cast<double>(hours.count());
    if (auto minutes = item.find("CapacityBlockDurationMinutes")) {
      const auto m = minutes->count();
      if (m > 59) minutes->fail("expected 0..59 minutes");
      duration += static_cast<double>(m) / 60.0;
    }
    if (duration <= 0) hours.fail("expected a duration of more than 0 hours");
    o.offer.duration_hours = duration;
    o.offer.upfront_fee_usd = positive_decimal(item.at("UpfrontFee"));
    if (auto currency = item.find("CurrencyCode")) {
      const std::string code = currency->string();
      if (code != "USD") {
        currency->fail("expected \"USD\" (gpusizer never converts currencies), got \"" + code +
                       "\"");
      }
    } else {
      result.warnings.push_back(in.source() + ": " + item.pointer() +
                                ": no CurrencyCode: the fee is read as USD");
    }
    const std::string region = region_of_zone(o.offer.availability_zone);
    if (region.empty()) {
      item.at("AvailabilityZone")
          .fail("expected an Availability Zone name (us-east-1a), got \"" +
                o.offer.availability_zone + "\"");
    }
    if (item.has("UltraserverType")) {
      ++left_out["UltraServer offerings (what InstanceCount counts is not confirmed)"];
      continue;
    }
    if (item.optional_string("Tenancy").value_or("default") != "default") {
      ++left_out["dedicated-tenancy offerings"];
      continue;
    }
    if (region != options.region) {
      ++left_out["offerings of region " + region];
      continue;
    }
    const double span_hours = static_cast<double>(bounds[1] - bounds[0]) / 3600.0;
    if (std::fabs(span_hours - duration) > 1.0 / 60.0) {
      result.warnings.push_back(in.source() + ": " + item.pointer() + ": EndDate - StartDate is " +
                                significant(span_hours, 6) + " h but the offering states " +
                                significant(duration, 6) + " h: the price uses the stated " +
                                significant(duration, 6) + " h");
    }
    if (!block_size(o.offer.instance_count)) {
      result.warnings.push_back(in.source() + ": " + item.pointer() + ": " +
                                std::to_string(o.offer.instance_count) +
                                " instances is not a capacity block size (1, 2, 4, ..., 64)");
    }
    o.usd_per_hour = o.offer.upfront_fee_usd / (o.offer.instance_count * duration);
    o.started = options.today > 0 && bounds[0] < options.today * 86400;
    ++result.rows_kept;
    offers.push_back(std::move(o));
  }
  for (const auto& [why, n] : left_out) {
    result.left_out.push_back(std::to_string(n) + " " + why);
  }
  if (auto token = in.optional_string("NextToken"); token && !token->empty()) {
    result.warnings.push_back(in.source() +
                              ": /NextToken: the file is one page of several (a NextToken is "
                              "left): offerings on later pages are missing");
  }
  if (offers.empty()) {
    std::string why;
    for (const auto& l : result.left_out) why += (why.empty() ? "" : "; ") + l;
    list.fail("no capacity block offering for region " + options.region +
              (why.empty() ? "" : " (left out: " + why + ")"));
  }
  // One price per type: an offering that has not started yet, then the lowest rate, then the
  // earliest start.
  std::stable_sort(offers.begin(), offers.end(), [](const Offer& a, const Offer& b) {
    if (a.type != b.type) return a.type < b.type;
    if (a.started != b.started) return !a.started;
    if (a.usd_per_hour != b.usd_per_hour) return a.usd_per_hour < b.usd_per_hour;
    return a.offer.start_date < b.offer.start_date;
  });
  for (std::size_t i = 0; i < offers.size(); ++i) {
    if (i > 0 && offers[i].type == offers[i - 1].type) continue;
    const Offer& o = offers[i];
    std::size_t others = 0;
    for (std::size_t j = i + 1; j < offers.size() && offers[j].type == o.type; ++j) ++others;
    Price p;
    p.usd_per_hour = o.usd_per_hour;
    p.source =
        result.format + " (" + in.source() + (o.offer.id.empty() ? "" : ", " + o.offer.id) + ")";
    p.as_of = result.as_of;
    p.offering = o.offer;
    std::ostringstream note;
    note << "capacity block offer: " << o.offer.instance_count << " instance(s) in "
         << o.offer.availability_zone << ", " << o.offer.start_date << " to " << o.offer.end_date
         << ", upfront " << exact_usd(o.offer.upfront_fee_usd) << " / (" << o.offer.instance_count
         << " x " << significant(o.offer.duration_hours, 6) << " h) per instance-hour";
    if (others > 0)
      note << "; " << others << " other offering(s) for this type in the file not kept";
    p.note = note.str();
    if (o.started) {
      result.warnings.push_back(o.type + ": the offering " + o.offer.id + " (" + in.source() + " " +
                                o.pointer + ") started on " + o.offer.start_date +
                                ", before today: it can no longer be bought as offered");
    }
    result.details.push_back(o.type + ": " + exact_usd(p.usd_per_hour) + "/h per instance (" +
                             p.note + ")");
    result.overlay.prices.push_back({o.type, "capacity_block", p});
  }
  return result;
}

}  // namespace gpusizer::sizing
