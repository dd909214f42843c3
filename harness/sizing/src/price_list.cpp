#include "gpusizer/sizing/price_list.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <set>

#include "gpusizer/error.hpp"
#include "gpusizer/input_file.hpp"

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

// Which parts of a bulk offer file the stream keeps (parser callback; see stream_price_list_bulk).
class BulkFilter {
 public:
  BulkFilter(std::string source, std::string region)
      : source_(std::move(source)), region_(std::move(region)) {}

  bool operator()(int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using E = nlohmann::json::parse_event_t;
    if ((event == E::object_start || event == E::array_start) && depth >= kMaxJsonDepth) {
      throw InputError(source_ + ": JSON nested deeper than the limit of " +
                       std::to_string(kMaxJsonDepth) + " levels");
    }
    // nlohmann's callback parser scans a kept container's parent for discarded values at every
    // container end: quadratic in the containers kept. A real regional file keeps ~1000 rows of
    // ~7 containers each; a file that keeps far more is not one.
    if ((event == E::object_end || event == E::array_end) && depth >= 3) {
      count_container(!path_.empty() && path_[0] == "products" ? row_containers_
                                                               : containers_kept_);
    }
    if (event == E::key) {
      path_.resize(static_cast<std::size_t>(depth));
      path_.back() = parsed.get<std::string>();
      return keep_key(depth);
    }
    if (depth == 1 && !path_.empty() && path_[0] == "products" &&
        (event == E::array_start || event == E::value)) {
      fail("/products", "expected an object of products, got " + describe(event, parsed));
    }
    if (depth == 2 && path_.size() >= 2 && path_[0] == "products") {
      if (event == E::array_start || event == E::value) {
        fail("/products/" + path_[1], "expected an object, got " + describe(event, parsed));
      }
      if (event == E::object_end) return keep_product(parsed);
    }
    return true;
  }

  int rows_seen() const { return rows_seen_; }

 private:
  static std::string describe(nlohmann::json::parse_event_t event, const nlohmann::json& parsed) {
    return event == nlohmann::json::parse_event_t::array_start ? "an array" : describe_json(parsed);
  }

  [[noreturn]] void fail(const std::string& pointer, const std::string& what) const {
    throw InputError(source_ + ": " + pointer + ": " + what);
  }

  bool keep_key(int depth) {
    const std::string& key = path_.back();
    if (depth == 1) {
      if (key == "products") products_seen_ = true;
      // AWS's bulk files list products before terms; keeping every term until the products
      // come would hold the whole file.
      if (key == "terms" && !products_seen_) {
        fail("/terms", "comes before \"products\" (a bulk offer file lists products first)");
      }
      return key == "products" || key == "terms" || key == "version" || key == "publicationDate";
    }
    if (depth == 2 && path_[0] == "terms") return key == "OnDemand";
    if (depth == 3 && path_[0] == "terms") return kept_.count(key) > 0;
    return true;
  }

  bool keep_product(const nlohmann::json& product) {
    ++rows_seen_;
    const long inside = row_containers_ + 1;
    row_containers_ = 0;
    JsonInput row(product, source_, "/products/" + path_[1]);
    if (!rejection(row, region_).empty()) return false;
    kept_.insert(path_[1]);
    containers_kept_ += inside - 1;
    count_container(containers_kept_);
    return true;
  }

  void count_container(long& count) const {
    if (++count > kMaxContainersKept) {
      throw InputError(source_ + ": more than " + std::to_string(kMaxContainersKept) +
                       " JSON objects in the rows kept: not an AWS Price List bulk file");
    }
  }

  std::string source_;
  std::string region_;
  std::vector<std::string> path_;  // the keys down to the current value
  std::set<std::string> kept_;     // SKUs of the rows kept
  bool products_seen_ = false;
  int rows_seen_ = 0;
  static constexpr long kMaxContainersKept = 100000;
  long containers_kept_ = 0;  // in the rows and terms kept so far
  long row_containers_ = 0;   // in the product row being read
};

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

}  // namespace

StreamedPriceList stream_price_list_bulk(const std::filesystem::path& file,
                                         const std::string& region) {
  const std::string source = file.string();
  check_input_file(file, input_kinds::price_list);
  const int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) throw InputError(source + ": cannot open for reading: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw InputError(source + ": not a regular file, expected an AWS Price List bulk file");
  }
  std::unique_ptr<std::FILE, FileCloser> in(::fdopen(fd, "rb"));
  if (!in) {
    ::close(fd);
    throw InputError(source + ": cannot open for reading: " + std::strerror(errno));
  }
  BulkFilter filter(source, region);
  StreamedPriceList out;
  try {
    out.document = nlohmann::json::parse(
        in.get(), [&filter](int depth, nlohmann::json::parse_event_t event,
                            nlohmann::json& parsed) { return filter(depth, event, parsed); });
  } catch (const nlohmann::json::exception& e) {
    std::string what = e.what();
    if (auto pos = what.find("] "); pos != std::string::npos) what = what.substr(pos + 2);
    throw InputError(source + ": not valid JSON: " + what);
  } catch (const std::bad_alloc&) {
    throw InputError(source + ": not enough memory to read this " +
                     describe_size(static_cast<std::uint64_t>(st.st_size)) + " Price List file");
  }
  if (!out.document.is_object() || !out.document.contains("products")) {
    throw InputError(
        source + ": larger than the " + describe_size(input_kinds::aws_cli_output.max_bytes) +
        " limit for AWS CLI output (" + describe_size(static_cast<std::uint64_t>(st.st_size)) +
        "); only an AWS Price List bulk file (with \"products\") may be larger, up to " +
        describe_size(input_kinds::price_list.max_bytes));
  }
  if (!out.document.contains("terms")) out.document["terms"] = nlohmann::json::object();
  out.rows_seen = filter.rows_seen();
  return out;
}

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
  std::optional<int> rows_seen;
  nlohmann::json doc = load_aws_document(file, region, rows_seen);
  PriceListImport result = import_price_list(JsonInput(doc, file.string()), region);
  if (rows_seen) result.rows_seen = *rows_seen;
  return result;
}

nlohmann::json load_aws_document(const std::filesystem::path& file, const std::string& region,
                                 std::optional<int>& rows_seen) {
  if (check_input_file(file, input_kinds::price_list) <= input_kinds::aws_cli_output.max_bytes) {
    return JsonInput::parse_file(file, input_kinds::aws_cli_output);
  }
  StreamedPriceList streamed = stream_price_list_bulk(file, region);
  rows_seen = streamed.rows_seen;
  return std::move(streamed.document);
}

}  // namespace gpusizer::sizing
