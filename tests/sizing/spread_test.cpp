// Plans with error bars: the p5/p95 of each measured rate's samples, carried through the
// roofline to each option's rate, count, cost and perf/$, the count note, and the ties of the
// ranking. Every expected figure is worked out by hand in the comments (numpy "linear"
// percentiles: index = p x (n - 1) into the sorted values, interpolated).
#include <algorithm>
#include <sstream>

#include <gtest/gtest.h>

#include "fixtures.hpp"
#include "gpusizer/sizing/engine.hpp"
#include "gpusizer/sizing/plan_print.hpp"
#include "gpusizer/stats.hpp"
#include "plan_fixtures.hpp"

using namespace gpusizer::sizing;
using namespace sizing_test;

namespace {

gpusizer::Record timed(gpusizer::Record r, std::vector<double> seconds) {
  gpusizer::Timing t;
  t.timer = gpusizer::Timer::cuda_events;
  t.cache_mode = gpusizer::CacheMode::hot;
  t.samples_seconds = seconds;
  t.seconds_per_op = gpusizer::summarize(seconds);
  for (double s : seconds) t.measured_seconds += s;
  t.stop_reason = "converged";
  r.timing = t;
  return r;
}

// The test catalog plus "TH" (report name "Other GPU", TG's peaks) on h1.x: 1 GPU at $7/h.
Catalog tie_catalog() {
  auto j = test_catalog();
  auto th = j["accelerators"][0];
  th["id"] = "TH";
  th["report_names"] = {"Other GPU"};
  th.erase("mig_profiles");
  j["accelerators"].push_back(th);
  auto h1 = j["instances"][0];
  h1["type"] = "h1.x";
  h1["family"] = "h1";
  h1["accelerator"] = "TH";
  h1["prices"] = {
      {"on_demand", {{"usd_per_hour", 7}, {"source", "test"}, {"as_of", "2026-01-01"}}}};
  j["instances"].push_back(h1);
  return catalog(j);
}

// gpu0 "Test GPU": bf16 GEMM 100 TFLOP/s from `tg_seconds`; gpu1 "Other GPU": bf16 GEMM
// 90 TFLOP/s from three equal samples (no spread).
CapabilityTable table_with(const Catalog& c, const std::vector<double>& tg_seconds,
                           const std::string& name) {
  auto tg =
      timed(record("gemm/bf16/gpu0", "gemm", "bf16", {"gpu0"}, "throughput", 100e12, "FLOP/s"),
            tg_seconds);
  auto th = timed(record("gemm/bf16/gpu1", "gemm", "bf16", {"gpu1"}, "throughput", 90e12, "FLOP/s"),
                  {0.002, 0.002, 0.002});
  auto path = save(
      name,
      report_with({gpu_target("gpu0", "Test GPU"), gpu_target("gpu1", "Other GPU")}, {tg, th}));
  return build_capabilities({load_report_file(path)}, c);
}

// Per-op seconds 0.8, 1.0, 1.0, 1.0, 1.25 (ms): median 1.0, so the per-sample rates are
// 100 x 1.0 / t = 125, 100, 100, 100, 80 TFLOP/s; sorted 80, 100, 100, 100, 125.
// p5: index 0.05 x 4 = 0.2 -> 80 + 0.2 x (100 - 80) = 84; p95: index 3.8 -> 100 + 0.8 x 25 = 120.
const std::vector<double> kNoisy = {0.001, 0.0008, 0.00125, 0.001, 0.001};

std::size_t rank_of(const Plan& p, const std::string& type) {
  for (std::size_t i = 0; i < p.rows.size(); ++i) {
    if (p.rows[i].instance_type == type && p.rows[i].cost.option == "on_demand") return i + 1;
  }
  return 0;
}

bool has_note(const OptionCost& c, const std::string& text) {
  return std::any_of(c.notes.begin(), c.notes.end(),
                     [&](const std::string& n) { return n.find(text) != std::string::npos; });
}

}  // namespace

