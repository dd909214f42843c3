#include "gpusizer/sizing/price_list.hpp"

#include <map>
#include <memory>

#include "gpusizer/error.hpp"

namespace gpusizer::sizing {
namespace {

// Region codes of the `location` names older Price List files carry instead of regionCode.
std::string region_of_location(const std::string& location) {
  static const std::map<std::string, std::string> kRegions = {
      {"US East (N. Virginia)", "us-east-1"},
      {"US East (Ohio)", "us-east-2"},
      {"US West (N. California)", "us-west-1"},
      {"US West (Oregon)", "us-west-2"}};
  auto it = kRegions.find(location);
  return it == kRegions.end() ? "" : it->second;
}

std::string attr(const JsonInput& attributes, std::string_view key) {
  if (auto v = attributes.find(key)) return v->string();
  return "";
}

// The filters; returns "" when the row is an on-demand Linux shared compute row of `region`.
std::string rejection(const JsonInput& product, const std::string& region) {
  if (auto family = product.optional_string("productFamily");
      family && *family != "Compute Instance") {
    return "productFamily";
  }
  auto a = product.at("attributes");
  const std::string row_region =
      a.has("regionCode") ? attr(a, "regionCode") : region_of_location(attr(a, "location"));
  if (row_region != region) return "region";
  if (attr(a, "operatingSystem") != "Linux") return "operatingSystem";
  if (attr(a, "tenancy") != "Shared") return "tenancy";
  if (attr(a, "preInstalledSw") != "NA") return "preInstalledSw";
  if (attr(a, "capacitystatus") != "Used") return "capacitystatus";
  if (a.has("marketoption") && attr(a, "marketoption") != "OnDemand") return "marketoption";
  if (a.has("licenseModel") && attr(a, "licenseModel") != "No License required")
    return "licenseModel";
  if (attr(a, "operation") != "RunInstances") return "operation";
  if (attr(a, "instanceType").empty()) return "instanceType";
  return "";
}

struct Found {
  double usd = 0;
  std::string effective;
  std::string where;
};

// The hourly USD price in one sku's OnDemand terms (JSON path kept for errors).
std::optional<Found> on_demand_price(const JsonInput& sku_terms) {
  std::optional<Found> found;
  for (const auto& term_code : sku_terms.keys()) {
    auto term = sku_terms.at(term_code);
    for (const auto& dim_code : term.at("priceDimensions").keys()) {
      auto dim = term.at("priceDimensions").at(dim_code);
      if (dim.optional_string("unit").value_or("") != "Hrs") continue;
      auto usd = dim.at("pricePerUnit").at("USD");
      const std::string text = usd.string();
      double value = 0;
      try {
        value = std::stod(text);
      } catch (const std::exception&) {
        usd.fail("expected a decimal price, got " + describe_json(usd.raw()));
      }
      if (found && found->usd != value) {
        dim.fail("several hourly on-demand prices for one SKU");
      }
      found = Found{value, term.optional_string("effectiveDate").value_or(""), dim.pointer()};
    }
  }
  return found;
}

void keep(PriceListImport& result, std::map<std::string, Found>& prices, const JsonInput& product,
          const std::optional<JsonInput>& sku_terms) {
  if (!sku_terms) return;
  auto price = on_demand_price(*sku_terms);
  if (!price || price->usd <= 0) return;  // $0 rows are never prices
  const std::string type = attr(product.at("attributes"), "instanceType");
  if (auto it = prices.find(type); it != prices.end() && it->second.usd != price->usd) {
    sku_terms->fail("two on-demand Linux shared rows for " + type + " with different prices ($" +
                    std::to_string(it->second.usd) + " and $" + std::to_string(price->usd) + ")");
  }
  prices[type] = *price;
  ++result.rows_kept;
}

}  // namespace

PriceListImport import_price_list(const JsonInput& in, const std::string& region) {
  if (!in.is_object())
    in.fail("expected an AWS Price List document (a JSON object), got " + describe_json(in.raw()));
  PriceListImport result;
  result.overlay.region = region;
  std::map<std::string, Found> prices;
  std::string version;
  std::string publication;
  std::vector<nlohmann::json> parsed;  // get-products items, kept alive for their inputs
  if (in.has("products")) {
    result.format = "bulk offer file";
    version = in.optional_string("version").value_or("");
    publication = in.optional_string("publicationDate").value_or("");
    auto products = in.at("products");
    auto on_demand = in.at("terms").find("OnDemand");
    for (const auto& sku : products.keys()) {
      auto product = products.at(sku);
      ++result.rows_seen;
      if (!rejection(product, region).empty()) continue;
      keep(result, prices, product, on_demand ? on_demand->find(sku) : std::nullopt);
    }
  } else if (in.has("PriceList")) {
    result.format = "pricing get-products";
    auto list = in.at("PriceList").items();
    parsed.reserve(list.size());
    for (const auto& item : list) {
      const std::string where = in.source() + " " + item.pointer();
      parsed.push_back(JsonInput::parse_text(item.string(), where));
      JsonInput doc(parsed.back(), in.source(), item.pointer());
      ++result.rows_seen;
      auto product = doc.at("product");
      if (version.empty()) version = doc.optional_string("version").value_or("");
      if (publication.empty()) publication = doc.optional_string("publicationDate").value_or("");
      if (!rejection(product, region).empty()) continue;
      auto terms = doc.find("terms");
      keep(result, prices, product, terms ? terms->find("OnDemand") : std::nullopt);
    }
  } else {
    in.fail(
        "expected \"products\" (bulk offer file) or \"PriceList\" (pricing get-products output)");
  }
  std::string as_of = publication;
  if (as_of.empty()) as_of = version;
  const std::string source = "AWS Price List (" + result.format + ", " + in.source() +
                             (version.empty() ? "" : ", version " + version) + ")";
  for (const auto& [type, found] : prices) {
    Price p;
    p.usd_per_hour = found.usd;
    p.source = source;
    p.as_of = !as_of.empty()             ? as_of
              : !found.effective.empty() ? found.effective
                                         : "unknown (no date in the file)";
    p.note = "Linux, shared tenancy, on-demand, no pre-installed software";
    result.overlay.prices.push_back({type, "on_demand", p});
  }
  result.as_of = as_of;
  return result;
}

PriceListImport import_price_list_file(const std::filesystem::path& file,
                                       const std::string& region) {
  nlohmann::json doc = JsonInput::parse_file(file);
  return import_price_list(JsonInput(doc, file.string()), region);
}

}  // namespace gpusizer::sizing
