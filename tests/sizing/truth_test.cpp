// Issue 13: plans that tell the whole truth. Memory fit on measured usable memory, CPU rows
// scaled from another machine labelled "scaled", spare capacity and redundancy in instances or
// replicas, capacity-block caps with the count needed, vCPU quotas per family, stale and
// illustrative prices marked in every format, and the reservation-window sentence. Every
// expected figure is computed by hand in the comment next to it.
#include <gtest/gtest.h>

#include <sstream>

#include "fixtures.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/sizing/dates.hpp"
#include "gpusizer/sizing/engine.hpp"
#include "gpusizer/sizing/plan_print.hpp"
#include "gpusizer/sizing/quota.hpp"
#include "plan_fixtures.hpp"

using namespace gpusizer::sizing;
using namespace sizing_test;

namespace {

constexpr double kGiB = 1073741824.0;

bool has(const std::vector<std::string>& lines, const std::string& text) {
  for (const auto& l : lines)
    if (l.find(text) != std::string::npos) return true;
  return false;
}

const Excluded* excluded(const Plan& p, const std::string& type, const std::string& option) {
  for (const auto& e : p.excluded)
    if (e.instance_type == type && e.option == option) return &e;
  return nullptr;
}

// A Test GPU measured at 100 TFLOP/s bf16 whose target reports `memory_bytes` usable.
CapabilityTable measured_tg(const Catalog& c, std::uint64_t memory_bytes, const std::string& name) {
  auto g = gpu_target("gpu0", "Test GPU");
  g.memory_bytes = memory_bytes;
  auto gemm = record("gemm/bf16", "gemm", "bf16", {"gpu0"}, "throughput", 100e12, "FLOP/s");
  return build_capabilities({load_report_file(save(name, report_with({g}, {gemm})))}, c);
}

std::int64_t day(const char* text) {
  return *parse_date(text);
}

}  // namespace

TEST(SizingTruth, MeasuredUsableMemoryDecidesTheFit) {
  auto c = catalog();
  // An H100-like report: 81559 MiB usable (79.647 GiB) of the catalog's 81920 MiB (80 GiB).
  auto table = measured_tg(c, 81559ull * 1048576ull, "truth-mem.json");
  auto w = base_workload();
  // 79.5 GiB fits one measured TG (79.647 >= 79.5) although the catalog minus the 1.5 GiB
  // reserve (78.5 GiB) would not; EG (no report) uses 80 - 1.5 = 78.5 GiB: 2 per replica, and
  // e1.x has 1 GPU -> excluded, saying which memory it used.
  w["memory_bytes_per_replica"] = 79.5 * kGiB;
  auto plan = make_plan(workload(w), table, c, {});
  const PlanRow* t1 = row(plan, "t1.x", "on_demand");
  ASSERT_NE(t1, nullptr);
  EXPECT_EQ(t1->gpus_per_replica, 1);
  EXPECT_DOUBLE_EQ(t1->memory_per_accelerator_bytes, 81559.0 * 1048576.0);
  EXPECT_NE(t1->memory_basis.find("measured usable memory 79.65 GiB per TG"), std::string::npos)
      << t1->memory_basis;
  const Excluded* e1 = excluded(plan, "e1.x", "");
  ASSERT_NE(e1, nullptr);
  EXPECT_NE(e1->reason.find("a replica needs 2 accelerators"), std::string::npos) << e1->reason;
  // Issue 11: memory alone never splits a replica across instances; the reason says how to.
  EXPECT_NE(e1->reason.find("(set gpus_per_replica to 2 to span instances)"), std::string::npos)
      << e1->reason;
  EXPECT_NE(e1->reason.find("catalog 80 GiB per EG - 1.5 GiB reserved for the CUDA context = "
                            "78.5 GiB"),
            std::string::npos)
      << e1->reason;
  // 80 GiB (the case): 80 > 79.647 measured -> 2 TG per replica, memory capacity binds;
  // t1.x (1 GPU) cannot hold it, t2.x holds 1 replica.
  w["memory_bytes_per_replica"] = 80.0 * kGiB;
  auto big = make_plan(workload(w), table, c, {});
  EXPECT_EQ(row(big, "t1.x", "on_demand"), nullptr);
  const PlanRow* t2 = row(big, "t2.x", "on_demand");
  ASSERT_NE(t2, nullptr);
  EXPECT_EQ(t2->gpus_per_replica, 2);
  EXPECT_EQ(t2->binding, "memory capacity");
}

