#include "gpusizer/sizing/commands.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "gpusizer/error.hpp"
#include "gpusizer/report_io.hpp"
#include "gpusizer/sizing/capability.hpp"
#include "gpusizer/sizing/catalog.hpp"
#include "gpusizer/sizing/engine.hpp"
#include "gpusizer/sizing/plan_print.hpp"
#include "gpusizer/sizing/price_list.hpp"
#include "gpusizer/sizing/workload.hpp"

namespace gpusizer::sizing {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

void check_format(const std::string& format) {
  if (format != "table" && format != "md" && format != "json") {
    throw InputError("--format: expected table, md or json, got \"" + format + "\"");
  }
}

Catalog load_catalog_source(const CatalogSource& source, std::string& path) {
  path = source.catalog.empty() ? default_catalog_path().string() : source.catalog;
  Catalog catalog = load_catalog(path);
  for (const auto& o : source.overlays) apply_overlay(catalog, load_overlay(o), o);
  return catalog;
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
  check_format(options.format);
  if (options.workloads.empty())
    throw InputError("--workload: at least one workload file is required");
  if (options.max_instances && *options.max_instances < 1) {
    throw InputError("--max-instances: expected at least 1");
  }
  std::string catalog_path;
  Catalog catalog = load_catalog_source(options.catalog, catalog_path);
  std::vector<LoadedReport> reports;
  for (const auto& r : options.reports) reports.push_back(load_report_file(r));
  CapabilityTable table = build_capabilities(reports, catalog);
  std::vector<Workload> workloads;
  for (const auto& w : options.workloads) {
    workloads.push_back(load_workload(w));
    check_workload_names(workloads.back(), catalog);
  }
  EngineOptions engine;
  engine.max_instances = options.max_instances;
  std::vector<Plan> plans;
  bool any = false;
  for (const auto& w : workloads) {
    Plan plan = make_plan(w, table, catalog, engine);
    plan.catalog_file = catalog_path;
    plan.overlays = options.catalog.overlays;
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
  if (options.format != "json") {
    for (std::size_t i = 0; i < plans.size(); ++i) {
      if (i > 0) out << "\n";
      print_plan(plans[i], out, markdown);
    }
  }
  std::ostringstream ignored;
  nlohmann::json combined;
  if (workloads.size() > 1)
    combined =
        combined_mig(workloads, table, catalog, options.format == "json" ? ignored : out, markdown);
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
  check_format(options.format);
  if (!options.import_file.empty()) {
    PriceListImport imported = import_price_list_file(options.import_file, options.region);
    const std::string text = to_json(imported.overlay).dump(2) + "\n";
    if (options.out.empty()) {
      out << text;
    } else {
      write_file_atomically(options.out, text);
      out << "wrote " << imported.overlay.prices.size() << " on-demand price(s) for "
          << options.region << " from " << imported.format << " (" << imported.rows_kept << " of "
          << imported.rows_seen << " rows kept, as of " << imported.as_of << ") to " << options.out
          << "\n";
    }
    return 0;
  }
  std::string path;
  Catalog catalog = load_catalog_source(options.catalog, path);
  std::vector<const InstanceTypeInfo*> shown;
  for (const auto& t : catalog.instances) {
    if (!options.family.empty() && t.family != options.family) continue;
    if (!options.accelerator.empty() &&
        (!t.accelerator || lower(*t.accelerator) != lower(options.accelerator))) {
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
  if (options.format == "json") {
    nlohmann::json list = nlohmann::json::array();
    for (const auto* t : shown) {
      nlohmann::json prices = nlohmann::json::object();
      for (const auto& [option, p] : t->prices) prices[option] = to_json(p);
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
      list.push_back(j);
    }
    out << nlohmann::json{{"catalog", path}, {"region", catalog.region}, {"instances", list}}.dump(
               2)
        << "\n";
    return 0;
  }
  const bool md = options.format == "md";
  auto cell = [&](const InstanceTypeInfo& t, const char* option) -> std::string {
    auto it = t.prices.find(option);
    if (it == t.prices.end()) return "-";
    return format_usd(it->second.usd_per_hour) + (it->second.illustrative ? "*" : "");
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
         od == t->prices.end() ? "no on-demand price" : od->second.as_of});
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
      << "); * = illustrative spot snapshot. Prices carry their source and date: use --format "
         "json.\n";
  return 0;
}

}  // namespace gpusizer::sizing
