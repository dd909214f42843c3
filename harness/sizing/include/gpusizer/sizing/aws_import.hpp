// Imports of what the AWS CLI prints for the user's own account into dated price overlays:
//   aws pricing get-products / the bulk offer file -> on_demand   (price_list.hpp)
//   aws ec2 describe-spot-price-history            -> spot
//   aws ec2 describe-capacity-block-offerings      -> capacity_block (with the offering)
// Rows that look alike but are not the wanted price (other product descriptions, Windows, other
// Regions, dedicated tenancy, UltraServers, instance types the catalog lacks) are left out and
// counted; values no AWS output holds (a malformed timestamp, a price that is not a positive
// decimal, a currency other than USD) are input errors naming the file and JSON pointer.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "gpusizer/json_input.hpp"
#include "gpusizer/sizing/catalog.hpp"
#include "gpusizer/vocabulary.hpp"

namespace gpusizer {

// Spot import: which statistic across Availability Zones of each zone's highest price in force
// during the window (nearest rank: the ceil(q x n)-th of the n zone values in ascending order).
#define GPUSIZER_SPOT_STATISTIC_VALUES(X) X(max, "max") X(p90, "p90") X(p50, "p50") X(min, "min")
GPUSIZER_VOCABULARY(SpotStatistic, GPUSIZER_SPOT_STATISTIC_VALUES)

}  // namespace gpusizer

namespace gpusizer::sizing {

struct AwsImportOptions {
  std::string region = "us-east-1";
  SpotStatistic statistic = SpotStatistic::max;  // spot
  int window_days = 7;          // spot: the window ends at the newest row of the file
  std::int64_t today = 0;       // days since 1970-01-01 (offerings already started, age)
  int max_price_age_days = 90;  // older newest rows are warned about
  std::string as_of;  // capacity blocks: when the offerings were fetched (the file's time)
};

struct AwsImport {
  CatalogOverlay overlay;
  std::string format;  // "aws ec2 describe-spot-price-history", ...
  std::string option;  // "on_demand" | "spot" | "capacity_block"
  std::string as_of;
  int rows_seen = 0;
  int rows_kept = 0;
  std::vector<std::string> left_out;  // "2 rows with product description \"Windows\"", ...
  std::vector<std::string> details;   // per instance type: how its price was formed
  std::vector<std::string> warnings;  // partial file (NextToken), stale rows, started offers
};

// "0.087000" (what the CLI prints) or a JSON number; must be a positive decimal.
double positive_decimal(const JsonInput& value);
// "us-east-1a" -> "us-east-1", "us-east-1-dfw-2a" -> "us-east-1", "us-gov-west-1b" ->
// "us-gov-west-1"; "" when the text is not an Availability Zone name.
std::string region_of_zone(const std::string& zone);

AwsImport import_spot_price_history(const JsonInput& in, const AwsImportOptions& options);
AwsImport import_capacity_block_offerings(const JsonInput& in, const AwsImportOptions& options);

// Reads any of the supported files (detected by its top-level member) and keeps the prices of
// instance types in `catalog` (the others are named in left_out); no price left is an input
// error. Capacity blocks without options.as_of are dated by the file's modification time.
AwsImport import_aws_file(const std::filesystem::path& file, AwsImportOptions options,
                          const Catalog& catalog);

}  // namespace gpusizer::sizing
