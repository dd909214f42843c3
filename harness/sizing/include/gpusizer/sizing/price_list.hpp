// Import of the AWS Price List (the bulk offer file `{products, terms.OnDemand}` and the
// `aws pricing get-products` output `{"PriceList": ["<json>", ...]}`) into a catalog overlay of
// on-demand prices. Only rows with productFamily "Compute Instance", operatingSystem Linux,
// tenancy Shared, preInstalledSw NA, capacitystatus Used, marketoption OnDemand (when present),
// licenseModel "No License required" (when present), operation "RunInstances" and the wanted
// region are kept: CapacityBlock $0 rows share the usagetype BoxUsage:<type>, so usagetype is
// never used to select.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "gpusizer/json_input.hpp"
#include "gpusizer/sizing/catalog.hpp"

namespace gpusizer::sizing {

struct PriceListImport {
  CatalogOverlay overlay;
  std::string format;  // "bulk offer file" | "pricing get-products"
  std::string as_of;   // publicationDate, else version, else effectiveDate
  int rows_seen = 0;
  int rows_kept = 0;
};

PriceListImport import_price_list(const JsonInput& in, const std::string& region);
PriceListImport import_price_list_file(const std::filesystem::path& file,
                                       const std::string& region);

// A Price List bulk offer file larger than input_kinds::aws_cli_output (the regional EC2 file is
// gigabytes), read as a stream up to input_kinds::price_list: only "version",
// "publicationDate", the "products" rows `region`'s filters keep and the "OnDemand" terms of
// those rows are held in memory, so memory is bounded by what is kept, not by the file.
// Throws InputError as import_price_list does, and when the file has no "products".
struct StreamedPriceList {
  nlohmann::json document;  // {version, publicationDate, products: {kept}, terms: {OnDemand}}
  int rows_seen = 0;
};
StreamedPriceList stream_price_list_bulk(const std::filesystem::path& file,
                                         const std::string& region);

// The document of an AWS import file: parsed whole when it is within
// input_kinds::aws_cli_output, streamed as a Price List bulk file when larger. `rows_seen` is set
// when it was streamed (the document then holds the kept rows only).
nlohmann::json load_aws_document(const std::filesystem::path& file, const std::string& region,
                                 std::optional<int>& rows_seen);

}  // namespace gpusizer::sizing
