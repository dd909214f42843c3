// `gpusizer catalog`: the instance types a filter keeps, each price with its age on a given day,
// computed apart from printing (a padded table or Markdown through the core Table, or JSON).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusizer/sizing/catalog.hpp"

namespace gpusizer::sizing {

struct CatalogFilter {
  std::string family;                    // "p5", "g6e"... ("" = any)
  std::string accelerator;               // id, alias or family, case-insensitive ("" = any)
  std::optional<double> min_memory_gib;  // accelerator memory per device >=
  std::optional<double> max_price;       // on-demand $/h <= (types without one are left out)
};

struct ListedPrice {
  Price price;
  std::optional<int> age_days;  // from the price's as-of day to today; nullopt: undated
  bool stale = false;           // older than the listing's max_price_age_days
};

struct ListedInstance {
  InstanceTypeInfo type;
  std::map<std::string, ListedPrice> prices;  // by purchase option
};

struct CatalogListing {
  std::string catalog_file;
  std::string region;
  std::string prices_checked_on;  // YYYY-MM-DD
  int max_price_age_days = 90;
  std::vector<std::string> warnings;
  std::vector<ListedInstance> instances;  // catalog order
};

// Throws InputError when the filter names an accelerator or a family the catalog lacks.
CatalogListing list_catalog(const Catalog& catalog, const CatalogFilter& filter, std::int64_t today,
                            int max_price_age_days);

nlohmann::json to_json(const CatalogListing& listing);
void print_catalog_listing(const CatalogListing& listing, std::ostream& out, bool markdown);

}  // namespace gpusizer::sizing