TEST(SizingSpread, RecordSamplesGiveP5AndP95OfThePerSampleRates) {
  auto c = tie_catalog();
  auto table = table_with(c, kNoisy, "spread-noisy.json");
  const auto& tg = table.gpu("TG")->flops.at("bf16");
  ASSERT_TRUE(tg.spread.has_value());
  EXPECT_NEAR(tg.spread->p5, 84e12, 1e3);
  EXPECT_NEAR(tg.spread->p95, 120e12, 1e3);
  EXPECT_EQ(tg.spread->samples, 5u);
  // Equal samples: every per-sample rate is the headline, a zero-width range.
  const auto& th = table.gpu("TH")->flops.at("bf16");
  ASSERT_TRUE(th.spread.has_value());
  EXPECT_DOUBLE_EQ(th.spread->p5, 90e12);
  EXPECT_DOUBLE_EQ(th.spread->p95, 90e12);
}

TEST(SizingSpread, OneSampleOrNoTimingHasNoSpread) {
  auto c = tie_catalog();
  auto one = timed(
      record("gemm/bf16/gpu0", "gemm", "bf16", {"gpu0"}, "throughput", 100e12, "FLOP/s"), {0.001});
  auto none = record("gemm/bf16/gpu1", "gemm", "bf16", {"gpu1"}, "throughput", 90e12, "FLOP/s");
  auto path = save(
      "spread-none.json",
      report_with({gpu_target("gpu0", "Test GPU"), gpu_target("gpu1", "Other GPU")}, {one, none}));
  auto table = build_capabilities({load_report_file(path)}, c);
  EXPECT_FALSE(table.gpu("TG")->flops.at("bf16").spread.has_value());
  EXPECT_FALSE(table.gpu("TH")->flops.at("bf16").spread.has_value());
  // The plan still carries a (zero-width) range and says a rate had no samples.
  auto plan = make_plan(workload(base_workload()), table, c, {});
  const PlanRow* r = row(plan, "t1.x", "on_demand");
  ASSERT_NE(r, nullptr);
  ASSERT_TRUE(r->spread.available);
  EXPECT_EQ(r->spread.min_samples, 0u);
  EXPECT_DOUBLE_EQ(r->spread.units_per_second_per_replica.low, 100.0);
  EXPECT_DOUBLE_EQ(r->spread.units_per_second_per_replica.high, 100.0);
}

TEST(SizingSpread, NoisyRatesGiveCountCostAndPerDollarRangesAndTheCountNote) {
  auto c = tie_catalog();
  auto plan =
      make_plan(workload(base_workload()), table_with(c, kNoisy, "spread-noisy.json"), c, {});
  // Demand: 1e12 FLOP per req, 140 req/s at utilization 0.7; compute binds, so per replica
  // 84e12 / 1e12 = 84, 100 and 120 req/s (p5 / point / p95).
  const PlanRow* t1 = row(plan, "t1.x", "on_demand");
  ASSERT_NE(t1, nullptr);
  ASSERT_TRUE(t1->spread.available);
  EXPECT_NEAR(t1->spread.units_per_second_per_replica.low, 84.0, 1e-9);
  EXPECT_NEAR(t1->spread.units_per_second_per_replica.high, 120.0, 1e-9);
  EXPECT_EQ(t1->spread.min_samples, 5u);
  // t1.x (1 GPU, $10/h): ceil(140 / (100 x 0.7)) = 2; at p5 ceil(140 / 58.8 = 2.38) = 3; at p95
  // ceil(140 / 84 = 1.67) = 2.
  EXPECT_EQ(t1->cost.instances, 2);
  EXPECT_EQ(t1->spread.instances_at_low_rate, 3);
  EXPECT_EQ(t1->spread.instances_at_high_rate, 2);
  EXPECT_TRUE(has_note(t1->cost,
                       "2 instances; 3 if the rate is at the low end of what was "
                       "measured (p5)"));
  // The same note on the spread, for the plan page.
  EXPECT_EQ(t1->spread.count_note,
            "2 instances; 3 if the rate is at the low end of what was measured (p5)");
  // $/month: 2 x 10 x 730 = 14600 at p95, 3 x 10 x 730 = 21900 at p5.
  EXPECT_DOUBLE_EQ(t1->spread.usd_per_month.low, 14600.0);
  EXPECT_DOUBLE_EQ(t1->spread.usd_per_month.high, 21900.0);
  // perf/$: rate x 3600 / $10: 84 x 360 = 30240 to 120 x 360 = 43200.
  EXPECT_NEAR(t1->spread.units_per_dollar.low, 30240.0, 1e-6);
  EXPECT_NEAR(t1->spread.units_per_dollar.high, 43200.0, 1e-6);
  // t2.x (2 GPUs, $20/h): replicas 2 -> 1 instance; at p5 3 replicas -> 2 instances ($29200).
  const PlanRow* t2 = row(plan, "t2.x", "on_demand");
  EXPECT_EQ(t2->spread.instances_at_low_rate, 2);
  EXPECT_TRUE(has_note(t2->cost, "1 instance; 2 if the rate is at the low end"));
  EXPECT_DOUBLE_EQ(t2->spread.usd_per_month.high, 29200.0);
  // t8.x holds 8 replicas: 1 instance at both ends, no note.
  const PlanRow* t8 = row(plan, "t8.x", "on_demand");
  EXPECT_EQ(t8->spread.instances_at_low_rate, 1);
  EXPECT_DOUBLE_EQ(t8->spread.usd_per_month.width(), 0.0);
  EXPECT_FALSE(has_note(t8->cost, "low end"));
  EXPECT_EQ(t8->spread.count_note, "");
  // Estimated (EG, never measured): no spread is invented.
  const PlanRow* e1 = row(plan, "e1.x", "on_demand");
  ASSERT_NE(e1, nullptr);
  EXPECT_FALSE(e1->spread.available);
  EXPECT_NE(e1->spread.why_not.find("estimated"), std::string::npos);
}

