// Whole GPUs measured one at a time and all at once (gpusizer run --gpu-mode both): sizing takes
// each GPU's concurrent figures, keeps the records it shares with other GPUs (collectives), never
// takes an aggregate or a simulated record for a device's figure, and the plan says why.
#include <gtest/gtest.h>

#include <algorithm>

#include "fixtures.hpp"
#include "gpusizer/sizing/engine.hpp"
#include "plan_fixtures.hpp"

using namespace gpusizer::sizing;
using namespace sizing_test;

namespace {

gpusizer::Record concurrent(gpusizer::Record r) {
  r.id += "/mode=concurrent";
  r.concurrency = gpusizer::Concurrency::concurrent;
  return r;
}

// gpu0/gpu1 alone: 100/95 TFLOP/s; loaded together: 80/70 (sum 150, the aggregate).
std::string both_modes_report(bool simulated) {
  auto g0 = gpu_target("gpu0", "Test GPU");
  auto g1 = gpu_target("gpu1", "Test GPU");
  auto alone0 = record("gemm/bf16/gpu0", "gemm", "bf16", {"gpu0"}, "throughput", 100e12, "FLOP/s");
  auto alone1 = record("gemm/bf16/gpu1", "gemm", "bf16", {"gpu1"}, "throughput", 95e12, "FLOP/s");
  auto together0 =
      concurrent(record("gemm/bf16/gpu0", "gemm", "bf16", {"gpu0"}, "throughput", 80e12, "FLOP/s"));
  auto together1 =
      concurrent(record("gemm/bf16/gpu1", "gemm", "bf16", {"gpu1"}, "throughput", 70e12, "FLOP/s"));
  auto aggregate = concurrent(record("gemm/bf16/gpu0+gpu1", "gemm", "bf16", {"gpu0", "gpu1"},
                                     "throughput", 150e12, "FLOP/s"));
  aggregate.flags = {"aggregate"};
  auto ar = record("coll/ar", "collectives", "all_reduce", {"gpu0", "gpu1"}, "busbw", 100e9, "B/s");
  std::vector<gpusizer::Record> records{alone0, alone1, together0, together1, aggregate, ar};
  if (simulated) {
    for (auto& r : records) {
      if (r.concurrency == gpusizer::Concurrency::concurrent) r.flags.push_back("simulated");
    }
  }
  return save(simulated ? "gpus-simulated.json" : "gpus-both-modes.json",
              report_with({g0, g1}, records));
}

}  // namespace

TEST(SizingConcurrentGpus, PrefersTheFiguresOfGpusLoadedTogether) {
  auto cj = test_catalog();
  Catalog c = catalog_from_json(gpusizer::JsonInput(cj, "c.json"));
  auto table = build_capabilities({load_report_file(both_modes_report(false))}, c);
  const auto tg = std::count_if(table.devices.begin(), table.devices.end(),
                                [](const DeviceCapability& d) { return d.accelerator == "TG"; });
  EXPECT_EQ(tg, 1);  // the one-at-a-time figures are dropped
  const DeviceCapability* d = table.gpu("TG");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->mig_mode, gpusizer::Concurrency::concurrent);
  EXPECT_DOUBLE_EQ(d->flops.at("bf16").value, 70e12);  // the slower GPU's, under load
  EXPECT_EQ(d->flops.at("bf16").evidence.record_id, "gemm/bf16/gpu1/mode=concurrent");
  EXPECT_DOUBLE_EQ(d->collectives.at("all_reduce").value, 100e9);  // shared records kept

  // per replica = 70e12 / 1e12 = 70 req/s, and the plan says which figures it used and why.
  auto plan = make_plan(workload(base_workload()), table, c, {});
  const PlanRow* r = row(plan, "t1.x", "on_demand");
  ASSERT_NE(r, nullptr);
  EXPECT_DOUBLE_EQ(r->units_per_second_per_replica, 70.0);
  EXPECT_EQ(r->basis, "measured (reports, all GPUs loaded concurrently)");
  EXPECT_TRUE(std::any_of(r->reasons.begin(), r->reasons.end(), [](const std::string& s) {
    return s.find("every GPU of the machine loaded at once") != std::string::npos;
  }));
}

TEST(SizingConcurrentGpus, SimulatedRecordsAreNoGpusFigures) {
  auto cj = test_catalog();
  Catalog c = catalog_from_json(gpusizer::JsonInput(cj, "c.json"));
  auto table = build_capabilities({load_report_file(both_modes_report(true))}, c);
  const DeviceCapability* d = table.gpu("TG");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->mig_mode,
            gpusizer::Concurrency::not_stated);  // only the one-at-a-time records are real
  EXPECT_DOUBLE_EQ(d->flops.at("bf16").value, 95e12);
}
