// The `recommend` and `catalog` subcommands as library functions: the CLI parses flags into
// these structs and calls them. They return the exit code (0 success, 3 no feasible plan) and
// throw InputError / RuntimeError for the CLI to turn into one line.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "gpusizer/sizing/aws_import.hpp"
#include "gpusizer/table.hpp"

namespace gpusizer::sizing {

struct CatalogSource {
  std::string catalog;  // empty: the shipped catalog of `region` (else of us-east-1)
  std::vector<std::string> overlays;
  // Region to price in ("" = the catalog's). A catalog of another region keeps its instance
  // specs but loses every price: prices then come only from overlays of this region, and every
  // type without one is said to have no price there.
  std::string region;
  std::string today;            // YYYY-MM-DD prices are aged to ("" = the system clock, UTC)
  int max_price_age_days = 90;  // older prices are marked stale
};

struct RecommendOptions {
  std::vector<std::string> workloads;  // at least one
  std::vector<std::string> reports;
  CatalogSource catalog;
  TextFormat format = TextFormat::table;  // any
  std::string out;                        // plan JSON file ("" = none)
  std::optional<int> max_instances;
  std::vector<std::string> instance_types;  // --instance-types: only these (with --families: or)
  std::vector<std::string> families;        // --families: only these families
  std::vector<std::string> quotas;  // aws service-quotas output files (applied or AWS default)
};

int run_recommend(const RecommendOptions& options, std::ostream& out);

struct CatalogOptions {
  CatalogSource catalog;
  std::string family;                     // "p5", "g6e"...
  std::string accelerator;                // id, alias or family, case-insensitive ("a100", "inf2")
  std::optional<double> min_memory_gib;   // accelerator memory per device >=
  std::optional<double> max_price;        // on-demand $/h <=
  TextFormat format = TextFormat::table;  // table | md | json
  // import-aws: Price List (bulk or get-products), describe-spot-price-history or
  // describe-capacity-block-offerings output, detected by the file's top-level member
  std::string import_file;  // non-empty: run `catalog import-aws`; region: catalog.region
  SpotStatistic statistic = SpotStatistic::max;  // spot: across zones
  int window_days = 7;                           // spot: days up to the newest change
  std::string out;                               // overlay output ("" = stdout)
};

// `err` receives the import's details and warnings when the overlay goes to `out`.
int run_catalog(const CatalogOptions& options, std::ostream& out, std::ostream& err);
int run_catalog(const CatalogOptions& options, std::ostream& out);

}  // namespace gpusizer::sizing