TEST(SizingTruth, CpuRowsScaledFromAnotherMachineAreLabelledAndRankedAsEstimates) {
  auto cj = test_catalog();
  cj["instances"].push_back(
      {{"type", "c1.xlarge"},
       {"family", "c1"},
       {"vcpu", 8},
       {"memory_gib", 64},
       {"cpu_model", "test cpu"},
       {"prices",
        {{"on_demand", {{"usd_per_hour", 0.9}, {"source", "test"}, {"as_of", "2026-01-01"}}}}},
       {"spec_source", "test"}});
  auto c = catalog(cj);
  gpusizer::Target cpu;
  cpu.id = "cpu";
  cpu.kind = gpusizer::TargetKind::cpu;
  cpu.name = "test cpu";
  auto gemm = record("gemm/fp32/cpu", "gemm", "fp32", {"cpu"}, "throughput", 1e12, "FLOP/s");
  auto rep = report_with({cpu}, {gemm});
  rep.host.logical_cpus = 4;
  rep.host.instance_type = gpusizer::InstanceType{"c1.large", "--instance-type"};
  auto table = build_capabilities({load_report_file(save("truth-cpu.json", rep))}, c);
  auto w = base_workload();
  w["target_rate"]["value"] = 10;
  w["work_per_unit"] = {{"flops", 1e11}, {"dtype", "fp32"}};
  w["allowed"] = {"gpu", "cpu"};
  auto plan = make_plan(workload(w), table, c, {});
  // c1.large was measured itself: 1e12 / 1e11 = 10 req/s; ceil(10 / 7) = 2 x $0.5 = $1/h,
  // $730/month, label measured.
  const PlanRow* large = row(plan, "c1.large", "on_demand");
  ASSERT_NE(large, nullptr);
  EXPECT_EQ(large->label, gpusizer::PlanLabel::measured);
  EXPECT_NEAR(large->units_per_second_per_replica, 10.0, 1e-9);
  EXPECT_DOUBLE_EQ(large->cost.usd_per_month, 730.0);
  // c1.xlarge: 8 / 4 vCPUs x 1e12 = 2e12 -> 20 req/s; ceil(10 / 14) = 1 x $0.9 = $657/month:
  // cheaper, but scaled, so it ranks after the measured row and the summary names it.
  const PlanRow* xlarge = row(plan, "c1.xlarge", "on_demand");
  ASSERT_NE(xlarge, nullptr);
  EXPECT_EQ(xlarge->label, gpusizer::PlanLabel::scaled);
  EXPECT_FALSE(xlarge->estimated);
  EXPECT_NEAR(xlarge->units_per_second_per_replica, 20.0, 1e-9);
  EXPECT_DOUBLE_EQ(xlarge->cost.usd_per_month, 657.0);
  EXPECT_NE(xlarge->basis.find("on c1.large"), std::string::npos) << xlarge->basis;
  EXPECT_NE(xlarge->basis.find("x 8 / 4 vCPUs"), std::string::npos) << xlarge->basis;
  EXPECT_EQ(plan.rows.front().instance_type, "c1.large");
  EXPECT_TRUE(has(plan.summary,
                  "Cheaper on paper but SCALED (no measurement of c1.xlarge): 1 x c1.xlarge "
                  "on_demand at $657.00/month vs $730.00/month for the top plan"))
      << ::testing::PrintToString(plan.summary);
  // Every format says it.
  std::ostringstream table_text;
  print_plan(plan, table_text, false);
  EXPECT_NE(table_text.str().find("scaled"), std::string::npos);
  auto j = to_json(plan);
  EXPECT_EQ(j["options"][1]["label"], "scaled");
}

