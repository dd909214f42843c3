// Issue 11: replicas that span instances. A 64-GPU training replica on p5.48xlarge (8 x H100)
// spans ceil(64 / 8) = 8 instances; its collective term comes from the inter-node busbw of a
// multi-node (fleet) report, or, without one, from the catalog's network bandwidth x a stated
// efficiency, labelled estimated. Every expected figure is computed by hand next to it.
#include <gtest/gtest.h>

#include "fixtures.hpp"
#include "gpusizer/fleet.hpp"
#include "gpusizer/sizing/engine.hpp"
#include "plan_fixtures.hpp"

using namespace gpusizer::sizing;
using namespace sizing_test;

namespace {

const Catalog& shipped() {
  static const Catalog c = load_catalog(GPUSIZER_SOURCE_DIR "/data/catalog/aws-us-east-1.json");
  return c;
}

// Two p5 hosts merged into one fleet report: bf16 GEMM 600 TFLOP/s per GPU, all_reduce busbw
// 360 GB/s inside a host and `inter_busbw` between the hosts (0: not measured).
CapabilityTable fleet_table(double inter_busbw, const std::string& name) {
  std::vector<std::pair<std::string, gpusizer::Report>> hosts;
  for (const char* h : {"ip-a", "ip-b"}) {
    auto rep = report_with(
        {gpu_target("gpu0", "NVIDIA H100 80GB HBM3"), gpu_target("gpu1", "NVIDIA H100 80GB HBM3")},
        {record("gemm/bf16/gpu0", "gemm", "bf16", {"gpu0"}, "throughput", 600e12, "FLOP/s"),
         record("gemm/bf16/gpu1", "gemm", "bf16", {"gpu1"}, "throughput", 600e12, "FLOP/s"),
         record("collectives/all_reduce/gpu0+gpu1/bytes=1", "collectives", "all_reduce",
                {"gpu0", "gpu1"}, "busbw", 360e9, "B/s")});
    rep.host.hostname = h;
    rep.host.instance_type = gpusizer::InstanceType{"p5.48xlarge", "--instance-type"};
    hosts.emplace_back(std::string(h) + ".json", rep);
  }
  gpusizer::Report fleet = gpusizer::merge_reports(hosts);
  if (inter_busbw > 0) {
    fleet.records.push_back(record("collectives/all_reduce/ip-a:gpu0+ip-b:gpu0/bytes=1",
                                   "collectives", "all_reduce", {"ip-a:gpu0", "ip-b:gpu0"}, "busbw",
                                   inter_busbw, "B/s"));
  }
  return build_capabilities({load_report_file(save(name, fleet))}, shipped());
}

// 4.2e11 FLOP and 1.4e5 B of all_reduce per token, 400 000 tokens/s, 64 GPUs per replica.
nlohmann::json training(int gpus) {
  return {{"schema_version", 1},
          {"kind", "gpusizer.workload"},
          {"name", "64-gpu-training"},
          {"target_rate", {{"value", 400000}, {"unit", "tokens"}}},
          {"work_per_unit",
           {{"flops", 4.2e11},
            {"dtype", "bf16"},
            {"collective_bytes", 1.4e5},
            {"collective_operation", "all_reduce"}}},
          {"memory_bytes_per_replica", 1e9},
          {"gpus_per_replica", gpus},
          {"utilization_target", 0.9},
          {"interruptions", "not_tolerable"},
          {"allowed", {"gpu"}}};
}

bool has(const std::vector<std::string>& lines, const std::string& text) {
  for (const auto& l : lines)
    if (l.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST(SizingSpan, SixtyFourGpusOnP5SpanEightInstancesAndTheNetworkBinds) {
  // Inter-node busbw chosen 10 GB/s. Per token: compute 4.2e11 / (600e12 x 64) = 1.09375e-5 s;
  // intra-node 1.4e5 / 360e9 = 3.889e-7 s; inter-node 1.4e5 / 10e9 = 1.4e-5 s: the network
  // binds, 1 / 1.4e-5 = 71428.57 tokens/s per replica. Replicas: ceil(400000 / (71428.57 x 0.9))
  // = ceil(6.222) = 7, x 8 instances = 56 instances.
  auto plan =
      make_plan(workload(training(64)), fleet_table(10e9, "span-measured.json"), shipped(), {});
  const PlanRow* p5 = row(plan, "p5.48xlarge", "on_demand");
  ASSERT_NE(p5, nullptr);
  EXPECT_EQ(p5->gpus_per_replica, 64);
  EXPECT_EQ(p5->instances_per_replica, 8);
  EXPECT_EQ(p5->replicas_per_instance, 0);
  EXPECT_EQ(p5->binding, "collectives (inter-node)");
  EXPECT_EQ(p5->label, gpusizer::PlanLabel::measured);
  EXPECT_NEAR(p5->units_per_second_per_replica, 1e10 / 1.4e5, 1e-6);
  EXPECT_NEAR(p5->units_per_second_per_instance, 1e10 / 1.4e5 / 8, 1e-6);
  EXPECT_EQ(p5->cost.needed_replicas, 7);
  EXPECT_EQ(p5->cost.instances, 56);
  // 56 x 8 GPUs = 448, 7 replicas x 64 = 448: nothing spare.
  EXPECT_EQ(p5->cost.spare_accelerators, 0);
  EXPECT_TRUE(has(p5->reasons,
                  "a replica spans 8 instances: ceil(64 accelerators / 8 per "
                  "p5.48xlarge)"));
  EXPECT_TRUE(has(p5->reasons, "binding term: collectives (inter-node)"));
  bool inter_evidence = false;
  for (const auto& e : p5->evidence)
    inter_evidence |= e.record_id == "collectives/all_reduce/ip-a:gpu0+ip-b:gpu0/bytes=1";
  EXPECT_TRUE(inter_evidence) << "the inter-node record is not in the evidence";
}

TEST(SizingSpan, FastNetworkLeavesComputeBindingAndEightGpusStayOnOneInstance) {
  // Inter-node 200 GB/s: 1.4e5 / 200e9 = 7e-7 s < compute 1.09375e-5 s: compute binds,
  // 1 / 1.09375e-5 = 91428.57 tokens/s; ceil(400000 / (91428.57 x 0.9)) = ceil(4.861) = 5
  // replicas x 8 = 40 instances.
  auto table = fleet_table(200e9, "span-fast.json");
  auto plan = make_plan(workload(training(64)), table, shipped(), {});
  const PlanRow* p5 = row(plan, "p5.48xlarge", "on_demand");
  ASSERT_NE(p5, nullptr);
  EXPECT_EQ(p5->binding, "compute");
  EXPECT_NEAR(p5->units_per_second_per_replica, 1.0 / 1.09375e-5, 1e-6);
  EXPECT_EQ(p5->cost.instances, 40);
  // 8 GPUs fit one p5: no span, the intra-node collectives term is the old "collectives".
  auto one = make_plan(workload(training(8)), table, shipped(), {});
  const PlanRow* single = row(one, "p5.48xlarge", "on_demand");
  ASSERT_NE(single, nullptr);
  EXPECT_EQ(single->instances_per_replica, 1);
  EXPECT_EQ(single->replicas_per_instance, 1);
}

TEST(SizingSpan, WithoutAMultiNodeReportTheNetworkIsEstimatedAndSaysSo) {
  // p5.48xlarge: 3 200 000 Mbps = 4e11 B/s x 0.6 (stated default) = 2.4e11 B/s:
  // 1.4e5 / 2.4e11 = 5.833e-7 s; compute 1.09375e-5 s binds; the row is estimated.
  auto plan =
      make_plan(workload(training(64)), fleet_table(0, "span-estimated.json"), shipped(), {});
  const PlanRow* p5 = row(plan, "p5.48xlarge", "on_demand");
  ASSERT_NE(p5, nullptr);
  EXPECT_EQ(p5->instances_per_replica, 8);
  EXPECT_TRUE(p5->estimated);
  EXPECT_EQ(p5->label, gpusizer::PlanLabel::estimated);
  EXPECT_NE(p5->basis.find("collectives (inter-node): no multi-node report measured all_reduce; "
                           "network 400.0 GB/s (catalog) x efficiency 0.6 (stated default)"),
            std::string::npos)
      << p5->basis;
  // With a slow estimate (efficiency 0.01: 4e9 B/s), the network binds: 1.4e5 / 4e9 = 3.5e-5 s.
  EngineOptions slow;
  slow.default_efficiency.inter_node_collectives = 0.01;
  auto slow_plan =
      make_plan(workload(training(64)), fleet_table(0, "span-slow.json"), shipped(), slow);
  const PlanRow* s = row(slow_plan, "p5.48xlarge", "on_demand");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->binding, "collectives (inter-node)");
  EXPECT_NEAR(s->units_per_second_per_replica, 4e9 / 1.4e5, 1e-6);
}

TEST(SizingSpan, CapacityBlocksCoverTheWholeClusterAndKeepReplicasInOneBlock) {
  // 14-day window: the capacity block is priced for all 56 instances (7 replicas x 8).
  auto w = training(64);
  w["reservation_window"] = {{"days", 14}, {"busy_fraction", 0.9}};
  auto plan = make_plan(workload(w), fleet_table(10e9, "span-cb.json"), shipped(), {});
  const PlanRow* cb = row(plan, "p5.48xlarge", "capacity_block");
  ASSERT_NE(cb, nullptr);
  EXPECT_EQ(cb->cost.instances, 56);
  int blocked = 0;
  for (int b : cb->cost.blocks) blocked += b;
  EXPECT_EQ(blocked, 56);
  EXPECT_TRUE(has(cb->cost.notes,
                  "capacity block: the whole cluster of 56 instances is reserved; "
                  "each replica spans 8 of them"));
  // 65 instances per replica: no capacity block holds one replica.
  auto huge = training(8 * 65);
  huge["reservation_window"] = {{"days", 14}, {"busy_fraction", 0.9}};
  auto no_cb = make_plan(workload(huge), fleet_table(10e9, "span-huge.json"), shipped(), {});
  EXPECT_EQ(row(no_cb, "p5.48xlarge", "capacity_block"), nullptr);
  bool said = false;
  for (const auto& e : no_cb.excluded)
    said |= e.instance_type == "p5.48xlarge" && e.option == "capacity_block" &&
            e.reason.find("a replica spans 65 instances") != std::string::npos;
  EXPECT_TRUE(said);
}
