#include "gpusizer/sizing/commands.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "gpusizer/error.hpp"
#include "gpusizer/host_info.hpp"
#include "gpusizer/report_io.hpp"
#include "gpusizer/sizing/aws_import.hpp"
#include "gpusizer/sizing/capability.hpp"
#include "gpusizer/sizing/catalog.hpp"
#include "gpusizer/sizing/catalog_listing.hpp"
#include "gpusizer/sizing/combined_mig.hpp"
#include "gpusizer/sizing/dates.hpp"
#include "gpusizer/sizing/demand.hpp"
#include "gpusizer/sizing/engine.hpp"
#include "gpusizer/sizing/plan_page.hpp"
#include "gpusizer/sizing/plan_print.hpp"
#include "gpusizer/sizing/price_list.hpp"
#include "gpusizer/text.hpp"

namespace gpusizer::sizing {
namespace {

// recommend writes every TextFormat; catalog table, md and json.
void check_catalog_format(TextFormat format) {
  if (format == TextFormat::csv || format == TextFormat::html)
    throw InputError("--format: expected table, md or json (csv and html are recommend's)");
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
                       "\" is not a family in the catalog (known: " + join(all) + ")");
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

}  // namespace

int run_recommend(const RecommendOptions& options, std::ostream& out) {
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
  std::vector<Demand> workloads;
  for (const auto& w : options.workloads) {
    workloads.push_back(load_demand(w));
    check_demand_names(workloads.back(), catalog);
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
    const ToolInfo tool = current_tool();
    plan.tool_version = tool.version + " (" + tool.git_revision + ")";
    for (const auto& r : reports) {
      const Host& host = r.report.host;
      plan.reports.push_back({r.file, r.sha256,
                              r.report.tool.version + " (" + r.report.tool.git_revision + ")",
                              host.hostname, host.instance_type ? host.instance_type->value : "",
                              r.report.suite, r.report.started_at, r.verified, r.verification});
    }
    if (reports.empty())
      plan.warnings.push_back(
          "no reports given: only user-measured rates and estimates are available");
    any = any || !plan.rows.empty();
    plans.push_back(std::move(plan));
  }
  nlohmann::json doc;
  const bool markdown = options.format == TextFormat::md;
  const bool text = options.format == TextFormat::table || markdown;
  if (options.format == TextFormat::html) {
    print_plan_page(plans, out);
  } else if (options.format == TextFormat::csv) {
    print_plan_csv(plans, out);
  } else if (text) {
    if (markdown) print_plan_header(plans, out);
    for (std::size_t i = 0; i < plans.size(); ++i) {
      if (i > 0) out << "\n";
      print_plan(plans[i], out, markdown);
    }
  }
  std::vector<CombinedMigPacking> combined;
  if (workloads.size() > 1) combined = combine_mig(workloads, table, catalog);
  if (text) print_combined_mig(combined, out, markdown);
  if (plans.size() == 1) {
    doc = to_json(plans.front());
  } else {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& p : plans) list.push_back(to_json(p));
    nlohmann::json combined_json = nlohmann::json::array();
    for (const auto& c : combined) combined_json.push_back(to_json(c));
    doc = {{"schema_version", kPlanSchemaVersion},
           {"kind", "gpusizer.plan-set"},
           {"plans", list},
           {"combined_mig_packing", combined_json}};
  }
  if (options.format == TextFormat::json) out << json_for_terminal(doc) << "\n";
  if (!options.out.empty()) write_file_atomically(options.out, doc.dump(2) + "\n");
  return any ? 0 : 3;
}

int run_catalog(const CatalogOptions& options, std::ostream& out) {
  return run_catalog(options, out, out);
}

int run_catalog(const CatalogOptions& options, std::ostream& out, std::ostream& err) {
  check_catalog_format(options.format);
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
    const std::string text = json_for_terminal(to_json(imported.overlay)) + "\n";
    std::ostream& info = options.out.empty() ? err : out;
    const auto e = [](const std::string& t) { return escape_control(t); };
    if (options.out.empty()) {
      out << text;
    } else {
      write_file_atomically(options.out, text);
      info << "wrote " << imported.overlay.prices.size() << " " << e(imported.option)
           << " price(s) for " << e(import.region) << " from " << e(imported.format) << " ("
           << imported.rows_kept << " of " << imported.rows_seen << " rows kept, as of "
           << e(imported.as_of) << ") to " << e(options.out) << "\n";
    }
    for (const auto& d : imported.details) info << "  " << e(d) << "\n";
    for (const auto& l : imported.left_out) info << "  left out: " << e(l) << "\n";
    for (const auto& w : imported.warnings) info << "warning: " << e(w) << "\n";
    return 0;
  }
  std::string path;
  std::vector<std::string> notes;
  Catalog catalog = load_catalog_source(options.catalog, path, notes);
  CatalogFilter filter{options.family, options.accelerator, options.min_memory_gib,
                       options.max_price};
  CatalogListing listing = list_catalog(catalog, filter, today, options.catalog.max_price_age_days);
  listing.catalog_file = path;
  listing.warnings = notes;
  if (options.format == TextFormat::json) {
    out << json_for_terminal(to_json(listing)) << "\n";
  } else {
    print_catalog_listing(listing, out, options.format == TextFormat::md);
  }
  return 0;
}

}  // namespace gpusizer::sizing
