#include "gpusizer/sizing/commands.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <sstream>

#include "gpusizer/error.hpp"
#include "gpusizer/report_io.hpp"
#include "gpusizer/sizing/aws_import.hpp"
#include "gpusizer/sizing/capability.hpp"
#include "gpusizer/sizing/catalog.hpp"
#include "gpusizer/sizing/dates.hpp"
#include "gpusizer/sizing/engine.hpp"
#include "gpusizer/sizing/plan_page.hpp"
#include "gpusizer/sizing/plan_print.hpp"
#include "gpusizer/sizing/price_list.hpp"
#include "gpusizer/sizing/workload.hpp"

namespace gpusizer::sizing {
namespace {

void check_format(const std::string& format, bool html_allowed = false) {
  if (html_allowed && format == "html") return;
  if (format != "table" && format != "md" && format != "json") {
    throw InputError(std::string("--format: expected table, md") +
                     (html_allowed ? ", json or html" : " or json") + ", got \"" + format + "\"");
  }
}

void check_region(const std::string& region) {
  // af-south-1, us-gov-west-1, ap-southeast-4, eu-central-2 ...
  bool ok = region.size() >= 4 && std::isdigit(static_cast<unsigned char>(region.back())) &&
            region.find('-') != std::string::npos;
  for (char c : region) {
    ok = ok && (std::islower(static_cast<unsigned char>(c)) ||
                std::isdigit(static_cast<unsigned char>(c)) || c == '-');
  }
  if (!ok) {
    throw InputError("--region: expected an AWS Region code such as us-east-2, got \"" + region +
                     "\"");
  }
}

Catalog load_catalog_source(const CatalogSource& source, std::string& path,
                            std::vector<std::string>& notes) {
  if (!source.region.empty()) check_region(source.region);
  if (!source.catalog.empty()) {
    path = source.catalog;
  } else if (!source.region.empty() &&
             std::filesystem::exists(regional_catalog_path(source.region))) {
    path = regional_catalog_path(source.region).string();
  } else {
    path = default_catalog_path().string();
  }
  Catalog catalog = load_catalog(path);
  if (!source.region.empty() && source.region != catalog.region) {
    notes.push_back("no catalog for region " + source.region + ": instance specs from " + path +
                    " (" + catalog.region + "), every " + catalog.region +
                    " price removed; prices for " + source.region +
                    " come only from --catalog-overlay files (gpusizer catalog import-aws <file> "
                    "--region " +
                    source.region + ")");
    for (auto& t : catalog.instances) t.prices.clear();
    catalog.region = source.region;
  }
  for (const auto& o : source.overlays) apply_overlay(catalog, load_overlay(o), o);
  return catalog;
}

std::int64_t today_of(const CatalogSource& source) {
  if (source.today.empty()) return today_utc();
  auto day = parse_date(source.today);
  if (!day) throw InputError("--today: expected a date YYYY-MM-DD, got \"" + source.today + "\"");
  return *day;
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

// --instance-types / --families: keeps the types named or of the families named (either list
// may be empty); a name the catalog lacks is an input error, not an empty plan.
void restrict_catalog(Catalog& catalog, const std::vector<std::string>& types,
                      const std::vector<std::string>& families) {
  if (types.empty() && families.empty()) return;
  for (const auto& t : types) {
    if (catalog.find_instance(t) == nullptr) {
      throw InputError("--instance-types: \"" + t + "\" is not in the catalog (" +
                       std::to_string(catalog.instances.size()) +
                       " types; list them with gpusizer catalog)");
    }
  }
  for (const auto& f : families) {
    const bool known = std::any_of(catalog.instances.begin(), catalog.instances.end(),
                                   [&](const InstanceTypeInfo& i) { return i.family == f; });
    if (!known) {
      std::vector<std::string> all;
      for (const auto& i : catalog.instances) {
        if (std::find(all.begin(), all.end(), i.family) == all.end()) all.push_back(i.family);
      }
      throw InputError("--families: \"" + f +
                       "\" is not a family in the catalog (known: " + joined(all) + ")");
    }
  }
  std::vector<InstanceTypeInfo> kept;
  for (auto& i : catalog.instances) {
    const bool wanted = std::find(types.begin(), types.end(), i.type) != types.end() ||
                        std::find(families.begin(), families.end(), i.family) != families.end();
    if (wanted) kept.push_back(std::move(i));
  }
  catalog.instances = std::move(kept);
}

// Several workloads on one accelerator model: each workload's smallest profile and slices,
// packed together onto as few GPUs as possible.
nlohmann::json combined_mig(const std::vector<Workload>& workloads, const CapabilityTable& table,
                            const Catalog& catalog, std::ostream& out, bool markdown) {
  nlohmann::json all = nlohmann::json::array();
  for (const auto& acc : catalog.accelerators) {
    if (acc.mig_profiles.empty()) continue;
    std::vector<MigProfile> demand;
    nlohmann::json chosen = nlohmann::json::array();
    bool every = true;
    for (const auto& w : workloads) {
      std::string why;
      auto choice = w.allows("mig") ? choose_mig_profile(w, acc, table, why) : std::nullopt;
      if (!choice) {
        every = false;
        break;
      }
      demand.insert(demand.end(), static_cast<std::size_t>(choice->slices), choice->profile);
      chosen.push_back(
          {{"workload", w.name}, {"profile", choice->profile.name}, {"slices", choice->slices}});
    }
    if (!every) continue;
    MigPacking packing = pack_mig(demand);
    const int gpus = static_cast<int>(packing.gpus.size());
    out << "\n"
        << (markdown ? "### " : "") << "Combined MIG packing on " << acc.id << ": " << gpus
        << " GPU(s), stranded " << packing.stranded_compute_slices << " compute / "
        << packing.stranded_memory_slices << " memory slices\n";
    for (const auto& c : chosen) {
      out << "  - " << c["workload"].get<std::string>() << ": " << c["slices"].get<int>() << " x "
          << c["profile"].get<std::string>() << "\n";
    }
    for (std::size_t i = 0; i < packing.gpus.size(); ++i) {
      out << "  - GPU " << i << ": " << packing.gpus[i].describe() << "\n";
    }
    nlohmann::json types = nlohmann::json::array();
    for (const auto& t : catalog.instances) {
      if (t.accelerator != acc.id) continue;
      const int instances = (gpus + t.accelerator_count - 1) / t.accelerator_count;
      auto od = t.prices.find("on_demand");
      nlohmann::json j{{"instance_type", t.type}, {"instances", instances}};
      if (od != t.prices.end()) {
        j["on_demand_usd_per_hour"] = instances * od->second.usd_per_hour;
        out << "  - " << instances << " x " << t.type << " on_demand "
            << format_usd(instances * od->second.usd_per_hour) << "/h\n";
      }
      types.push_back(j);
    }
    all.push_back({{"accelerator", acc.id},
                   {"workloads", chosen},
                   {"gpus", gpus},
                   {"layouts",
                    [&] {
                      nlohmann::json l = nlohmann::json::array();
                      for (const auto& g : packing.gpus) l.push_back(g.describe());
                      return l;
                    }()},
                   {"stranded_compute_slices", packing.stranded_compute_slices},
                   {"stranded_memory_slices", packing.stranded_memory_slices},
                   {"mig_parted_config", mig_parted_config(packing, "gpusizer-combined")},
                   {"instance_types", types}});
  }
  return all;
}

}  // namespace

int run_recommend(const RecommendOptions& options, std::ostream& out) {
  check_format(options.format, /*html_allowed=*/true);
  if (options.catalog.max_price_age_days < 0) {
    throw InputError("--max-price-age-days: expected 0 or more days");
  }
  if (options.workloads.empty())
    throw InputError("--workload: at least one workload file is required");
  if (options.max_instances && *options.max_instances < 1) {
    throw InputError("--max-instances: expected at least 1");
  }
  std::string catalog_path;
  std::vector<std::string> catalog_notes;
  Catalog catalog = load_catalog_source(options.catalog, catalog_path, catalog_notes);
  const std::int64_t today = today_of(options.catalog);
  AccountQuotas quotas;
  for (const auto& q : options.quotas) load_quotas(q, catalog.region, quotas);
  std::vector<LoadedReport> reports;
  for (const auto& r : options.reports) reports.push_back(load_report_file(r));
  CapabilityTable table = build_capabilities(reports, catalog);
  std::vector<Workload> workloads;
  for (const auto& w : options.workloads) {
    workloads.push_back(load_workload(w));
    check_workload_names(workloads.back(), catalog);
  }
  restrict_catalog(catalog, options.instance_types, options.families);
  std::vector<std::string> restricted = options.instance_types;
  for (const auto& f : options.families) restricted.push_back("family " + f);
  EngineOptions engine;
  engine.max_instances = options.max_instances;
  engine.today = today;
  engine.max_price_age_days = options.catalog.max_price_age_days;
  if (!options.quotas.empty()) engine.quotas = &quotas;
  std::vector<Plan> plans;
  bool any = false;
  for (const auto& w : workloads) {
    Plan plan = make_plan(w, table, catalog, engine);
    plan.catalog_file = catalog_path;
    plan.overlays = options.catalog.overlays;
    plan.restricted_to = restricted;
    plan.warnings.insert(plan.warnings.begin(), catalog_notes.begin(), catalog_notes.end());
    plan.warnings.insert(plan.warnings.end(), quotas.warnings.begin(), quotas.warnings.end());
    for (const auto& r : reports) {
      plan.reports.push_back(
          {r.file, r.sha256, r.report.tool.version + " (" + r.report.tool.git_revision + ")"});
    }
    if (reports.empty())
      plan.warnings.push_back(
          "no reports given: only user-measured rates and estimates are available");
    any = any || !plan.rows.empty();
    plans.push_back(std::move(plan));
  }
  nlohmann::json doc;
  const bool markdown = options.format == "md";
  if (options.format == "html") {
    print_plan_page(plans, out);
  } else if (options.format != "json") {
    for (std::size_t i = 0; i < plans.size(); ++i) {
      if (i > 0) out << "\n";
      print_plan(plans[i], out, markdown);
    }
  }
  std::ostringstream ignored;
  nlohmann::json combined;
  if (workloads.size() > 1)
    combined = combined_mig(workloads, table, catalog,
                            options.format == "json" || options.format == "html" ? ignored : out,
                            markdown);
  if (plans.size() == 1) {
    doc = to_json(plans.front());
  } else {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& p : plans) list.push_back(to_json(p));
    doc = {{"schema_version", kPlanSchemaVersion},
           {"kind", "gpusizer.plan-set"},
           {"plans", list},
           {"combined_mig_packing", combined}};
  }
  if (options.format == "json") out << doc.dump(2) << "\n";
  if (!options.out.empty()) write_file_atomically(options.out, doc.dump(2) + "\n");
  return any ? 0 : 3;
}

int run_catalog(const CatalogOptions& options, std::ostream& out) {
  return run_catalog(options, out, out);
}

int run_catalog(const CatalogOptions& options, std::ostream& out, std::ostream& err) {
  check_format(options.format);
  if (options.catalog.max_price_age_days < 0) {
    throw InputError("--max-price-age-days: expected 0 or more days");
  }
  const std::int64_t today = today_of(options.catalog);
  if (!options.import_file.empty()) {
    if (!options.catalog.region.empty()) check_region(options.catalog.region);
    const std::string path =
        options.catalog.catalog.empty() ? default_catalog_path().string() : options.catalog.catalog;
    Catalog catalog = load_catalog(path);
    AwsImportOptions import;
    import.region = options.catalog.region.empty() ? catalog.region : options.catalog.region;
    import.statistic = options.statistic;
    import.window_days = options.window_days;
    import.today = today;
    import.max_price_age_days = options.catalog.max_price_age_days;
    AwsImport imported = import_aws_file(options.import_file, import, catalog);
    const std::string text = to_json(imported.overlay).dump(2) + "\n";
    std::ostream& info = options.out.empty() ? err : out;
    if (options.out.empty()) {
      out << text;
    } else {
      write_file_atomically(options.out, text);
      info << "wrote " << imported.overlay.prices.size() << " " << imported.option
           << " price(s) for " << import.region << " from " << imported.format << " ("
           << imported.rows_kept << " of " << imported.rows_seen << " rows kept, as of "
           << imported.as_of << ") to " << options.out << "\n";
    }
    for (const auto& d : imported.details) info << "  " << d << "\n";
    for (const auto& l : imported.left_out) info << "  left out: " << l << "\n";
    for (const auto& w : imported.warnings) info << "warning: " << w << "\n";
    return 0;
  }
  std::string path;
  std::vector<std::string> notes;
  Catalog catalog = load_catalog_source(options.catalog, path, notes);
  std::vector<const Accelerator*> wanted;
  if (!options.accelerator.empty()) {
    wanted = catalog.match_accelerators(options.accelerator);
    if (wanted.empty()) {
      throw InputError("--accelerator: no match for \"" + options.accelerator +
                       "\"; known names: " + catalog.known_accelerator_names());
    }
  }
  if (!options.family.empty()) {
    const bool known =
        std::any_of(catalog.instances.begin(), catalog.instances.end(),
                    [&](const InstanceTypeInfo& i) { return i.family == options.family; });
    if (!known) {
      std::vector<std::string> all;
      for (const auto& i : catalog.instances) {
        if (std::find(all.begin(), all.end(), i.family) == all.end()) all.push_back(i.family);
      }
      throw InputError("--family: no match for \"" + options.family +
                       "\"; known families: " + joined(all));
    }
  }
  std::vector<const InstanceTypeInfo*> shown;
  for (const auto& t : catalog.instances) {
    if (!options.family.empty() && t.family != options.family) continue;
    if (!wanted.empty() &&
        (!t.accelerator || std::none_of(wanted.begin(), wanted.end(), [&](const Accelerator* a) {
          return a->id == *t.accelerator;
        }))) {
      continue;
    }
    if (options.min_memory_gib &&
        static_cast<double>(t.accelerator_memory_mib) / 1024.0 < *options.min_memory_gib) {
      continue;
    }
    if (options.max_price) {
      auto od = t.prices.find("on_demand");
      if (od == t.prices.end() || od->second.usd_per_hour > *options.max_price) continue;
    }
    shown.push_back(&t);
  }
  auto age_of = [&](const Price& p) -> std::optional<int> {
    auto day = as_of_day(p.as_of);
    if (!day) return std::nullopt;
    return static_cast<int>(today - *day);
  };
  auto marks = [&](const Price& p) {
    std::string m;
    if (p.illustrative) m += " illustrative";
    auto age = age_of(p);
    if (!age) {
      m += " undated";
    } else if (*age > options.catalog.max_price_age_days) {
      m += " stale";
    }
    return m;
  };
  if (options.format == "json") {
    nlohmann::json list = nlohmann::json::array();
    for (const auto* t : shown) {
      nlohmann::json prices = nlohmann::json::object();
      for (const auto& [option, p] : t->prices) {
        nlohmann::json j = to_json(p);
        auto age = age_of(p);
        j["age_days"] = age ? nlohmann::json(*age) : nlohmann::json(nullptr);
        j["stale"] = age && *age > options.catalog.max_price_age_days;
        j["illustrative"] = p.illustrative;
        prices[option] = j;
      }
      nlohmann::json j{{"type", t->type},
                       {"family", t->family},
                       {"vcpu", t->vcpu},
                       {"memory_gib", t->memory_gib},
                       {"prices", prices}};
      if (t->accelerator) {
        j["accelerator"] = *t->accelerator;
        j["accelerator_count"] = t->accelerator_count;
        j["accelerator_memory_mib"] = t->accelerator_memory_mib;
      }
      if (t->prices.empty()) j["note"] = "no price in " + catalog.region;
      list.push_back(j);
    }
    out << nlohmann::json{{"catalog", path},
                          {"region", catalog.region},
                          {"prices_checked_on", format_day(today)},
                          {"max_price_age_days", options.catalog.max_price_age_days},
                          {"warnings", notes},
                          {"instances", list}}
               .dump(2)
        << "\n";
    return 0;
  }
  const bool md = options.format == "md";
  auto cell = [&](const InstanceTypeInfo& t, const char* option) -> std::string {
    auto it = t.prices.find(option);
    if (it == t.prices.end()) return "-";
    return format_usd(it->second.usd_per_hour) + marks(it->second);
  };
  std::vector<std::vector<std::string>> rows{{"type", "accelerator", "acc mem GiB", "vCPU",
                                              "RAM GiB", "on_demand", "spot", "capacity_block",
                                              "on-demand as of"}};
  for (const auto* t : shown) {
    std::ostringstream mem;
    mem.precision(4);
    mem << static_cast<double>(t->accelerator_memory_mib) / 1024.0;
    auto od = t->prices.find("on_demand");
    rows.push_back(
        {t->type,
         t->accelerator ? std::to_string(t->accelerator_count) + "x " + *t->accelerator : "-",
         t->accelerator ? mem.str() : "-", std::to_string(t->vcpu),
         std::to_string(static_cast<long>(t->memory_gib)), cell(*t, "on_demand"), cell(*t, "spot"),
         cell(*t, "capacity_block"),
         t->prices.empty()       ? "no price in " + catalog.region
         : od == t->prices.end() ? "no on-demand price"
                                 : od->second.as_of});
  }
  std::vector<std::size_t> width(rows.front().size(), 0);
  for (const auto& r : rows) {
    for (std::size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], r[i].size());
  }
  for (std::size_t n = 0; n < rows.size(); ++n) {
    if (md) out << "| ";
    for (std::size_t i = 0; i < rows[n].size(); ++i) {
      out << rows[n][i] << std::string(width[i] - rows[n][i].size(), ' ') << (md ? " | " : "  ");
    }
    out << "\n";
    if (n == 0) {
      if (md) out << "|";
      for (std::size_t i = 0; i < rows[n].size(); ++i) {
        out << (md ? std::string(width[i] + 2, '-') + "|" : std::string(width[i], '-') + "  ");
      }
      out << "\n";
    }
  }
  out << "\n"
      << shown.size() << " instance type(s) from " << path << " (" << catalog.region
      << "). illustrative = a snapshot, not a quote; stale = older than "
      << options.catalog.max_price_age_days << " days on " << format_day(today)
      << ". Prices carry their source and date: use --format json.\n";
  for (const auto& n : notes) out << "warning: " << n << "\n";
  return 0;
}

}  // namespace gpusizer::sizing
