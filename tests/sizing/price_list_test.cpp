// AWS Price List import: the right on-demand price out of look-alike rows, in both the bulk
// offer format and the `pricing get-products` PriceList-of-strings format. The real SKU and
// term are the opencost fixture quoted in reference/aws-pricing-and-instances.md (b).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "fixtures.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/sizing/price_list.hpp"

using namespace gpusizer::sizing;
using nlohmann::json;

namespace {

json attributes(const std::string& type) {
  return {{"servicecode", "AmazonEC2"},
          {"location", "US East (N. Virginia)"},
          {"regionCode", "us-east-1"},
          {"instanceType", type},
          {"tenancy", "Shared"},
          {"operatingSystem", "Linux"},
          {"licenseModel", "No License required"},
          {"usagetype", "BoxUsage:" + type},
          {"operation", "RunInstances"},
          {"capacitystatus", "Used"},
          {"marketoption", "OnDemand"},
          {"preInstalledSw", "NA"},
          {"gpuMemory", "NA"}};
}

json term(const std::string& sku, const std::string& usd) {
  return {{sku + ".JRTCKXETXF",
           {{"offerTermCode", "JRTCKXETXF"},
            {"sku", sku},
            {"effectiveDate", "2024-05-01T00:00:00Z"},
            {"priceDimensions",
             {{sku + ".JRTCKXETXF.6YS6EN2CT7",
               {{"unit", "Hrs"}, {"description", "per hour"}, {"pricePerUnit", {{"USD", usd}}}}}}},
            {"termAttributes", json::object()}}}};
}

// sku -> (attribute changes, price). Only H7NGEAC6UEHNTKSJ is the real on-demand row.
std::vector<std::tuple<std::string, json, std::string>> rows() {
  return {
      {"H7NGEAC6UEHNTKSJ", json::object(), "32.7726000000"},
      // The trap from the fixture: same usagetype, CapacityBlock, $0.
      {"YSXJGN78QTXNVGDQ",
       {{"operation", "RunInstances:CB"}, {"marketoption", "CapacityBlock"}},
       "0.0000000000"},
      {"TRAPDEDICATED001", {{"tenancy", "Dedicated"}}, "36.0500000000"},
      {"TRAPWINDOWS00001",
       {{"operatingSystem", "Windows"}, {"operation", "RunInstances:0002"}},
       "37.1900000000"},
      {"TRAPRESERVATION1", {{"capacitystatus", "UnusedCapacityReservation"}}, "32.7726000000"},
      {"TRAPSQLSERVER001",
       {{"preInstalledSw", "SQL Std"}, {"operation", "RunInstances:0006"}},
       "40.0000000000"},
      {"TRAPOTHERREGION1",
       {{"regionCode", "us-west-2"}, {"location", "US West (Oregon)"}},
       "30.0000000000"},
      {"GOODG6XLARGE0001",
       {{"instanceType", "g6.xlarge"}, {"usagetype", "BoxUsage:g6.xlarge"}},
       "0.8048000000"},
  };
}

json product(const std::string& sku, const json& changes) {
  json a = attributes("p4d.24xlarge");
  for (const auto& [k, v] : changes.items()) a[k] = v;
  return {{"sku", sku}, {"productFamily", "Compute Instance"}, {"attributes", a}};
}

void expect_right_prices(const PriceListImport& got) {
  ASSERT_EQ(got.overlay.prices.size(), 2u);
  EXPECT_EQ(got.overlay.prices[0].instance_type, "g6.xlarge");
  EXPECT_DOUBLE_EQ(got.overlay.prices[0].price.usd_per_hour, 0.8048);
  EXPECT_EQ(got.overlay.prices[1].instance_type, "p4d.24xlarge");
  EXPECT_EQ(got.overlay.prices[1].option, "on_demand");
  EXPECT_DOUBLE_EQ(got.overlay.prices[1].price.usd_per_hour, 32.7726);
  EXPECT_EQ(got.overlay.prices[1].price.as_of, "2024-05-28T20:35:22Z");
  EXPECT_EQ(got.rows_seen, 8);
  EXPECT_EQ(got.rows_kept, 2);
}

}  // namespace

TEST(SizingPriceList, BulkOfferFileWithTraps) {
  json doc{{"formatVersion", "v1.0"},     {"offerCode", "AmazonEC2"},
           {"version", "20240528203522"}, {"publicationDate", "2024-05-28T20:35:22Z"},
           {"products", json::object()},  {"terms", {{"OnDemand", json::object()}}}};
  for (const auto& [sku, changes, usd] : rows()) {
    doc["products"][sku] = product(sku, changes);
    doc["terms"]["OnDemand"][sku] = term(sku, usd);
  }
  auto got = import_price_list(gpusizer::JsonInput(doc, "offer.json"), "us-east-1");
  EXPECT_EQ(got.format, "bulk offer file");
  expect_right_prices(got);
  EXPECT_NE(got.overlay.prices[1].price.source.find("20240528203522"), std::string::npos);
}

