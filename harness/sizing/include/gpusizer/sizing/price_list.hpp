// Import of the AWS Price List (the bulk offer file `{products, terms.OnDemand}` and the
// `aws pricing get-products` output `{"PriceList": ["<json>", ...]}`) into a catalog overlay of
// on-demand prices. Only rows with productFamily "Compute Instance", operatingSystem Linux,
// tenancy Shared, preInstalledSw NA, capacitystatus Used, marketoption OnDemand (when present),
// licenseModel "No License required" (when present), operation "RunInstances" and the wanted
// region are kept: CapacityBlock $0 rows share the usagetype BoxUsage:<type>, so usagetype is
// never used to select.
#pragma once

#include <filesystem>
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

}  // namespace gpusizer::sizing
