// MIG placement (start slots on 8 memory slices, 7 compute slices; reference/mig.md d.2),
// packing onto as few GPUs as possible, stranded slices, and the engine's profile choice.
#include <gtest/gtest.h>

#include "fixtures.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/sizing/engine.hpp"
#include "gpusizer/sizing/mig.hpp"

using namespace gpusizer::sizing;
using namespace sizing_test;

namespace {
const MigProfile k1g{"1g.18gb", 1, 1, 18432};
const MigProfile k1g2x{"1g.35gb", 1, 2, 35840};
const MigProfile k1gme{"1g.18gb+me", 1, 1, 18432};
const MigProfile k2g{"2g.35gb", 2, 2, 35840};
const MigProfile k3g{"3g.71gb", 3, 4, 72704};
const MigProfile k4g{"4g.71gb", 4, 4, 72704};
const MigProfile k7g{"7g.141gb", 7, 8, 144384};
}  // namespace

TEST(SizingMig, ValidMixesOnOneGpu) {
  auto l = place_on_one_gpu({k3g, k4g});  // 4g at 0 (slices 0-3), 3g at 4 (4-7)
  ASSERT_TRUE(l);
  EXPECT_EQ(l->describe(), "4g.71gb@0 + 3g.71gb@4");
  EXPECT_EQ(l->stranded_compute_slices, 0);
  EXPECT_EQ(l->stranded_memory_slices, 0);
  EXPECT_TRUE(place_on_one_gpu({k4g, k2g, k1g}));
  EXPECT_TRUE(place_on_one_gpu({k3g, k2g, k2g}));
  EXPECT_TRUE(place_on_one_gpu({k7g}));
  // 1g.2x + 2g + 4g: 4g@0, then 2g@4 and 1g.2x@6 (its start 6 reaches memory slice 7).
  auto m = place_on_one_gpu({k1g2x, k2g, k4g});
  ASSERT_TRUE(m);
  EXPECT_EQ(m->describe(), "4g.71gb@0 + 2g.35gb@4 + 1g.35gb@6");
}

TEST(SizingMig, ImpossibleMixes) {
  EXPECT_FALSE(place_on_one_gpu({k4g, k4g}));       // 4g starts only at 0
  EXPECT_FALSE(place_on_one_gpu({k3g, k3g, k3g}));  // 3g takes 4 memory slices
  EXPECT_FALSE(place_on_one_gpu({k7g, k1g}));
  EXPECT_FALSE(place_on_one_gpu({k1gme, k1gme}));  // one +me per GPU
  // 8 x 1g: 8 compute slices > 7.
  EXPECT_FALSE(place_on_one_gpu(std::vector<MigProfile>(8, k1g)));
  EXPECT_THROW(place_on_one_gpu({MigProfile{"5g.bad", 5, 5, 1}}), gpusizer::InputError);
}

TEST(SizingMig, StrandedSlices) {
  auto seven = place_on_one_gpu(std::vector<MigProfile>(7, k1g));  // strands memory slice 7
  ASSERT_TRUE(seven);
  EXPECT_EQ(seven->stranded_compute_slices, 0);
  EXPECT_EQ(seven->stranded_memory_slices, 1);
  auto three_2g = place_on_one_gpu({k2g, k2g, k2g});  // 6/7 compute, 6/8 memory
  ASSERT_TRUE(three_2g);
  EXPECT_EQ(three_2g->stranded_compute_slices, 1);
  EXPECT_EQ(three_2g->stranded_memory_slices, 2);
  auto four_2x = place_on_one_gpu(std::vector<MigProfile>(4, k1g2x));  // 4/7 compute, 8/8 memory
  ASSERT_TRUE(four_2x);
  EXPECT_EQ(four_2x->stranded_compute_slices, 3);
  EXPECT_EQ(four_2x->stranded_memory_slices, 0);
}

TEST(SizingMig, PackingUsesFewestGpus) {
  auto three = pack_mig({k3g, k3g, k3g});  // three 3g need two GPUs
  ASSERT_EQ(three.gpus.size(), 2u);
  EXPECT_EQ(three.gpus[0].describe(), "3g.71gb@0 + 3g.71gb@4");
  EXPECT_EQ(three.gpus[1].describe(), "3g.71gb@0");
  // Stranded: GPU0 7-6 = 1 compute, 0 memory; GPU1 7-3 = 4 compute, 8-4 = 4 memory.
  EXPECT_EQ(three.stranded_compute_slices, 5);
  EXPECT_EQ(three.stranded_memory_slices, 4);
  auto mixed = pack_mig({k4g, k4g, k3g, k3g});  // 4g+3g twice
  ASSERT_EQ(mixed.gpus.size(), 2u);
  EXPECT_EQ(mixed.gpus[0].describe(), "4g.71gb@0 + 3g.71gb@4");
  EXPECT_EQ(mixed.stranded_compute_slices, 0);
  auto ones = pack_mig(std::vector<MigProfile>(9, k1g));  // 7 + 2
  ASSERT_EQ(ones.gpus.size(), 2u);
  EXPECT_EQ(ones.gpus[1].placements.size(), 2u);
  auto cfg = mig_parted_config(mixed, "plan");
  EXPECT_EQ(cfg["mig-configs"]["plan"][1]["mig-devices"]["4g.71gb"], 1);
  EXPECT_EQ(cfg["mig-configs"]["plan"][1]["devices"][0], 1);
}