TEST(SizingPriceList, GetProductsPriceListOfStrings) {
  json doc{{"FormatVersion", "aws_v1"}, {"PriceList", json::array()}};
  for (const auto& [sku, changes, usd] : rows()) {
    json item{{"product", product(sku, changes)},
              {"serviceCode", "AmazonEC2"},
              {"terms", {{"OnDemand", term(sku, usd)}}},
              {"version", "20240528203522"},
              {"publicationDate", "2024-05-28T20:35:22Z"}};
    doc["PriceList"].push_back(item.dump());  // each element is a JSON string
  }
  auto got = import_price_list(gpusizer::JsonInput(doc, "get-products.json"), "us-east-1");
  EXPECT_EQ(got.format, "pricing get-products");
  expect_right_prices(got);
}

TEST(SizingPriceList, ConflictingRowsAndBadInput) {
  json doc{
      {"version", "1"}, {"products", json::object()}, {"terms", {{"OnDemand", json::object()}}}};
  for (const char* sku : {"AAAA", "BBBB"}) {
    doc["products"][sku] = product(sku, json::object());
    doc["terms"]["OnDemand"][sku] = term(sku, std::string(sku) == "AAAA" ? "1.0" : "2.0");
  }
  EXPECT_THROW(import_price_list(gpusizer::JsonInput(doc, "dup.json"), "us-east-1"),
               gpusizer::InputError);
  json bad{{"PriceList", {"{not json"}}};
  try {
    import_price_list(gpusizer::JsonInput(bad, "bad.json"), "us-east-1");
    FAIL() << "expected InputError";
  } catch (const gpusizer::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json /PriceList/0"), std::string::npos) << e.what();
  }
  EXPECT_THROW(import_price_list(gpusizer::JsonInput(json{{"x", 1}}, "x.json"), "us-east-1"),
               gpusizer::InputError);
}

TEST(SizingPriceList, StreamedBulkFileHoldsOnlyTheRowsItPrices) {
  json doc{{"formatVersion", "v1.0"},
           {"version", "20240528203522"},
           {"publicationDate", "2024-05-28T20:35:22Z"},
           {"products", json::object()},
           {"terms", {{"OnDemand", json::object()}, {"Reserved", json::object()}}},
           {"zz_other", json::array({1, 2, 3})}};
  for (const auto& [sku, changes, usd] : rows()) {
    doc["products"][sku] = product(sku, changes);
    doc["terms"]["OnDemand"][sku] = term(sku, usd);
    doc["terms"]["Reserved"][sku] = term(sku, "1.0");
  }
  const auto file = std::filesystem::temp_directory_path() / "gpusizer-streamed-offer.json";
  std::ofstream(file) << doc.dump();
  StreamedPriceList s = stream_price_list_bulk(file, "us-east-1");
  EXPECT_EQ(s.rows_seen, 8);
  EXPECT_EQ(s.document["products"].size(), 2u);  // the real p4d row and the g6 row
  EXPECT_EQ(s.document["terms"].size(), 1u);     // no Reserved terms
  EXPECT_EQ(s.document["terms"]["OnDemand"].size(), 2u);
  EXPECT_FALSE(s.document.contains("zz_other"));
  auto got = import_price_list(gpusizer::JsonInput(s.document, file.string()), "us-east-1");
  got.rows_seen = s.rows_seen;
  expect_right_prices(got);

  // Shapes that are not a bulk file: one line each, naming the file and the JSON path.
  auto error_of = [&](const std::string& text) {
    std::ofstream(file) << text;
    try {
      stream_price_list_bulk(file, "us-east-1");
    } catch (const gpusizer::InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(error_of(R"({"products": [1, 2]})"),
            file.string() + ": /products: expected an object of products, got an array");
  EXPECT_EQ(error_of(R"({"products": {"SKU1": 3}})"),
            file.string() + ": /products/SKU1: expected an object, got 3");
  EXPECT_EQ(error_of(R"({"SpotPriceHistory": []})")
                .rfind(file.string() + ": larger than the 64 MiB limit for AWS CLI output", 0),
            0u);
  EXPECT_EQ(error_of("{\"products\": {\"a\": {\"b\": " + std::string(300, '[')),
            file.string() + ": JSON nested deeper than the limit of 256 levels");
  std::filesystem::remove(file);
}