TEST(SizingTruth, SpareCapacityAndRedundancyInInstancesOrReplicas) {
  auto c = catalog();
  auto w = base_workload();
  w.erase("work_per_unit");
  w["measured_rates"] = {{{"accelerator", "TG"}, {"units_per_second", 100}, {"source", "mine"}}};
  w["redundancy"] = 1;
  // Replicas needed: ceil(140 / (100 x 0.7)) = 2.
  // N+1 instances: t1.x ceil(2 / 1) + 1 = 3 -> 3 GPUs, 2 needed: 1 spare, 1 x $10 = $10/h;
  // t8.x ceil(2 / 8) + 1 = 2 -> 16 GPUs, 14 spare, 14 x $80 / 8 = $140/h.
  auto by_instances = make_plan(workload(w), CapabilityTable{}, c, {});
  const PlanRow* t1 = row(by_instances, "t1.x", "on_demand");
  const PlanRow* t8 = row(by_instances, "t8.x", "on_demand");
  ASSERT_NE(t1, nullptr);
  ASSERT_NE(t8, nullptr);
  EXPECT_EQ(t1->cost.instances, 3);
  EXPECT_EQ(t1->cost.needed_replicas, 2);
  EXPECT_EQ(t1->cost.spare_accelerators, 1);
  EXPECT_DOUBLE_EQ(t1->cost.spare_usd_per_hour, 10.0);
  EXPECT_EQ(t8->cost.instances, 2);
  EXPECT_EQ(t8->cost.spare_accelerators, 14);
  EXPECT_DOUBLE_EQ(t8->cost.spare_usd_per_hour, 140.0);
  EXPECT_EQ(t8->cost.spare_unit, gpusizer::SpareUnit::accelerators);
  // N+1 replicas: t1.x ceil((2 + 1) / 1) = 3 (same); t8.x ceil(3 / 8) = 1 instance, $80/h,
  // 8 - 2 = 6 spare GPUs, 6 x $10 = $60/h.
  w["redundancy_unit"] = "replicas";
  auto by_replicas = make_plan(workload(w), CapabilityTable{}, c, {});
  t8 = row(by_replicas, "t8.x", "on_demand");
  ASSERT_NE(t8, nullptr);
  EXPECT_EQ(t8->cost.instances, 1);
  EXPECT_DOUBLE_EQ(t8->cost.usd_per_hour, 80.0);
  EXPECT_EQ(t8->cost.spare_accelerators, 6);
  EXPECT_DOUBLE_EQ(t8->cost.spare_usd_per_hour, 60.0);
  EXPECT_EQ(row(by_replicas, "t1.x", "on_demand")->cost.instances, 3);
  // Shown in the table and the JSON.
  std::ostringstream text;
  print_plan(by_replicas, text, false);
  EXPECT_NE(text.str().find("6 acc $60.00/h"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("N+1 replicas"), std::string::npos);
  auto j = to_json(by_replicas);
  bool found = false;
  for (const auto& o : j["options"]) {
    if (o["instance_type"] == "t8.x") {
      EXPECT_EQ(o["cost"]["spare"]["spare_accelerators"], 6);
      EXPECT_DOUBLE_EQ(o["cost"]["spare"]["usd_per_hour"].get<double>(), 60.0);
      found = true;
    }
  }
  EXPECT_TRUE(found);
  EXPECT_EQ(j["workload"]["redundancy_unit"], "replicas");
  // A bad unit is an input error naming the field.
  w["redundancy_unit"] = "gpus";
  try {
    workload(w);
    FAIL();
  } catch (const gpusizer::InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("w.json: /redundancy_unit: expected one of instances", 0),
              0u)
        << e.what();
  }
}

