// Cases found while checking `gpusizer recommend` against hand arithmetic (issue 5): MIG packing
// that first-fit decreasing gets wrong, MIG perf/$ at full load, capacity blocks rounded up to
// 7-day steps, workload names unknown to the catalog, MIG shapes NVIDIA does not place, and the
// plain answers for "nothing fits" and "--max-instances too low". Expected numbers by hand.
#include <gtest/gtest.h>

#include "fixtures.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/sizing/engine.hpp"
#include "gpusizer/sizing/mig.hpp"

using namespace gpusizer::sizing;
using namespace sizing_test;

namespace {
const MigProfile k1g{"1g.18gb", 1, 1, 18432};
const MigProfile k2g{"2g.35gb", 2, 2, 35840};
const MigProfile k3g{"3g.71gb", 3, 4, 72704};
const MigProfile k4g{"4g.71gb", 4, 4, 72704};
const MigProfile k1g2x{"1g.35gb", 1, 2, 35840};

std::vector<MigProfile> times(int n, const MigProfile& p) {
  return std::vector<MigProfile>(static_cast<std::size_t>(n), p);
}
std::vector<MigProfile> join(std::vector<MigProfile> a, const std::vector<MigProfile>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

bool has_note(const PlanRow& r, const std::string& text) {
  for (const auto& n : r.cost.notes)
    if (n.find(text) != std::string::npos) return true;
  return false;
}
bool has_summary(const Plan& p, const std::string& text) {
  for (const auto& s : p.summary)
    if (s.find(text) != std::string::npos) return true;
  return false;
}
}  // namespace

TEST(SizingQa, MigPackingBeatsFirstFitDecreasing) {
  // 4 x 2g + 2 x 3g. First-fit decreasing puts 3g@0 + 3g@4 on GPU 0 (memory full), then
  // 2g+2g+2g on GPU 1 and the last 2g on GPU 2: 3 GPUs. By hand: 2g@0 + 2g@2 + 3g@4 (2g starts
  // only at 0, 2, 4; 3g at 0 or 4) uses 7/7 compute and 8/8 memory slices, twice: 2 GPUs.
  auto p = pack_mig(join(times(4, k2g), times(2, k3g)));
  ASSERT_EQ(p.gpus.size(), 2u);
  const nlohmann::json each = {{"2g.35gb", 2}, {"3g.71gb", 1}};
  for (const auto& gpu : p.gpus) EXPECT_EQ(gpu.mig_devices(), each) << gpu.describe();
  EXPECT_EQ(p.gpus[0].describe(), "2g.35gb@0 + 2g.35gb@2 + 3g.71gb@4");
  EXPECT_EQ(p.stranded_compute_slices, 0);
  EXPECT_EQ(p.stranded_memory_slices, 0);
  EXPECT_EQ(p.lower_bound_gpus, 2);  // ceil(14/7), ceil(16/8)
}

TEST(SizingQa, MigPackingOptimumAboveSliceBound) {
  // 4 x 2g + 4 x 3g: compute 20 -> ceil(20/7) = 3, memory 24 -> 3 GPUs is the bound and the
  // optimum (3g+2g+2g twice, 3g+3g once); FFD needs 4 (3g+3g twice, 2g x 3, 2g).
  // Stranded: 0 + 0 + (7 - 6) = 1 compute, 0 memory.
  auto p = pack_mig(join(times(4, k2g), times(4, k3g)));
  EXPECT_EQ(p.gpus.size(), 3u);
  EXPECT_EQ(p.stranded_compute_slices, 1);
  EXPECT_EQ(p.stranded_memory_slices, 0);
  // 4 x 1g + 2 x 1g.2x + 2 x 4g: compute 4 + 2 + 8 = 14, memory 4 + 4 + 8 = 16 -> bound 2.
  // FFD: 4g | 4g; both 1g.2x onto GPU 0 (4g@0 + 1g.2x@4 + 1g.2x@6, memory full); three 1g onto
  // GPU 1 (@4, @5, @6, compute 7/7); the fourth 1g needs GPU 2. Optimum by hand, twice:
  // 4g@0 + 1g@4 + 1g@5 + 1g.2x@6 (7/7 compute, 8/8 memory): 2 GPUs, nothing stranded.
  auto q = pack_mig(join(join(times(4, k1g), times(2, k1g2x)), times(2, k4g)));
  EXPECT_EQ(q.gpus.size(), 2u);
  for (const auto& gpu : q.gpus)
    EXPECT_EQ(gpu.describe(), "4g.71gb@0 + 1g.18gb@4 + 1g.18gb@5 + 1g.35gb@6");
  EXPECT_EQ(q.stranded_compute_slices, 0);
  EXPECT_EQ(q.stranded_memory_slices, 0);
}

TEST(SizingQa, MigRowPerfPerDollarAtFullGpu) {
  // Demand needs 2 slices of 1g.18gb (1 GiB replica, user rate 100 req/s per slice):
  // slices = ceil(140 / (100 x 0.7)) = 2. One GPU holds 7 x 1g, so at full load t1.x (1 GPU)
  // serves 7 x 100 = 700 req/s: perf/$ = 700 x 3600 / $10 = 252,000 req/$ (not 2 x 100 x 3600
  // / 10 = 72,000 from the 2 slices asked for).
  auto cj = test_catalog();
  Catalog c = catalog_from_json(gpusizer::JsonInput(cj, "c.json"));
  auto w = base_workload();
  w["memory_bytes_per_replica"] = 1073741824.0;
  w["allowed"] = {"mig"};
  w["measured_rates"] = {{{"accelerator", "TG"},
                          {"mig_profile", "1g.18gb"},
                          {"units_per_second", 100},
                          {"source", "mine"}}};
  auto plan =
      make_plan(demand_from_json(gpusizer::JsonInput(w, "w.json")), CapabilityTable{}, c, {});
  const PlanRow* t1 = nullptr;
  for (const auto& r : plan.rows)
    if (r.instance_type == "t1.x" && r.cost.option == "on_demand") t1 = &r;
  ASSERT_NE(t1, nullptr);
  EXPECT_EQ(t1->mig_slices, 2);
  EXPECT_EQ(t1->cost.instances, 1);
  EXPECT_EQ(t1->replicas_per_instance, 7);
  EXPECT_DOUBLE_EQ(t1->cost.units_per_dollar, 252000.0);
}

TEST(SizingQa, CapacityBlockRoundedUpIsDearerAboveThePriceRatio) {
  // 100 req/s per GPU, 2 instances (ceil(140 / 70)). CB $6/h, OD $10/h: ratio 0.6.
  // 20 days -> 21 billed: CB = 2 x 6 x 21 x 24 = $6,048. Busy 0.62 (> 0.6):
  // OD = 2 x 10 x 20 x 24 x 0.62 = $5,952 < $6,048, so the block is DEARER; the effective
  // break-even is 0.6 x 21 / 20 = 0.63.
  auto cj = test_catalog();
  Catalog c = catalog_from_json(gpusizer::JsonInput(cj, "c.json"));
  auto g = gpu_target("gpu0", "Test GPU");
  auto gemm = record("gemm/bf16", "gemm", "bf16", {"gpu0"}, "throughput", 100e12, "FLOP/s");
  auto table = build_capabilities(
      {load_report_file(save("qa-cb-report.json", report_with({g}, {gemm})))}, c);
  auto w = base_workload();
  w["reservation_window"] = {{"days", 20}, {"busy_fraction", 0.62}};
  auto plan = make_plan(demand_from_json(gpusizer::JsonInput(w, "w.json")), table, c, {});
  const PlanRow* cb = nullptr;
  for (const auto& r : plan.rows)
    if (r.instance_type == "t1.x" && r.cost.option == "capacity_block") cb = &r;
  ASSERT_NE(cb, nullptr);
  EXPECT_DOUBLE_EQ(*cb->cost.break_even_busy_fraction, 0.6);
  EXPECT_DOUBLE_EQ(*cb->cost.window_usd, 6048.0);
  EXPECT_NEAR(*cb->cost.on_demand_window_usd, 5952.0, 1e-9);
  EXPECT_TRUE(has_note(*cb, "it is dearer than on-demand")) << cb->cost.notes.back();
  EXPECT_TRUE(has_note(*cb, "with 21 days billed for 20 days used it is 0.63"));
  EXPECT_EQ(plan.rows.front().cost.option, "on_demand");
}

TEST(SizingQa, MeasuredRateNamesMustBeInTheCatalog) {
  auto cj = test_catalog();
  Catalog c = catalog_from_json(gpusizer::JsonInput(cj, "c.json"));
  auto check = [&](nlohmann::json rate) {
    auto w = base_workload();
    w["measured_rates"] = {rate};
    Demand wl = demand_from_json(gpusizer::JsonInput(w, "w.json"));
    try {
      check_demand_names(wl, c);
    } catch (const gpusizer::InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  std::string e = check({{"accelerator", "TX"}, {"units_per_second", 1}, {"source", "s"}});
  EXPECT_EQ(e.rfind("w.json: /measured_rates/0/accelerator: unknown accelerator \"TX\"", 0), 0u)
      << e;
  e = check(
      {{"accelerator", "TG"}, {"mig_profile", "9g.1tb"}, {"units_per_second", 1}, {"source", "s"}});
  EXPECT_EQ(e.rfind("w.json: /measured_rates/0/mig_profile: TG has no MIG profile \"9g.1tb\"", 0),
            0u)
      << e;
  e = check({{"instance_type", "t9.x"}, {"units_per_second", 1}, {"source", "s"}});
  EXPECT_EQ(e,
            "w.json: /measured_rates/0/instance_type: instance type \"t9.x\" is not in the "
            "catalog");
  EXPECT_EQ(check({{"accelerator", "TG"},
                   {"mig_profile", "1g.18gb"},
                   {"units_per_second", 1},
                   {"source", "s"}}),
            "no error");
}

TEST(SizingQa, CatalogRejectsMigShapesNvidiaDoesNotPlace) {
  auto cj = test_catalog();
  cj["accelerators"][0]["mig_profiles"].push_back(
      {{"name", "5g.99gb"}, {"compute_slices", 5}, {"memory_slices", 6}, {"memory_mib", 1}});
  try {
    catalog_from_json(gpusizer::JsonInput(cj, "c.json"));
    FAIL() << "accepted a 5g/6-slice MIG profile";
  } catch (const gpusizer::InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("c.json: /accelerators/0/mig_profiles/6: ", 0), 0u)
        << e.what();
  }
}

TEST(SizingQa, PlainAnswersWhenNothingQualifies) {
  auto cj = test_catalog();
  Catalog c = catalog_from_json(gpusizer::JsonInput(cj, "c.json"));
  // Memory: each TG type has 81920 MiB (80 GiB) per GPU and no report measured it, so the fit
  // uses 80 - 1.5 GiB CUDA context reserve = 78.5 GiB; t8.x holds 8 x 78.5 = 628 GiB at most.
  auto w = base_workload();
  w["memory_bytes_per_replica"] = 700.0 * 1073741824.0;
  auto plan =
      make_plan(demand_from_json(gpusizer::JsonInput(w, "w.json")), CapabilityTable{}, c, {});
  EXPECT_TRUE(plan.rows.empty());
  EXPECT_TRUE(has_summary(plan,
                          "Nothing fits the memory: a replica needs 700 GiB and the "
                          "largest allowed instance type holds 628 GiB usable (t8.x)"));
  // --max-instances 1 with a user rate of 50 req/s per GPU: t1.x needs ceil(140 / 35) = 4,
  // t2.x ceil(140 / 70) = 2, t8.x ceil(140 / 280) = 1 -> allowed; with t8.x gone (rate only
  // for t1.x/t2.x via instance_type) the fewest is 2 on t2.x.
  auto u = base_workload();
  u.erase("work_per_unit");
  u["measured_rates"] = {{{"instance_type", "t1.x"}, {"units_per_second", 50}, {"source", "s"}},
                         {{"instance_type", "t2.x"}, {"units_per_second", 50}, {"source", "s"}}};
  EngineOptions o;
  o.max_instances = 1;
  auto limited =
      make_plan(demand_from_json(gpusizer::JsonInput(u, "u.json")), CapabilityTable{}, c, o);
  EXPECT_TRUE(limited.rows.empty());
  EXPECT_TRUE(has_summary(limited,
                          "unreachable within --max-instances 1: the fewest instances "
                          "any option needs is 2 (t2.x on_demand)"));
}
