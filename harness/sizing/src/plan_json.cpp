#include "gpusizer/sizing/plan.hpp"
#include "gpusizer/sizing/plan_print.hpp"
#include "uncertainty.hpp"

namespace gpusizer::sizing {
namespace {

using nlohmann::json;

json evidence_json(const Evidence& e) {
  json j{{"report_file", e.report_file},
         {"report_sha256", e.report_sha256},
         {"record_id", e.record_id},
         {"target_id", e.target_id},
         {"metric", e.metric},
         {"value", e.value},
         {"unit", e.unit},
         {"parameters", e.parameters}};
  if (e.concurrency != Concurrency::not_stated) j["mode"] = e.concurrency;
  return j;
}

json packing_json(const MigPacking& p) {
  json gpus = json::array();
  for (std::size_t i = 0; i < p.gpus.size(); ++i) {
    const auto& g = p.gpus[i];
    json placements = json::array();
    for (const auto& pl : g.placements) {
      placements.push_back({{"profile", pl.profile},
                            {"start", pl.start},
                            {"memory_slices", pl.memory_slices},
                            {"compute_slices", pl.compute_slices}});
    }
    gpus.push_back({{"gpu", i},
                    {"layout", g.describe()},
                    {"mig_devices", g.mig_devices()},
                    {"placements", placements},
                    {"stranded_compute_slices", g.stranded_compute_slices},
                    {"stranded_memory_slices", g.stranded_memory_slices}});
  }
  json out{{"gpus", gpus},
           {"stranded_compute_slices", p.stranded_compute_slices},
           {"stranded_memory_slices", p.stranded_memory_slices},
           {"lower_bound_gpus", p.lower_bound_gpus},
           {"mig_parted_config", mig_parted_config(p, "gpusizer-plan")}};
  if (!p.search_note.empty()) out["search_note"] = p.search_note;
  return out;
}

json quota_json(const QuotaNeed& q) {
  json j{{"bucket", q.bucket},
         {"name", q.name},
         {"code", q.code},
         {"market", q.market},
         {"vcpus", q.vcpus}};
  if (q.quota_vcpus) {
    j["quota_vcpus"] = *q.quota_vcpus;
    j["quota_is_aws_default"] = q.aws_default;
    j["quota_source"] = q.quota_source;
    j["exceeds_quota"] = q.vcpus > *q.quota_vcpus;
  }
  return j;
}

json row_json(const PlanRow& r) {
  const OptionCost& c = r.cost;
  json cost{{"option", c.option},
            {"instances", c.instances},
            {"usd_per_hour", c.usd_per_hour},
            {"usd_per_month", c.usd_per_month},
            {"units_per_dollar", c.units_per_dollar},
            {"price", to_json(c.price)},
            {"price_age_days", c.price_age_days ? json(*c.price_age_days) : json(nullptr)},
            {"price_stale", c.price_stale},
            {"price_illustrative", c.price.illustrative},
            {"spare",
             {{"unit", c.spare_unit},
              {"needed_replicas", c.needed_replicas},
              {"spare_replicas", c.spare_replicas},
              {"spare_accelerators", c.spare_accelerators},
              {"usd_per_hour", c.spare_usd_per_hour}}},
            {"vcpu_quota", c.quota ? quota_json(*c.quota) : json(nullptr)},
            {"notes", c.notes}};
  if (c.window_usd) cost["window_usd"] = *c.window_usd;
  if (c.on_demand_window_usd) cost["on_demand_window_usd"] = *c.on_demand_window_usd;
  if (c.break_even_busy_fraction) cost["break_even_busy_fraction"] = *c.break_even_busy_fraction;
  if (c.billed_days) cost["billed_days"] = *c.billed_days;
  if (!c.blocks.empty()) cost["capacity_blocks"] = c.blocks;
  if (c.block_schedule) {
    const BlockSchedule& b = *c.block_schedule;
    json schedule{{"ends_at_utc", kCapacityBlockEndUtc},
                  {"termination_starts_minutes_before_end", kCapacityBlockTerminationMinutes},
                  {"billed_hours", b.billed_hours},
                  {"usable_hours", b.usable_hours}};
    if (!b.start.empty()) schedule["start"] = b.start;
    if (!b.end.empty()) schedule["end"] = b.end;
    if (!b.termination_starts.empty()) schedule["termination_starts"] = b.termination_starts;
    cost["capacity_block_schedule"] = schedule;
  }
  json evidence = json::array();
  for (const auto& e : r.evidence) evidence.push_back(evidence_json(e));
  json j{{"instance_type", r.instance_type},
         {"kind", r.kind},
         {"accelerator", r.accelerator},
         {"estimated", r.estimated},
         {"label", r.label},
         {"labels", row_labels(r)},
         {"basis", r.basis},
         {"memory_per_accelerator_bytes", r.memory_per_accelerator_bytes},
         {"memory_basis", r.memory_basis},
         {"gpus_per_replica", r.gpus_per_replica},
         {"replicas_per_instance", r.replicas_per_instance},
         {"instances_per_replica", r.instances_per_replica},
         {"units_per_second_per_replica", r.units_per_second_per_replica},
         {"units_per_second_per_instance", r.units_per_second_per_instance},
         {"binding_resource", r.binding},
         {"units_per_joule", r.units_per_joule ? json(*r.units_per_joule) : json(nullptr)},
         {"power_note", r.power_note},
         {"cost", cost},
         {"measurement_spread", detail::spread_json(r.spread)},
         {"evidence", evidence},
         {"reasons", r.reasons}};
  if (r.mig_profile) j["mig_profile"] = *r.mig_profile;
  if (r.mig) {
    j["mig_slices"] = r.mig_slices;
    j["mig_packing"] = packing_json(*r.mig);
  }
  return j;
}

}  // namespace

nlohmann::json to_json(const Plan& plan) {
  json reports = json::array();
  for (const auto& r : plan.reports) {
    reports.push_back(
        {{"file", r.file},
         {"sha256", r.sha256},
         {"tool_version", r.tool_version},
         {"hostname", r.hostname},
         {"instance_type", r.instance_type.empty() ? json(nullptr) : json(r.instance_type)},
         {"suite", r.suite},
         {"started_at", r.started_at},
         {"verified", r.verified},
         {"verification", r.verification}});
  }
  json rows = json::array();
  for (const auto& r : plan.rows) rows.push_back(row_json(r));
  json excluded = json::array();
  for (const auto& e : plan.excluded) {
    json j{{"instance_type", e.instance_type}, {"reason", e.reason}};
    if (!e.option.empty()) j["option"] = e.option;
    excluded.push_back(j);
  }
  json workload{{"name", plan.workload_name},
                {"file", plan.workload_file},
                {"target_rate", plan.target_rate},
                {"unit", plan.unit},
                {"utilization_target", plan.utilization_target},
                {"redundancy", plan.redundancy},
                {"redundancy_unit", plan.redundancy_unit},
                {"hours_per_month", plan.hours_per_month}};
  if (plan.window_days) {
    workload["reservation_window"] = {{"days", *plan.window_days},
                                      {"busy_fraction", *plan.window_busy_fraction}};
  }
  json quotas = json::array();
  for (const auto& q : plan.vcpu_quotas) {
    json j = quota_json(q.need);
    j["top_plan"] = q.top_plan;
    j["max_vcpus"] = q.max_vcpus;
    j["max_instance_type"] = q.max_instance_type;
    quotas.push_back(j);
  }
  return {{"schema_version", kPlanSchemaVersion},
          {"kind", "gpusizer.plan"},
          {"tool_version", plan.tool_version},
          {"workload", workload},
          {"catalog",
           {{"file", plan.catalog_file},
            {"region", plan.catalog_region},
            {"overlays", plan.overlays},
            {"restricted_to", plan.restricted_to},
            {"prices_checked_on", plan.prices_checked_on},
            {"max_price_age_days", plan.max_price_age_days}}},
          {"reports", reports},
          {"summary", plan.summary},
          {"options", rows},
          {"vcpu_quotas", quotas},
          {"excluded", excluded},
          {"assumptions", plan.assumptions},
          {"warnings", plan.warnings}};
}

}  // namespace gpusizer::sizing