TEST(SizingTruth, CapacityBlockCapSaysHowManyInstancesWereNeeded) {
  auto c = catalog();
  auto w = base_workload();
  w.erase("work_per_unit");
  // 1 req/s per t1.x instance; target 180: ceil(180 / 0.7) = ceil(257.14) = 258 instances,
  // above the 256 EC2 allows across capacity blocks (ceil(258 / 64) = 5 blocks of <= 64).
  w["target_rate"]["value"] = 180;
  w["measured_rates"] = {{{"instance_type", "t1.x"}, {"units_per_second", 1}, {"source", "s"}}};
  w["reservation_window"] = {{"days", 7}, {"busy_fraction", 1.0}};
  auto plan = make_plan(workload(w), CapabilityTable{}, c, {});
  const Excluded* cb = excluded(plan, "t1.x", "capacity_block");
  ASSERT_NE(cb, nullptr);
  EXPECT_EQ(cb->reason,
            "needs 258 instances: EC2 capacity blocks hold at most 64 instances per block and 256 "
            "across blocks (5 blocks of at most 64 would be needed)");
  const PlanRow* od = row(plan, "t1.x", "on_demand");
  ASSERT_NE(od, nullptr);
  EXPECT_EQ(od->cost.instances, 258);
  // 200 instances fit: 64 + 64 + 64 + 8 (target 140: ceil(140 / 0.7) = 200).
  w["target_rate"]["value"] = 140;
  auto fits = make_plan(workload(w), CapabilityTable{}, c, {});
  const PlanRow* ok = row(fits, "t1.x", "capacity_block");
  ASSERT_NE(ok, nullptr);
  EXPECT_EQ(ok->cost.blocks, (std::vector<int>{64, 64, 64, 8}));
}

TEST(SizingTruth, VcpuQuotaPerFamilyWithNamesAndCodes) {
  // Buckets by longest prefix, names and codes of reference/aws-cli-and-quotas.md 3.
  EXPECT_EQ(quota_bucket("p5").on_demand_code, "L-417A185B");
  EXPECT_EQ(quota_bucket("p6-b200").on_demand_name, "Running On-Demand P instances");
  EXPECT_EQ(quota_bucket("g6e").on_demand_code, "L-DB2E81BA");
  EXPECT_EQ(quota_bucket("gr6").on_demand_name, "Running On-Demand G and VT instances");
  EXPECT_EQ(quota_bucket("inf2").on_demand_code, "L-1945791B");
  EXPECT_EQ(quota_bucket("trn1").on_demand_code, "L-2C3B7624");
  EXPECT_EQ(quota_bucket("dl1").on_demand_code, "L-6E869C2A");
  EXPECT_EQ(quota_bucket("m7i").on_demand_code, "L-1216C47A");
  EXPECT_EQ(quota_bucket("c7i").spot_code, "L-34B43A08");
  EXPECT_EQ(quota_bucket("p5").spot_name, "All P Spot Instance Requests");
  EXPECT_EQ(quota_bucket("g6").spot_code, "L-3819A6DF");
  EXPECT_EQ(quota_bucket("hpc7g").bucket, "HPC");
  // Needs: instances x vCPUs; capacity blocks carry none (not confirmed).
  auto need = quota_need("p5", gpusizer::PurchaseOption::on_demand, 2, 192, nullptr);
  ASSERT_TRUE(need);
  EXPECT_EQ(need->vcpus, 384);  // 2 x 192
  EXPECT_EQ(need->market, "On-Demand");
  EXPECT_EQ(quota_need("p5", gpusizer::PurchaseOption::spot, 1, 192, nullptr)->code, "L-7212CCBC");
  EXPECT_FALSE(quota_need("p5", gpusizer::PurchaseOption::capacity_block, 1, 192, nullptr));
  // The account's list: Standard 32 vCPUs. The test catalog's families (t1, t2, t8, e1, c1)
  // are Standard. t1.x: 16 vCPUs; measured 100 req/s -> ceil(140 / 70) = 2 instances = 32 vCPUs
  // (within); with N+1 = 3 instances = 48 vCPUs > 32: said per option and for the top plan.
  auto c = catalog();
  AccountQuotas account;
  load_quotas(std::string(GPUSIZER_SOURCE_DIR) + "/tests/sizing/aws/service-quotas.json",
              "us-east-1", account);
  ASSERT_EQ(account.quotas.size(), 3u);  // the vpc quota is another service's
  auto w = base_workload();
  w.erase("work_per_unit");
  w["measured_rates"] = {{{"accelerator", "TG"}, {"units_per_second", 100}, {"source", "mine"}}};
  w["redundancy"] = 1;
  EngineOptions o;
  o.quotas = &account;
  auto plan = make_plan(workload(w), CapabilityTable{}, c, o);
  const PlanRow& top = plan.rows.front();
  EXPECT_EQ(top.instance_type, "t1.x");  // 3 x $10 = $30/h beats 2 x $20 and 2 x $80
  ASSERT_TRUE(top.cost.quota);
  EXPECT_EQ(top.cost.quota->vcpus, 48);  // 3 x 16
  EXPECT_EQ(top.cost.quota->code, "L-1216C47A");
  EXPECT_DOUBLE_EQ(*top.cost.quota->quota_vcpus, 32.0);
  EXPECT_TRUE(has(top.cost.notes,
                  "needs 48 vCPUs of \"Running On-Demand Standard (A, C, D, H, I, M, R, T, Z) "
                  "instances\" (L-1216C47A), the account's quota is 32"));
  EXPECT_TRUE(has(plan.summary,
                  "vCPU quota: the top plan needs 48 vCPUs (3 x t1.x) of \"Running On-Demand "
                  "Standard (A, C, D, H, I, M, R, T, Z) instances\" (L-1216C47A) in us-east-1; "
                  "the account's quota is 32: request an increase to at least 48"))
      << ::testing::PrintToString(plan.summary);
  EXPECT_TRUE(has(plan.warnings, "more than the account's quota 32"));
  auto j = to_json(plan);
  EXPECT_EQ(j["options"][0]["cost"]["vcpu_quota"]["exceeds_quota"], true);
  EXPECT_EQ(j["vcpu_quotas"][0]["code"], "L-1216C47A");
  // A quota of another Region is refused with the file and JSON pointer.
  nlohmann::json other{
      {"Quota",
       {{"ServiceCode", "ec2"},
        {"QuotaArn", "arn:aws:servicequotas:us-west-2:123456789012:ec2/L-417A185B"},
        {"QuotaCode", "L-417A185B"},
        {"QuotaName", "Running On-Demand P instances"},
        {"Value", 0.0}}}};
  AccountQuotas into;
  try {
    read_quotas(gpusizer::JsonInput(other, "q.json"), "us-east-1", into);
    FAIL();
  } catch (const gpusizer::InputError& e) {
    EXPECT_EQ(
        std::string(e.what()).rfind("q.json: /Quota/QuotaArn: quota of region \"us-west-2\"", 0),
        0u)
        << e.what();
  }
}

