// What `recommend` and `catalog` print is computed apart from printing: the combined MIG packing,
// the catalog listing and the top plan's reasons are tested here without a printer, and the
// printers escape text from the catalog, workload or reports.
#include <gtest/gtest.h>

#include <sstream>

#include "../core/terminal_safe.hpp"
#include "fixtures.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/sizing/catalog_listing.hpp"
#include "gpusizer/sizing/combined_mig.hpp"
#include "gpusizer/sizing/dates.hpp"
#include "gpusizer/sizing/plan_print.hpp"

using namespace gpusizer::sizing;
using namespace sizing_test;

namespace {

Catalog test_catalog_loaded() {
  return catalog_from_json(gpusizer::JsonInput(test_catalog(), "c.json"));
}

Demand mig_workload(const std::string& name, double rate) {
  auto w = mig_workload_json(rate);
  w["name"] = name;
  return demand_from_json(gpusizer::JsonInput(w, "w.json"));
}

const std::string kHostile = "x\x1b[2J\a\r\xc2\x9b";
const std::string kShown = "x\\x1b[2J\\x07\\x0d\\u009b";

using gpusizer::testing::terminal_safe;

TEST(SizingPrintSplit, CombinedMigIsComputedWithoutPrinting) {
  const Catalog c = test_catalog_loaded();
  // a: ceil(140 / (30 x 0.7 = 21)) = 7 + 1 = 8 slices; b: ceil(42 / 21) = 2 + 1 = 3 slices.
  // 11 x 1g.35gb (2 memory slices each, starts 0/2/4/6): 4 + 4 + 3 on 3 GPUs. Stranded compute
  // 3 + 3 + 4 = 10, memory 0 + 0 + 2 = 2. EG has no MIG profiles: no entry.
  const auto combined =
      combine_mig({mig_workload("a", 140), mig_workload("b", 42)}, CapabilityTable{}, c);
  ASSERT_EQ(combined.size(), 1u);
  const CombinedMigPacking& tg = combined.front();
  EXPECT_EQ(tg.accelerator, "TG");
  ASSERT_EQ(tg.workloads.size(), 2u);
  EXPECT_EQ(tg.workloads[0].workload, "a");
  EXPECT_EQ(tg.workloads[0].profile, "1g.35gb");
  EXPECT_EQ(tg.workloads[0].slices, 8);
  EXPECT_EQ(tg.workloads[1].slices, 3);
  EXPECT_EQ(tg.packing.gpus.size(), 3u);
  EXPECT_EQ(tg.packing.stranded_compute_slices, 10);
  EXPECT_EQ(tg.packing.stranded_memory_slices, 2);
  // t1.x (1 GPU, $10): 3 instances, $30/h; t2.x (2 GPUs, $20): 2, $40/h; t8.x ($80): 1, $80/h.
  ASSERT_EQ(tg.instance_types.size(), 3u);
  EXPECT_EQ(tg.instance_types[0].instance_type, "t1.x");
  EXPECT_EQ(tg.instance_types[0].instances, 3);
  EXPECT_DOUBLE_EQ(*tg.instance_types[0].on_demand_usd_per_hour, 30.0);
  EXPECT_EQ(tg.instance_types[1].instances, 2);
  EXPECT_DOUBLE_EQ(*tg.instance_types[1].on_demand_usd_per_hour, 40.0);
  EXPECT_EQ(tg.instance_types[2].instances, 1);
  const auto j = to_json(tg);
  EXPECT_EQ(j["gpus"], 3);
  EXPECT_EQ(j["workloads"][1]["slices"], 3);
  EXPECT_EQ(j["instance_types"][1]["on_demand_usd_per_hour"], 40.0);
  EXPECT_EQ(j["mig_parted_config"]["mig-configs"]["gpusizer-combined"].size(), 3u);
  // A workload that does not allow MIG: nothing to combine.
  auto gpu_only = mig_workload("c", 42);
  gpu_only.allowed = {gpusizer::HardwareKind::gpu};
  EXPECT_TRUE(combine_mig({mig_workload("a", 140), gpu_only}, CapabilityTable{}, c).empty());
}

TEST(SizingPrintSplit, CombinedMigPrinterEscapesNames) {
  const auto combined = combine_mig({mig_workload(kHostile, 140), mig_workload("b", 42)},
                                    CapabilityTable{}, test_catalog_loaded());
  for (bool md : {false, true}) {
    std::ostringstream out;
    print_combined_mig(combined, out, md);
    EXPECT_TRUE(terminal_safe(out.str())) << out.str();
    EXPECT_NE(out.str().find("  - " + kShown + ": 8 x 1g.35gb\n"), std::string::npos) << out.str();
    EXPECT_NE(out.str().find("  - 3 x t1.x on_demand $30.00/h\n"), std::string::npos);
  }
}

TEST(SizingPrintSplit, CatalogListingIsComputedWithoutPrinting) {
  const Catalog c = test_catalog_loaded();
  const std::int64_t today = *parse_date("2026-03-01");  // prices as of 2026-01-01: 59 days
  auto types = [](const CatalogListing& l) {
    std::vector<std::string> out;
    for (const auto& i : l.instances) out.push_back(i.type.type);
    return out;
  };
  CatalogListing tg = list_catalog(c, {"", "tg", std::nullopt, std::nullopt}, today, 30);
  EXPECT_EQ(types(tg), (std::vector<std::string>{"t1.x", "t2.x", "t8.x"}));
  EXPECT_EQ(tg.prices_checked_on, "2026-03-01");
  ASSERT_EQ(tg.instances[0].prices.size(), 3u);
  const ListedPrice& spot = tg.instances[0].prices.at("spot");
  EXPECT_EQ(spot.age_days, 59);
  EXPECT_TRUE(spot.stale);  // 59 > 30
  EXPECT_FALSE(list_catalog(c, {"t1", "", std::nullopt, std::nullopt}, today, 90)
                   .instances[0]
                   .prices.at("spot")
                   .stale);  // 59 <= 90
  // On-demand <= $5/h: e1.x ($4) and c1.large ($0.50); 100 GiB per accelerator: none.
  EXPECT_EQ(types(list_catalog(c, {"", "", std::nullopt, 5.0}, today, 90)),
            (std::vector<std::string>{"e1.x", "c1.large"}));
  EXPECT_TRUE(list_catalog(c, {"", "", 100.0, std::nullopt}, today, 90).instances.empty());
  EXPECT_THROW(list_catalog(c, {"zz", "", std::nullopt, std::nullopt}, today, 90),
               gpusizer::InputError);
  EXPECT_THROW(list_catalog(c, {"", "nope", std::nullopt, std::nullopt}, today, 90),
               gpusizer::InputError);
  const auto j = to_json(tg);
  EXPECT_EQ(j["instances"][0]["prices"]["spot"]["age_days"], 59);
  EXPECT_EQ(j["instances"][0]["prices"]["spot"]["stale"], true);
}

TEST(SizingPrintSplit, CatalogListingPrinterEscapesNames) {
  auto cj = test_catalog();
  cj["instances"][0]["type"] = "t1" + kHostile;
  const Catalog c = catalog_from_json(gpusizer::JsonInput(cj, "c.json"));
  CatalogListing l = list_catalog(c, {}, *parse_date("2026-03-01"), 30);
  l.catalog_file = "c" + kHostile + ".json";
  l.warnings = {"w" + kHostile};
  for (bool md : {false, true}) {
    std::ostringstream out;
    print_catalog_listing(l, out, md);
    EXPECT_TRUE(terminal_safe(out.str())) << out.str();
    EXPECT_NE(out.str().find("t1" + kShown), std::string::npos) << out.str();
    EXPECT_NE(out.str().find("from c" + kShown + ".json"), std::string::npos) << out.str();
    EXPECT_NE(out.str().find("warning: w" + kShown), std::string::npos) << out.str();
  }
}

Plan one_row_plan() {
  Plan p;
  p.workload_name = "w";
  p.unit = "req";
  p.utilization_target = 0.7;
  PlanRow r;
  r.instance_type = "c1.large";
  r.reasons = {"first reason"};
  r.units_per_second_per_replica = 200;
  r.basis = "measured (reports)";
  r.replicas_per_instance = 1;
  r.binding = "compute";
  r.cost.option = "on_demand";
  r.cost.instances = 4;
  r.cost.needed_replicas = 3;
  r.cost.spare_replicas = 1;
  r.cost.spare_unit = gpusizer::SpareUnit::instances;
  r.cost.spare_usd_per_hour = 10;
  r.cost.price = {39.33, "test", "2026-01-01", "", false, std::nullopt};
  p.rows = {r};
  QuotaSummary q;
  q.need.name = "Running On-Demand Standard instances";
  q.need.code = "L-1216C47A";
  q.need.vcpus = 16;
  q.top_plan = true;
  q.max_vcpus = 64;
  q.max_instance_type = "c1.4xlarge";
  p.vcpu_quotas = {q};
  return p;
}

TEST(SizingPrintSplit, TopPlanReasonsAndQuotaLinesWithoutPrinting) {
  const Plan p = one_row_plan();
  EXPECT_EQ(top_plan_reasons(p),
            (std::vector<std::string>{
                "first reason",
                "per replica 200 req/s (measured (reports)), 1 replica(s) per instance, "
                "binding: compute",
                "spare: the target needs 3 replica(s) at utilization 0.7; 4 instance(s) hold 4, "
                "so 1 instance(s) are spare, $10.00/h",
                "price $39.33/h per instance (test, as of 2026-01-01)"}));
  EXPECT_EQ(quota_lines(p),
            (std::vector<std::string>{
                "\"Running On-Demand Standard instances\" (L-1216C47A): the top plan needs 16 "
                "vCPUs; options in the table need up to 64 vCPUs (c1.4xlarge)"}));
  EXPECT_TRUE(top_plan_reasons(Plan{}).empty());
  EXPECT_TRUE(quota_lines(Plan{}).empty());
}

TEST(SizingPrintSplit, PlanPrinterEscapesEveryString) {
  Plan p = one_row_plan();
  p.workload_name = "w" + kHostile;
  p.unit = "req" + kHostile;
  p.rows[0].instance_type = "c1" + kHostile;
  p.rows[0].reasons = {"reason" + kHostile};
  p.summary = {"summary" + kHostile};
  p.warnings = {"warning" + kHostile};
  p.assumptions = {"assumption" + kHostile};
  p.restricted_to = {"only" + kHostile};
  p.excluded = {{"t9" + kHostile, "", "excluded" + kHostile, 0}};
  for (bool md : {false, true}) {
    std::ostringstream out;
    print_plan(p, out, md);
    const std::string text = out.str();
    EXPECT_TRUE(terminal_safe(text)) << text;
    for (const char* what :
         {"w", "c1", "reason", "summary", "warning", "assumption", "only", "excluded", "t9"}) {
      EXPECT_NE(text.find(what + kShown), std::string::npos) << what << "\n" << text;
    }
  }
}

}  // namespace
