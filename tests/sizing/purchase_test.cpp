// Reservation options: capacity block priced for the whole window, break-even busy fraction,
// and the capacity-block rules (durations, block sizes).
#include <gtest/gtest.h>

#include "fixtures.hpp"
#include "gpusizer/sizing/engine.hpp"

using namespace gpusizer::sizing;
using namespace sizing_test;

namespace {

Plan plan_for(double busy_fraction, int days) {
  auto cj = test_catalog();
  Catalog c = catalog_from_json(gpusizer::JsonInput(cj, "c.json"));
  auto g = gpu_target("gpu0", "Test GPU");
  auto gemm = record("gemm/bf16", "gemm", "bf16", {"gpu0"}, "throughput", 100e12, "FLOP/s");
  auto table =
      build_capabilities({load_report_file(save("cb-report.json", report_with({g}, {gemm})))}, c);
  auto w = base_workload();
  w["reservation_window"] = {{"days", days}, {"busy_fraction", busy_fraction}};
  return make_plan(demand_from_json(gpusizer::JsonInput(w, "w.json")), table, c, {});
}

const PlanRow* row(const Plan& p, const std::string& option) {
  for (const auto& r : p.rows) {
    if (r.instance_type == "t1.x" && r.cost.option == option) return &r;
  }
  return nullptr;
}

}  // namespace

TEST(SizingPurchase, CapacityBlockCheaperAboveBreakEven) {
  // 100 req/s per GPU; instances = ceil(140 / 70) = 2.
  // CB $6/h vs OD $10/h: break-even = 6 / 10 = 0.6.
  // 7 days, busy 0.8: CB = 2 x 6 x 168 h = $2,016; OD = 2 x 10 x 168 x 0.8 = $2,688 -> CB wins.
  Plan p = plan_for(0.8, 7);
  const PlanRow* cb = row(p, "capacity_block");
  const PlanRow* od = row(p, "on_demand");
  ASSERT_NE(cb, nullptr);
  ASSERT_NE(od, nullptr);
  EXPECT_EQ(cb->cost.instances, 2);
  EXPECT_DOUBLE_EQ(*cb->cost.break_even_busy_fraction, 0.6);
  EXPECT_DOUBLE_EQ(*cb->cost.window_usd, 2016.0);
  EXPECT_NEAR(*od->cost.window_usd, 2688.0, 1e-9);
  EXPECT_NEAR(*cb->cost.on_demand_window_usd, 2688.0, 1e-9);
  EXPECT_EQ(p.rows.front().cost.option, "capacity_block");
  // On-demand monthly uses 730 h x busy 0.8 = 584 h: 2 x 10 x 584 = $11,680.
  EXPECT_NEAR(od->cost.usd_per_month, 11680.0, 1e-9);
}

TEST(SizingPurchase, CapacityBlockDearerBelowBreakEven) {
  // busy 0.5: OD = 2 x 10 x 168 x 0.5 = $1,680 < CB $2,016 -> on-demand ranks first.
  Plan p = plan_for(0.5, 7);
  EXPECT_EQ(p.rows.front().cost.option, "on_demand");
  EXPECT_NEAR(*row(p, "on_demand")->cost.window_usd, 1680.0, 1e-9);
  EXPECT_DOUBLE_EQ(*row(p, "capacity_block")->cost.window_usd, 2016.0);
  bool dearer = false;
  for (const auto& n : row(p, "capacity_block")->cost.notes)
    dearer = dearer || n.find("dearer") != std::string::npos;
  EXPECT_TRUE(dearer);
}

TEST(SizingPurchase, CapacityBlockDurationRounding) {
  // 20 days > 14: 7-day steps -> 21 days billed: 2 x 6 x 21 x 24 = $6,048.
  Plan p = plan_for(1.0, 20);
  const PlanRow* cb = row(p, "capacity_block");
  ASSERT_NE(cb, nullptr);
  EXPECT_EQ(*cb->cost.billed_days, 21);
  EXPECT_DOUBLE_EQ(*cb->cost.window_usd, 6048.0);
  EXPECT_EQ(capacity_block_days(14), 14);
  EXPECT_EQ(capacity_block_days(15), 21);
  EXPECT_EQ(capacity_block_days(182), 182);
  EXPECT_EQ(capacity_block_days(183), std::nullopt);
}

TEST(SizingPurchase, CapacityBlockSizes) {
  EXPECT_EQ(capacity_block_split(3), (std::vector<int>{2, 1}));
  EXPECT_EQ(capacity_block_split(64), (std::vector<int>{64}));
  EXPECT_EQ(capacity_block_split(100), (std::vector<int>{64, 32, 4}));
  EXPECT_EQ(capacity_block_split(256), (std::vector<int>{64, 64, 64, 64}));
  EXPECT_TRUE(capacity_block_split(257).empty());
}
