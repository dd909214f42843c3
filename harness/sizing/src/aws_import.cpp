#include "gpusizer/sizing/aws_import.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <set>

#include "gpusizer/error.hpp"
#include "gpusizer/sizing/dates.hpp"
#include "gpusizer/sizing/price_list.hpp"

namespace gpusizer::sizing {

double positive_decimal(const JsonInput& value) {
  double v = 0;
  if (value.raw().is_number()) {
    v = value.number();
  } else if (value.raw().is_string()) {
    const std::string text = value.string();
    std::size_t i = 0;
    std::size_t digits = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i, ++digits;
    if (i < text.size() && text[i] == '.') {
      ++i;
      std::size_t fraction = 0;
      while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i, ++fraction;
      if (fraction == 0) digits = 0;
    }
    if (digits == 0 || i != text.size()) {
      value.fail("expected a positive decimal price (\"0.087000\"), got " +
                 describe_json(value.raw()));
    }
    v = std::stod(text);
  } else {
    value.fail("expected a positive decimal price (\"0.087000\"), got " +
               describe_json(value.raw()));
  }
  if (!(v > 0)) value.fail("expected a positive price, got " + describe_json(value.raw()));
  return v;
}

std::string region_of_zone(const std::string& zone) {
  // <region><letter>: us-east-1a; Local Zones <region>-<city>-<n><letter>: us-east-1-dfw-2a.
  if (zone.size() < 4 || !std::islower(static_cast<unsigned char>(zone.back()))) return "";
  const std::string body = zone.substr(0, zone.size() - 1);
  std::size_t from = 0;
  while (from <= body.size()) {
    std::size_t dash = body.find('-', from);
    const std::string part =
        body.substr(from, dash == std::string::npos ? std::string::npos : dash - from);
    const bool numeric = !part.empty() && std::all_of(part.begin(), part.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c));
    });
    if (numeric) {
      const std::string region = body.substr(0, from + part.size());
      return from == 0 ? "" : region;
    }
    if (dash == std::string::npos) break;
    from = dash + 1;
  }
  return "";
}

AwsImport import_aws_file(const std::filesystem::path& file, AwsImportOptions options,
                          const Catalog& catalog) {
  std::optional<int> streamed_rows;  // set for a Price List bulk file too large to parse whole
  nlohmann::json doc = load_aws_document(file, options.region, streamed_rows);
  JsonInput in(doc, file.string());
  if (!in.is_object()) {
    in.fail("expected AWS CLI output (a JSON object), got " + describe_json(in.raw()));
  }
  if (options.today == 0) options.today = today_utc();
  AwsImport result;
  std::string list_pointer;
  if (in.has("SpotPriceHistory")) {
    result = import_spot_price_history(in, options);
    list_pointer = "/SpotPriceHistory";
  } else if (in.has("CapacityBlockOfferings")) {
    if (options.as_of.empty()) {
      // The CLI output carries no query time: the file's modification time stands for it.
      std::error_code ec;
      const auto written = std::filesystem::last_write_time(file, ec);
      if (!ec) {
        const auto system = std::chrono::file_clock::to_sys(written);
        options.as_of = format_timestamp(
            std::chrono::duration_cast<std::chrono::seconds>(system.time_since_epoch()).count());
      }
    }
    result = import_capacity_block_offerings(in, options);
    list_pointer = "/CapacityBlockOfferings";
  } else if (in.has("products") || in.has("PriceList")) {
    PriceListImport p = import_price_list(in, options.region);
    result.overlay = p.overlay;
    result.overlay.generated_from = "AWS Price List (" + p.format + ", " + in.source() + ")";
    result.format = "AWS Price List " + p.format;
    result.option = "on_demand";
    result.as_of = p.as_of;
    result.rows_seen = streamed_rows.value_or(p.rows_seen);
    result.rows_kept = p.rows_kept;
    list_pointer = in.has("products") ? "/products" : "/PriceList";
  } else {
    in.fail(
        "expected \"products\" (Price List bulk offer file), \"PriceList\" (aws pricing "
        "get-products), \"SpotPriceHistory\" (aws ec2 describe-spot-price-history) or "
        "\"CapacityBlockOfferings\" (aws ec2 describe-capacity-block-offerings)");
  }
  std::set<std::string> unknown;
  std::vector<PriceOverride> kept;
  for (auto& p : result.overlay.prices) {
    if (catalog.find_instance(p.instance_type) == nullptr) {
      unknown.insert(p.instance_type);
    } else {
      kept.push_back(std::move(p));
    }
  }
  result.overlay.prices = std::move(kept);
  std::vector<std::string> details;
  for (auto& d : result.details) {
    if (unknown.count(d.substr(0, d.find(':'))) == 0) details.push_back(std::move(d));
  }
  result.details = std::move(details);
  if (!unknown.empty()) {
    std::string names;
    std::size_t shown = 0;
    for (const auto& t : unknown) {
      if (shown++ == 10) {
        names += ", ...";
        break;
      }
      names += (names.empty() ? "" : ", ") + t;
    }
    result.left_out.push_back(std::to_string(unknown.size()) +
                              " instance type(s) the catalog lacks: " + names);
  }
  if (result.overlay.prices.empty()) {
    std::string why;
    for (const auto& l : result.left_out) why += (why.empty() ? "" : "; ") + l;
    throw InputError(file.string() + ": " + list_pointer +
                     ": no price for an instance type of the catalog in " + options.region +
                     (why.empty() ? "" : " (left out: " + why + ")"));
  }
  return result;
}

}  // namespace gpusizer::sizing
