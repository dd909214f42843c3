#include "gpusizer/sizing/catalog_listing.hpp"

#include <algorithm>

#include "gpusizer/error.hpp"
#include "gpusizer/sizing/dates.hpp"
#include "gpusizer/table.hpp"
#include "gpusizer/text.hpp"

namespace gpusizer::sizing {
namespace {

bool kept(const InstanceTypeInfo& t, const CatalogFilter& filter,
          const std::vector<const Accelerator*>& wanted) {
  if (!filter.family.empty() && t.family != filter.family) return false;
  if (!wanted.empty() &&
      (!t.accelerator || std::none_of(wanted.begin(), wanted.end(), [&](const Accelerator* a) {
        return a->id == *t.accelerator;
      }))) {
    return false;
  }
  if (filter.min_memory_gib &&
      static_cast<double>(t.accelerator_memory_mib) / 1024.0 < *filter.min_memory_gib) {
    return false;
  }
  if (filter.max_price) {
    auto od = t.prices.find("on_demand");
    if (od == t.prices.end() || od->second.usd_per_hour > *filter.max_price) return false;
  }
  return true;
}

// " illustrative", " undated", " stale" as they apply.
std::string marks(const ListedPrice& p) {
  std::string m;
  if (p.price.illustrative) m += " illustrative";
  if (!p.age_days) {
    m += " undated";
  } else if (p.stale) {
    m += " stale";
  }
  return m;
}

}  // namespace

CatalogListing list_catalog(const Catalog& catalog, const CatalogFilter& filter, std::int64_t today,
                            int max_price_age_days) {
  std::vector<const Accelerator*> wanted;
  if (!filter.accelerator.empty()) {
    wanted = catalog.match_accelerators(filter.accelerator);
    if (wanted.empty()) {
      throw InputError("--accelerator: no match for \"" + filter.accelerator +
                       "\"; known names: " + catalog.known_accelerator_names());
    }
  }
  std::vector<std::string> families;
  for (const auto& i : catalog.instances) {
    if (std::find(families.begin(), families.end(), i.family) == families.end())
      families.push_back(i.family);
  }
  if (!filter.family.empty() &&
      std::find(families.begin(), families.end(), filter.family) == families.end()) {
    throw InputError("--family: no match for \"" + filter.family +
                     "\"; known families: " + join(families));
  }
  CatalogListing listing;
  listing.region = catalog.region;
  listing.prices_checked_on = format_day(today);
  listing.max_price_age_days = max_price_age_days;
  for (const auto& t : catalog.instances) {
    if (!kept(t, filter, wanted)) continue;
    ListedInstance entry{t, {}};
    for (const auto& [option, price] : t.prices) {
      ListedPrice p{price, std::nullopt, false};
      if (auto day = as_of_day(price.as_of)) p.age_days = static_cast<int>(today - *day);
      p.stale = p.age_days && *p.age_days > max_price_age_days;
      entry.prices.emplace(option, p);
    }
    listing.instances.push_back(std::move(entry));
  }
  return listing;
}

nlohmann::json to_json(const CatalogListing& listing) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& entry : listing.instances) {
    const InstanceTypeInfo& t = entry.type;
    nlohmann::json prices = nlohmann::json::object();
    for (const auto& [option, p] : entry.prices) {
      nlohmann::json j = to_json(p.price);
      j["age_days"] = p.age_days ? nlohmann::json(*p.age_days) : nlohmann::json(nullptr);
      j["stale"] = p.stale;
      j["illustrative"] = p.price.illustrative;
      prices[option] = j;
    }
    nlohmann::json j{{"type", t.type},
                     {"family", t.family},
                     {"vcpu", t.vcpu},
                     {"memory_gib", t.memory_gib},
                     {"prices", prices}};
    if (t.accelerator) {
      j["accelerator"] = *t.accelerator;
      j["accelerator_count"] = t.accelerator_count;
      j["accelerator_memory_mib"] = t.accelerator_memory_mib;
    }
    if (t.prices.empty()) j["note"] = "no price in " + listing.region;
    list.push_back(j);
  }
  return {{"catalog", listing.catalog_file},
          {"region", listing.region},
          {"prices_checked_on", listing.prices_checked_on},
          {"max_price_age_days", listing.max_price_age_days},
          {"warnings", listing.warnings},
          {"instances", list}};
}

void print_catalog_listing(const CatalogListing& listing, std::ostream& out, bool markdown) {
  Table table({"type", "accelerator", "acc mem GiB", "vCPU", "RAM GiB", "on_demand", "spot",
               "capacity_block", "on-demand as of"},
              TableLayout::padded);
  for (const auto& entry : listing.instances) {
    const InstanceTypeInfo& t = entry.type;
    auto cell = [&](const char* option) -> std::string {
      auto it = entry.prices.find(option);
      if (it == entry.prices.end()) return "-";
      return format_usd(it->second.price.usd_per_hour) + marks(it->second);
    };
    auto od = entry.prices.find("on_demand");
    table.add_row(
        {t.type, t.accelerator ? std::to_string(t.accelerator_count) + "x " + *t.accelerator : "-",
         t.accelerator ? short_number(static_cast<double>(t.accelerator_memory_mib) / 1024.0) : "-",
         std::to_string(t.vcpu), std::to_string(static_cast<long>(t.memory_gib)), cell("on_demand"),
         cell("spot"), cell("capacity_block"),
         entry.prices.empty()       ? "no price in " + listing.region
         : od == entry.prices.end() ? "no on-demand price"
                                    : od->second.price.as_of});
  }
  table.render(out, markdown ? TextFormat::md : TextFormat::table);
  out << "\n"
      << listing.instances.size() << " instance type(s) from "
      << escape_control(listing.catalog_file) << " (" << escape_control(listing.region)
      << "). illustrative = a snapshot, not a quote; stale = older than "
      << listing.max_price_age_days << " days on " << listing.prices_checked_on
      << ". Prices carry their source and date: use --format json.\n";
  for (const auto& w : listing.warnings) out << "warning: " << escape_control(w) << "\n";
}

}  // namespace gpusizer::sizing
