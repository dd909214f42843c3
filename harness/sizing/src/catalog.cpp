#include "gpusizer/sizing/catalog.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <stdexcept>

#include "gpusizer/error.hpp"
#include "gpusizer/sizing/mig.hpp"
#include "gpusizer/text.hpp"
#include "input_checks.hpp"

#ifndef GPUSIZER_DEFAULT_DATA_DIR
#define GPUSIZER_DEFAULT_DATA_DIR "data"
#endif

namespace gpusizer::sizing {
namespace {

std::string check_option(const JsonInput& in) {
  return std::string(to_string(in.enumerated<PurchaseOption>()));
}

CapacityOffer offer_from_json(const JsonInput& in) {
  in.allow_only({"id", "availability_zone", "start_date", "end_date", "instance_count",
                 "duration_hours", "upfront_fee_usd"});
  CapacityOffer o;
  o.id = in.optional_string("id").value_or("");
  o.availability_zone = in.at("availability_zone").non_empty_string();
  o.start_date = in.at("start_date").non_empty_string();
  o.end_date = in.at("end_date").non_empty_string();
  o.instance_count = static_cast<int>(in.at("instance_count").count());
  if (o.instance_count < 1) in.at("instance_count").fail("expected at least 1 instance");
  o.duration_hours = in.at("duration_hours").positive();
  o.upfront_fee_usd = in.at("upfront_fee_usd").positive();
  return o;
}

Price price_from_json(const JsonInput& in) {
  in.allow_only({"usd_per_hour", "source", "as_of", "note", "illustrative", "offering"});
  Price p;
  p.usd_per_hour = in.at("usd_per_hour").positive();  // unknown = absent, never zero
  p.source = in.at("source").non_empty_string();
  p.as_of = in.at("as_of").non_empty_string();
  p.note = in.optional_string("note").value_or("");
  if (auto v = in.find("illustrative")) p.illustrative = v->boolean();
  if (auto o = in.find("offering")) p.offering = offer_from_json(*o);
  return p;
}

std::optional<double> opt_positive(const JsonInput& in, std::string_view key) {
  return in.optional_positive(key);
}

DatasheetPeaks peaks_from_json(const JsonInput& in) {
  in.allow_only({"flops_per_second", "memory_bandwidth_bytes_per_second",
                 "host_link_bytes_per_second", "interconnect_bytes_per_second", "power_limit_watts",
                 "source", "caveat"});
  DatasheetPeaks p;
  if (auto f = in.find("flops_per_second")) {
    for (const auto& key : f->keys()) p.flops_per_second[key] = f->at(key).positive();
  }
  p.memory_bandwidth_bytes_per_second = opt_positive(in, "memory_bandwidth_bytes_per_second");
  p.host_link_bytes_per_second = opt_positive(in, "host_link_bytes_per_second");
  p.interconnect_bytes_per_second = opt_positive(in, "interconnect_bytes_per_second");
  p.power_limit_watts = opt_positive(in, "power_limit_watts");
  p.source = in.at("source").non_empty_string();
  p.caveat = in.optional_string("caveat").value_or("");
  return p;
}

Accelerator accelerator_from_json(const JsonInput& in) {
  in.allow_only({"id", "kind", "report_names", "aliases", "peaks", "mig_profiles"});
  Accelerator a;
  a.id = in.at("id").non_empty_string();
  a.kind = *parse<HardwareKind>(in.at("kind").one_of({"gpu", "inferentia", "trainium"}));
  for (const auto& n : in.at("report_names").items())
    a.report_names.push_back(n.non_empty_string());
  if (auto aliases = in.find("aliases")) {
    for (const auto& n : aliases->items()) a.aliases.push_back(n.non_empty_string());
  }
  if (auto p = in.find("peaks")) a.peaks = peaks_from_json(*p);
  if (auto m = in.find("mig_profiles")) {
    for (const auto& item : m->items()) {
      item.allow_only({"name", "compute_slices", "memory_slices", "memory_mib"});
      MigProfile mp;
      mp.name = item.at("name").non_empty_string();
      mp.compute_slices = static_cast<int>(item.at("compute_slices").count());
      mp.memory_slices = static_cast<int>(item.at("memory_slices").count());
      if (mp.compute_slices < 1 || mp.compute_slices > 7) {
        item.at("compute_slices").fail("expected 1..7 compute slices");
      }
      if (mp.memory_slices < 1 || mp.memory_slices > 8) {
        item.at("memory_slices").fail("expected 1..8 memory slices");
      }
      if (mig_start_slots(mp.compute_slices, mp.memory_slices).empty()) {
        item.fail(
            "expected a MIG shape NVIDIA places (1g/1 or 2 memory slices, 2g/2, 3g/4, "
            "4g/4, 7g/8), got " +
            std::to_string(mp.compute_slices) + " compute and " + std::to_string(mp.memory_slices) +
            " memory slices");
      }
      mp.memory_mib = item.at("memory_mib").count();
      a.mig_profiles.push_back(mp);
    }
  }
  return a;
}

InstanceTypeInfo instance_from_json(const JsonInput& in, const Catalog& catalog) {
  in.allow_only({"type", "family", "accelerator", "accelerator_count", "accelerator_memory_mib",
                 "vcpu", "memory_gib", "network_mbps", "local_nvme_gb", "cpu_model", "prices",
                 "spec_source"});
  InstanceTypeInfo t;
  t.type = in.at("type").non_empty_string();
  t.family = in.at("family").non_empty_string();
  if (auto a = in.find("accelerator")) {
    t.accelerator = a->non_empty_string();
    if (catalog.find_accelerator(*t.accelerator) == nullptr) {
      a->fail("unknown accelerator \"" + *t.accelerator + "\" (not in /accelerators)");
    }
    t.accelerator_count = static_cast<int>(in.at("accelerator_count").count());
    if (t.accelerator_count < 1) in.at("accelerator_count").fail("expected at least 1");
    t.accelerator_memory_mib = in.at("accelerator_memory_mib").count();
  }
  t.vcpu = static_cast<int>(in.at("vcpu").count());
  if (t.vcpu < 1) in.at("vcpu").fail("expected at least 1 vCPU");
  t.memory_gib = in.at("memory_gib").positive();
  t.network_mbps = in.optional_non_negative("network_mbps").value_or(0);
  t.local_nvme_gb = in.optional_non_negative("local_nvme_gb").value_or(0);
  t.cpu_model = in.optional_string("cpu_model").value_or("");
  auto prices = in.at("prices");
  for (const auto& key : prices.keys()) {
    auto p = prices.at(key);
    if (!parse<PurchaseOption>(key)) {
      p.fail(
          "unknown purchase option (expected on_demand, spot, capacity_block, training_plan, "
          "savings_plan or reserved)");
    }
    t.prices[key] = price_from_json(p);
  }
  t.spec_source = in.at("spec_source").non_empty_string();
  return t;
}

}  // namespace

PurchaseOption purchase_option(const std::string& name) {
  if (auto option = parse<PurchaseOption>(name)) return *option;
  throw std::invalid_argument("not a purchase option: " + name);
}

const Accelerator* Catalog::find_accelerator(const std::string& id) const {
  for (const auto& a : accelerators) {
    if (a.id == id) return &a;
  }
  return nullptr;
}

const Accelerator* Catalog::accelerator_for_report_name(const std::string& target_name) const {
  const std::string wanted = lower(target_name);
  for (const auto& a : accelerators) {
    for (const auto& n : a.report_names) {
      if (lower(n) == wanted) return &a;
    }
  }
  return nullptr;
}

std::vector<const Accelerator*> Catalog::match_accelerators(const std::string& name) const {
  const std::string wanted = lower(name);
  std::vector<const Accelerator*> exact;
  std::vector<const Accelerator*> family;
  if (wanted.empty()) return exact;
  for (const auto& a : accelerators) {
    bool same = lower(a.id) == wanted;
    for (const auto& n : a.aliases) same = same || lower(n) == wanted;
    for (const auto& n : a.report_names) same = same || lower(n) == wanted;
    if (same) {
      exact.push_back(&a);
      continue;
    }
    const std::string id = lower(a.id);
    if (id.size() > wanted.size() && id.compare(0, wanted.size(), wanted) == 0 &&
        id[wanted.size()] == '-') {
      family.push_back(&a);
    }
  }
  return exact.empty() ? family : exact;
}

std::string Catalog::known_accelerator_names() const {
  std::string out;
  for (const auto& a : accelerators) {
    out += (out.empty() ? "" : ", ") + a.id;
    if (!a.aliases.empty()) {
      std::string aliases;
      for (const auto& n : a.aliases) aliases += (aliases.empty() ? "" : ", ") + n;
      out += " (" + aliases + ")";
    }
  }
  return out;
}

InstanceTypeInfo* Catalog::find_instance(const std::string& type) {
  for (auto& t : instances) {
    if (t.type == type) return &t;
  }
  return nullptr;
}

const InstanceTypeInfo* Catalog::find_instance(const std::string& type) const {
  for (const auto& t : instances) {
    if (t.type == type) return &t;
  }
  return nullptr;
}

Catalog catalog_from_json(const JsonInput& in) {
  if (!in.is_object())
    in.fail("expected a gpusizer catalog (a JSON object), got " + describe_json(in.raw()));
  in.allow_only({"$schema", "schema_version", "kind", "region", "currency", "description",
                 "accelerators", "instances"});
  detail::check_document_header(in, "catalog", kCatalogSchemaVersion, "gpusizer.catalog");
  Catalog c;
  c.region = in.at("region").non_empty_string();
  auto currency = in.at("currency");
  c.currency = currency.string();
  if (c.currency != "USD") currency.fail("expected \"USD\" (the only currency supported)");
  c.description = in.optional_string("description").value_or("");
  for (const auto& a : in.at("accelerators").items()) {
    Accelerator acc = accelerator_from_json(a);
    if (c.find_accelerator(acc.id) != nullptr)
      a.at("id").fail("duplicate accelerator id \"" + acc.id + "\"");
    c.accelerators.push_back(std::move(acc));
  }
  for (const auto& t : in.at("instances").items()) {
    InstanceTypeInfo info = instance_from_json(t, c);
    if (c.find_instance(info.type) != nullptr)
      t.at("type").fail("duplicate instance type \"" + info.type + "\"");
    c.instances.push_back(std::move(info));
  }
  return c;
}

Catalog load_catalog(const std::filesystem::path& file) {
  nlohmann::json doc = JsonInput::parse_file(file, input_kinds::catalog);
  return catalog_from_json(JsonInput(doc, file.string()));
}

CatalogOverlay overlay_from_json(const JsonInput& in) {
  if (!in.is_object())
    in.fail("expected a gpusizer catalog overlay (a JSON object), got " + describe_json(in.raw()));
  in.allow_only({"$schema", "schema_version", "kind", "region", "generated_from", "prices"});
  detail::check_document_header(in, "overlay", kCatalogSchemaVersion, "gpusizer.catalog-overlay");
  CatalogOverlay o;
  o.region = in.at("region").non_empty_string();
  o.generated_from = in.optional_string("generated_from").value_or("");
  for (const auto& item : in.at("prices").items()) {
    item.allow_only({"instance_type", "option", "usd_per_hour", "source", "as_of", "note",
                     "illustrative", "offering"});
    PriceOverride po;
    po.instance_type = item.at("instance_type").non_empty_string();
    po.option = check_option(item.at("option"));
    nlohmann::json price = item.raw();
    price.erase("instance_type");
    price.erase("option");
    po.price = price_from_json(JsonInput(price, item.source(), item.pointer()));
    o.prices.push_back(std::move(po));
  }
  return o;
}

CatalogOverlay load_overlay(const std::filesystem::path& file) {
  nlohmann::json doc = JsonInput::parse_file(file, input_kinds::overlay);
  return overlay_from_json(JsonInput(doc, file.string()));
}

nlohmann::json to_json(const CapacityOffer& o) {
  nlohmann::json j{{"availability_zone", o.availability_zone},
                   {"start_date", o.start_date},
                   {"end_date", o.end_date},
                   {"instance_count", o.instance_count},
                   {"duration_hours", o.duration_hours},
                   {"upfront_fee_usd", o.upfront_fee_usd}};
  if (!o.id.empty()) j["id"] = o.id;
  return j;
}

nlohmann::json to_json(const Price& price) {
  nlohmann::json j{
      {"usd_per_hour", price.usd_per_hour}, {"source", price.source}, {"as_of", price.as_of}};
  if (!price.note.empty()) j["note"] = price.note;
  if (price.illustrative) j["illustrative"] = true;
  if (price.offering) j["offering"] = to_json(*price.offering);
  return j;
}

nlohmann::json to_json(const CatalogOverlay& overlay) {
  nlohmann::json prices = nlohmann::json::array();
  for (const auto& p : overlay.prices) {
    nlohmann::json j = to_json(p.price);
    j["instance_type"] = p.instance_type;
    j["option"] = p.option;
    prices.push_back(std::move(j));
  }
  nlohmann::json j{{"schema_version", kCatalogSchemaVersion},
                   {"kind", "gpusizer.catalog-overlay"},
                   {"region", overlay.region}};
  if (!overlay.generated_from.empty()) j["generated_from"] = overlay.generated_from;
  j["prices"] = prices;
  return j;
}

void apply_overlay(Catalog& catalog, const CatalogOverlay& overlay,
                   const std::string& overlay_source) {
  if (overlay.region != catalog.region) {
    throw InputError(overlay_source + ": /region: overlay is for region \"" + overlay.region +
                     "\" but the catalog is for \"" + catalog.region + "\"");
  }
  for (std::size_t i = 0; i < overlay.prices.size(); ++i) {
    const auto& p = overlay.prices[i];
    InstanceTypeInfo* info = catalog.find_instance(p.instance_type);
    if (info == nullptr) {
      throw InputError(overlay_source + ": /prices/" + std::to_string(i) +
                       "/instance_type: instance type \"" + p.instance_type +
                       "\" is not in the catalog");
    }
    info->prices[p.option] = p.price;
  }
}

std::filesystem::path regional_catalog_path(const std::string& region) {
  const char* dir = std::getenv("GPUSIZER_DATA_DIR");
  std::filesystem::path base = (dir != nullptr && *dir != '\0') ? dir : GPUSIZER_DEFAULT_DATA_DIR;
  return base / "catalog" / ("aws-" + region + ".json");
}

std::filesystem::path default_catalog_path() {
  return regional_catalog_path("us-east-1");
}

}  // namespace gpusizer::sizing