TEST(SizingTruth, StaleAndIllustrativePricesAreMarkedEverywhere) {
  auto cj = test_catalog();
  cj["instances"][0]["prices"]["spot"]["illustrative"] = true;
  cj["instances"][0]["prices"]["spot"]["as_of"] = "2025-06";
  cj["instances"][0]["prices"]["spot"]["note"] = "snapshot";
  auto c = catalog(cj);
  auto table = measured_tg(c, 80ull << 30, "truth-stale.json");
  auto w = base_workload();
  w["interruptions"] = "tolerable";
  w["interruption_overhead"] = 0.2;
  EngineOptions o;
  o.today = day("2026-06-01");
  auto plan = make_plan(workload(w), table, c, o);
  // 2026-01-01 -> 2026-06-01 = 31 + 28 + 31 + 30 + 31 = 151 days (> 90: stale);
  // 2025-06 (read as 2025-06-01) -> 2026-06-01 = 365 days.
  const PlanRow* od = row(plan, "t1.x", "on_demand");
  const PlanRow* spot = row(plan, "t1.x", "spot");
  ASSERT_NE(od, nullptr);
  ASSERT_NE(spot, nullptr);
  EXPECT_EQ(*od->cost.price_age_days, 151);
  EXPECT_TRUE(od->cost.price_stale);
  EXPECT_EQ(*spot->cost.price_age_days, 365);
  EXPECT_EQ(row_labels(*spot), (std::vector<std::string>{"measured", "illustrative", "stale"}));
  // Spot: ceil(140 / (100 x 0.7 x 0.8 = 56)) = 3 x $3 = $9/h ranks #1 on an illustrative price
  // above the dated on-demand 2 x $10 = $20/h ($14,600/month): the summary says so.
  EXPECT_EQ(plan.rows.front().cost.option, "spot");
  EXPECT_TRUE(has(plan.summary,
                  "#1 3 x t1.x spot ranks on an ILLUSTRATIVE price ($3.00/h per instance, test, "
                  "as of 2025-06) above #2 2 x t1.x on_demand at $14,600.00/month, the best option "
                  "with a dated price"))
      << ::testing::PrintToString(plan.summary);
  EXPECT_TRUE(has(plan.summary, "Its price is ILLUSTRATIVE"));
  EXPECT_TRUE(has(plan.summary, "Its price is STALE (as of 2025-06, 365 days old)"));
  EXPECT_TRUE(has(plan.warnings,
                  "STALE, older than 90 days on 2026-06-01: t1.x spot (as of "
                  "2025-06, 365 days)"));
  for (bool md : {false, true}) {
    std::ostringstream text;
    print_plan(plan, text, md);
    EXPECT_NE(text.str().find("2025-06 illustrative stale"), std::string::npos) << text.str();
    EXPECT_NE(text.str().find("2026-01-01 stale"), std::string::npos);
  }
  auto j = to_json(plan);
  EXPECT_EQ(j["options"][0]["labels"], nlohmann::json({"measured", "illustrative", "stale"}));
  EXPECT_EQ(j["options"][0]["cost"]["price_age_days"], 365);
  EXPECT_EQ(j["catalog"]["prices_checked_on"], "2026-06-01");
  // A fresh price (12 days: 2026-05-20 -> 2026-06-01) is not stale.
  cj["instances"][0]["prices"]["on_demand"]["as_of"] = "2026-05-20";
  auto fresh = make_plan(workload(w), table, catalog(cj), o);
  EXPECT_EQ(*row(fresh, "t1.x", "on_demand")->cost.price_age_days, 12);
  EXPECT_FALSE(row(fresh, "t1.x", "on_demand")->cost.price_stale);
}