TEST(SizingSpread, OverlappingCostRangesTieAndTheySaySo) {
  auto c = tie_catalog();
  auto plan =
      make_plan(workload(base_workload()), table_with(c, kNoisy, "spread-noisy.json"), c, {});
  // Ranking: t1.x $14600 (#1), t2.x $14600 (#2, by name), h1.x 3 x 7 x 730 = $15330 (#3: 90
  // req/s, ceil(140 / 63 = 2.22) = 3, no spread), t8.x $58400 (#4), e1.x (estimated, last).
  ASSERT_EQ(rank_of(plan, "t1.x"), 1u);
  ASSERT_EQ(rank_of(plan, "t2.x"), 2u);
  ASSERT_EQ(rank_of(plan, "h1.x"), 3u);
  ASSERT_EQ(rank_of(plan, "t8.x"), 4u);
  // h1.x's $15330 lies in t1.x's [14600, 21900] and t2.x's [14600, 29200]: ties. t1.x and t2.x
  // rest on the same record: t1.x is never dearer (14600 = 14600 at the point and p95, 21900 <
  // 29200 at p5), so no tie; t8.x is dearer at both ends of everything; h1.x and t8.x are both
  // zero-width.
  EXPECT_EQ(plan.rows[0].spread.indistinguishable_from, (std::vector<int>{3}));
  EXPECT_EQ(plan.rows[1].spread.indistinguishable_from, (std::vector<int>{3}));
  EXPECT_EQ(plan.rows[2].spread.indistinguishable_from, (std::vector<int>{1, 2}));
  EXPECT_TRUE(plan.rows[3].spread.indistinguishable_from.empty());
  EXPECT_DOUBLE_EQ(plan.rows[2].spread.usd_per_month.width(), 0.0);
  const std::string& last = plan.summary.back();
  EXPECT_NE(last.find("indistinguishable within the measurement"), std::string::npos) << last;
  EXPECT_NE(last.find("#3 h1.x on_demand"), std::string::npos) << last;

  // The text plan shows the ranges, the count note and the tie.
  std::ostringstream text;
  print_plan(plan, text, false);
  const std::string out = text.str();
  EXPECT_NE(out.find("Measurement spread (p5-p95 of the samples)"), std::string::npos);
  EXPECT_NE(out.find("#1 t1.x on_demand: 84-120 req/s per replica, 2 instance(s) (3 at p5, 2 at "
                     "p95), $14,600.00-$21,900.00/month, perf/$ 30,240-43,200 req/$"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("indistinguishable within the measurement from #3"), std::string::npos);
  EXPECT_NE(out.find("2 instances; 3 if the rate is at the low end of what was measured (p5)"),
            std::string::npos);
  EXPECT_NE(out.find("#5: no measured spread (estimated"), std::string::npos) << out;

  // JSON carries the same ranges.
  const auto j = to_json(plan)["options"][0]["measurement_spread"];
  EXPECT_EQ(j["available"], true);
  EXPECT_EQ(j["instances"]["at_low_rate"], 3);
  EXPECT_DOUBLE_EQ(j["usd_per_month"]["high"].get<double>(), 21900.0);
  EXPECT_EQ(j["indistinguishable_from"], nlohmann::json::array({3}));
  EXPECT_EQ(to_json(plan)["options"][4]["measurement_spread"]["available"], false);
}

TEST(SizingSpread, NoiselessInputGivesZeroWidthRangesAndNoTie) {
  auto c = tie_catalog();
  auto plan = make_plan(workload(base_workload()),
                        table_with(c, {0.001, 0.001, 0.001, 0.001}, "spread-exact.json"), c, {});
  for (const auto& r : plan.rows) {
    if (!r.spread.available) continue;
    EXPECT_DOUBLE_EQ(r.spread.units_per_second_per_replica.width(), 0.0) << r.instance_type;
    EXPECT_DOUBLE_EQ(r.spread.rank_usd.width(), 0.0) << r.instance_type;
    EXPECT_TRUE(r.spread.indistinguishable_from.empty()) << r.instance_type;
    EXPECT_FALSE(has_note(r.cost, "low end")) << r.instance_type;
  }
  const PlanRow* t1 = row(plan, "t1.x", "on_demand");
  EXPECT_DOUBLE_EQ(t1->spread.usd_per_month.low, 14600.0);
  EXPECT_DOUBLE_EQ(t1->spread.usd_per_month.high, 14600.0);
  EXPECT_EQ(plan.summary.back().find("indistinguishable"), std::string::npos);
}

TEST(SizingSpread, UserMeasuredRateHasNoMeasuredSpread) {
  auto c = tie_catalog();
  auto w = base_workload();
  w["measured_rates"] = {{{"accelerator", "TG"}, {"units_per_second", 100}, {"source", "mine"}}};
  auto plan = make_plan(workload(w), table_with(c, kNoisy, "spread-noisy.json"), c, {});
  const PlanRow* t1 = row(plan, "t1.x", "on_demand");
  ASSERT_NE(t1, nullptr);
  EXPECT_FALSE(t1->spread.available);
  EXPECT_NE(t1->spread.why_not.find("user-measured rate"), std::string::npos);
  EXPECT_EQ(to_json(plan)["options"][0]["measurement_spread"]["available"], false);
}

TEST(SizingSpread, MigSlicesCarryTheSpreadOfTheirRecords) {
  auto c = tie_catalog();
  auto parent = gpu_target("gpu0", "Test GPU");
  auto slice = mig_target("gpu0/mig0", "Test GPU", "1g.35gb", "gpu0");
  slice.memory_bytes = 33ull << 30;
  auto rec =
      timed(record("gemm/bf16/mig0", "gemm", "bf16", {"gpu0/mig0"}, "throughput", 100e12, "FLOP/s"),
            kNoisy);
  rec.concurrency = gpusizer::Concurrency::isolated;
  auto path = save("spread-mig.json", report_with({parent, slice}, {rec}));
  auto table = build_capabilities({load_report_file(path)}, c);
  auto w = mig_workload_json();
  w.erase("measured_rates");
  auto plan = make_plan(workload(w), table, c, {});
  ASSERT_FALSE(plan.rows.empty());
  const PlanRow& r = plan.rows.front();
  ASSERT_EQ(r.mig_profile, std::optional<std::string>("1g.35gb"));
  // Slices: ceil(140 / (100 x 0.7)) + 1 = 3 (at p95: ceil(1.67) + 1 = 3; at p5: ceil(2.38) + 1
  // = 4); one GPU holds 4 x 1g.35gb (2 of 8 memory slices each): 1 instance of t1.x at both ends.
  ASSERT_TRUE(r.spread.available);
  EXPECT_NEAR(r.spread.units_per_second_per_replica.low, 84.0, 1e-9);
  EXPECT_NEAR(r.spread.units_per_second_per_replica.high, 120.0, 1e-9);
  EXPECT_EQ(r.spread.instances_at_low_rate, r.cost.instances);
}