TEST(SizingMig, EngineChoosesSmallestProfileAndPacks) {
  auto cj = test_catalog();
  Catalog c = catalog_from_json(gpusizer::JsonInput(cj, "c.json"));
  // 25 GiB per replica: 1g.18gb too small; 1g.35gb holds it. User-measured: 30 req/s per
  // 1g.35gb slice. Slices = ceil(140 / (30 x 0.7 = 21)) = ceil(6.67) = 7, + k 1 = 8.
  auto w = mig_workload_json(140);
  Demand wl = demand_from_json(gpusizer::JsonInput(w, "w.json"));
  std::string why;
  auto choice = choose_mig_profile(wl, c.accelerators[0], CapabilityTable{}, why);
  ASSERT_TRUE(choice) << why;
  EXPECT_EQ(choice->profile.name, "1g.35gb");
  EXPECT_EQ(choice->slices, 8);
  auto plan = make_plan(wl, CapabilityTable{}, c, {});
  // 8 x 1g.35gb: 4 per GPU (memory slices 0,2,4,6) -> 2 GPUs.
  // t1.x (1 GPU): 2 instances x $10 = $20/h; t2.x (2 GPUs): 1 x $20; t8.x: 1 x $80.
  const PlanRow* t1 = nullptr;
  for (const auto& r : plan.rows) {
    if (r.instance_type == "t1.x" && r.cost.option == "on_demand") t1 = &r;
  }
  ASSERT_NE(t1, nullptr);
  ASSERT_TRUE(t1->mig);
  EXPECT_EQ(t1->mig->gpus.size(), 2u);
  EXPECT_EQ(t1->cost.instances, 2);
  EXPECT_DOUBLE_EQ(t1->cost.usd_per_hour, 20.0);
  EXPECT_EQ(t1->mig->gpus[0].describe(), "1g.35gb@0 + 1g.35gb@2 + 1g.35gb@4 + 1g.35gb@6");
  EXPECT_EQ(t1->mig->stranded_compute_slices, 6);  // 2 GPUs x (7 - 4)
  // t8.x: the 2 packed GPUs fit one 8-GPU instance; the other 6 GPUs are paid for but unused.
  const PlanRow* t8 = nullptr;
  for (const auto& r : plan.rows) {
    if (r.instance_type == "t8.x" && r.cost.option == "on_demand" && r.mig) t8 = &r;
  }
  ASSERT_NE(t8, nullptr);
  bool said = false;
  for (const auto& reason : t8->reasons) {
    said = said || reason.rfind("6 of the 8 GPUs are not used by this workload", 0) == 0;
  }
  EXPECT_TRUE(said);
  for (const auto& reason : t1->reasons) {
    EXPECT_EQ(reason.find("are not used by this workload"), std::string::npos) << reason;
  }
}

TEST(SizingMig, SaysSoWhenThePackingIsNotProvenOptimal) {
  // 4 x 2g + 2 x 3g: first fit needs 3 GPUs, the exact search finds 2 (2g@0 + 2g@2 + 3g@4,
  // twice) within its budget: proven, no note.
  std::vector<MigProfile> small{k2g, k2g, k2g, k2g, k3g, k3g};
  MigPacking proven = pack_mig(small);
  EXPECT_EQ(proven.gpus.size(), 2u);
  EXPECT_TRUE(proven.search_note.empty());
  // A mix too large for the exact search (38 x 1g + 55 x 1g.2x + 124 x 3g): the state budget
  // runs out and the plan says first-fit was kept, with the lower bound. Slice totals: compute
  // 38 + 55 + 372 = 465 -> ceil(465/7) = 67; memory 38 + 110 + 496 = 644 -> ceil(644/8) = 81.
  std::vector<MigProfile> big;
  big.insert(big.end(), 38, k1g);
  big.insert(big.end(), 55, k1g2x);
  big.insert(big.end(), 124, k3g);
  MigPacking packing = pack_mig(big);
  EXPECT_EQ(packing.lower_bound_gpus, 81);
  if (static_cast<int>(packing.gpus.size()) > packing.lower_bound_gpus) {
    EXPECT_NE(packing.search_note.find("first-fit packing kept"), std::string::npos)
        << packing.search_note;
    EXPECT_NE(packing.search_note.find("at least 81"), std::string::npos);
  } else {
    EXPECT_TRUE(packing.search_note.empty());  // at the bound: optimal, nothing to say
  }
}

TEST(SizingMig, SliceNamedLikeCudaAndNvmlNameItMapsToItsModel) {
  // CUDA and NVML name a slice "<model> MIG <profile>"; a child-process report carries the slice
  // but not always its parent GPU target. Both must resolve to the catalog's "Test GPU" (TG).
  auto cj = test_catalog();
  Catalog c = catalog_from_json(gpusizer::JsonInput(cj, "c.json"));
  gpusizer::Target slice = mig_target("gpu0/mig-1g.18gb-gi7-ci0", "Test GPU", "1g.18gb", "gpu0");
  auto gemm = record("gemm/bf16/gpu0/mig-1g.18gb-gi7-ci0", "gemm", "bf16", {slice.id}, "throughput",
                     20e12, "FLOP/s");
  gemm.concurrency = gpusizer::Concurrency::concurrent;
  auto path = save("mig-slice-only.json", report_with({slice}, {gemm}));
  auto table = build_capabilities({load_report_file(path)}, c);
  EXPECT_TRUE(table.warnings.empty()) << table.warnings.front();
  const DeviceCapability* d = table.mig("TG", "1g.18gb");
  ASSERT_NE(d, nullptr);
  EXPECT_DOUBLE_EQ(d->flops.at("bf16").value, 20e12);
}