TEST(SizingTruth, ReservationWindowSentenceComparesTheThreeWithDollarDifferences) {
  auto c = catalog();
  auto table = measured_tg(c, 80ull << 30, "truth-window.json");
  auto w = base_workload();
  w["reservation_window"] = {{"days", 7}, {"busy_fraction", 0.8}};
  w["interruptions"] = "tolerable";
  w["interruption_overhead"] = 0.2;
  EngineOptions o;
  o.today = day("2026-01-02");
  auto plan = make_plan(workload(w), table, c, o);
  // 100 req/s per GPU. Capacity block: 2 instances x $6 x 168 h = $2,016.00.
  // On-demand: 2 x $10 x 168 h x 0.8 = $2,688.00 (t2.x ties at 1 x $20; t1.x sorts first).
  // Spot: ceil(140 / 56) = 3 x $3 x 134.4 h = $1,209.60: cheapest, by 2,016 - 1,209.60 = $806.40
  // against the reservation and 2,688 - 1,209.60 = $1,478.40 against on-demand.
  EXPECT_TRUE(has(plan.summary,
                  "Over the 7-day window (busy fraction 0.8): best reservation 2 x t1.x "
                  "capacity_block at $2,016.00, best on-demand 2 x t1.x on_demand at $2,688.00, "
                  "best spot 3 x t1.x spot at $1,209.60; spot is cheapest by $806.40 against "
                  "reservation and by $1,478.40 against on-demand."))
      << ::testing::PrintToString(plan.summary);
  // Without spot: the reservation against on-demand, $2,688 - $2,016 = $672.00.
  w["interruptions"] = "not_tolerable";
  auto no_spot = make_plan(workload(w), table, c, o);
  EXPECT_TRUE(has(no_spot.summary,
                  "best reservation 2 x t1.x capacity_block at $2,016.00, best on-demand 2 x "
                  "t1.x on_demand at $2,688.00; reservation is cheapest by $672.00 against "
                  "on-demand; spot not allowed (interruptions)."))
      << ::testing::PrintToString(no_spot.summary);
}
