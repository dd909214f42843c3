// NCCL across MPI ranks, planned without MPI or a GPU: which GPUs form the world, per-node and
// one-GPU-per-node ring groups, their NCCL ranks and roots, and why a group is not formed.
#include <gtest/gtest.h>

#include "gpusizer/bench/nccl_groups.hpp"

namespace gpusizer::bench {
namespace {

RankGpus rank(const std::string& host, std::vector<std::string> gpus) {
  RankGpus r;
  r.host = host;
  r.gpus = std::move(gpus);
  for (std::size_t i = 0; i < r.gpus.size(); ++i) r.cuda_ordinals.push_back(static_cast<int>(i));
  return r;
}

// Two hosts, one rank per GPU, two GPUs each (mpirun --map-by ppr:2:node).
TEST(NcclGroups, OneRankPerGpuOnTwoHostsGivesWorldBothNodesAndARing) {
  const NcclPlan p = plan_nccl_groups(
      {rank("a", {"gpu0"}), rank("a", {"gpu1"}), rank("b", {"gpu0"}), rank("b", {"gpu1"})});
  ASSERT_EQ(p.groups.size(), 4u);
  EXPECT_TRUE(p.skipped.empty());
  EXPECT_EQ(p.groups[0].name, "world");
  EXPECT_EQ(group_targets(p.groups[0]),
            (std::vector<std::string>{"a:gpu0", "a:gpu1", "b:gpu0", "b:gpu1"}));
  EXPECT_EQ(p.groups[0].hosts, 2);
  EXPECT_EQ(p.groups[1].name, "node:a");
  EXPECT_EQ(p.groups[1].kind, "node");
  EXPECT_EQ(group_targets(p.groups[1]), (std::vector<std::string>{"a:gpu0", "a:gpu1"}));
  EXPECT_EQ(p.groups[2].name, "node:b");
  EXPECT_EQ(p.groups[2].root_mpi_rank, 2);
  EXPECT_EQ(p.groups[2].members[1].mpi_rank, 3);
  EXPECT_EQ(p.groups[2].members[1].nccl_rank, 1);
  EXPECT_EQ(p.groups[2].hosts, 1);
  EXPECT_EQ(p.groups[3].name, "ring");
  EXPECT_EQ(group_targets(p.groups[3]), (std::vector<std::string>{"a:gpu0", "b:gpu0"}));
  EXPECT_EQ(p.groups[3].members[1].mpi_rank, 2);
  EXPECT_EQ(p.groups[3].members[1].nccl_rank, 1);
  const auto mine = members_on_rank(p.groups[0], 3);
  ASSERT_EQ(mine.size(), 1u);
  EXPECT_EQ(mine[0].nccl_rank, 3);
  EXPECT_TRUE(members_on_rank(p.groups[1], 2).empty());
}

// One rank per host driving all its GPUs: the node groups are that rank's own collectives.
TEST(NcclGroups, OneRankPerHostNumbersItsGpusInOrderAndSkipsTheNodeGroups) {
  const NcclPlan p =
      plan_nccl_groups({rank("a", {"gpu0", "gpu1", "gpu2"}), rank("b", {"gpu0", "gpu1", "gpu2"})});
  ASSERT_EQ(p.groups.size(), 2u);
  EXPECT_EQ(p.groups[0].name, "world");
  ASSERT_EQ(p.groups[0].members.size(), 6u);
  EXPECT_EQ(p.groups[0].members[4].mpi_rank, 1);
  EXPECT_EQ(p.groups[0].members[4].local_index, 1);
  EXPECT_EQ(p.groups[0].members[4].nccl_rank, 4);
  EXPECT_EQ(p.groups[0].members[4].cuda_ordinal, 1);
  EXPECT_EQ(members_on_rank(p.groups[0], 1).size(), 3u);
  EXPECT_EQ(p.groups[1].name, "ring");
  EXPECT_EQ(group_targets(p.groups[1]), (std::vector<std::string>{"a:gpu0", "b:gpu0"}));
  EXPECT_EQ(p.skipped,
            (std::vector<std::string>{
                "node:a: its GPUs are driven by one rank; its own collectives family measures them",
                "node:b: its GPUs are driven by one rank; its own collectives family measures "
                "them"}));
}

TEST(NcclGroups, GroupsThatRepeatAnotherOrHaveOneGpuAreSkippedWithTheReason) {
  // One host, one rank per GPU: the world is the node.
  NcclPlan p = plan_nccl_groups({rank("a", {"gpu0"}), rank("a", {"gpu1"})});
  ASSERT_EQ(p.groups.size(), 1u);
  EXPECT_EQ(p.groups[0].name, "world");
  EXPECT_EQ(p.groups[0].hosts, 1);
  EXPECT_EQ(p.skipped, (std::vector<std::string>{
                           "node:a: the only host: the world group",
                           "ring: 1 host(s) with GPUs; a ring between hosts needs at least 2"}));
  // One GPU per host: the ring is the world; a rank without GPUs takes part in nothing.
  p = plan_nccl_groups({rank("a", {"gpu0"}), rank("a", {}), rank("b", {"gpu0"})});
  ASSERT_EQ(p.groups.size(), 1u);
  EXPECT_EQ(group_targets(p.groups[0]), (std::vector<std::string>{"a:gpu0", "b:gpu0"}));
  EXPECT_EQ(p.groups[0].members[1].mpi_rank, 2);
  EXPECT_EQ(p.skipped, (std::vector<std::string>{"node:a: 1 GPU", "node:b: 1 GPU",
                                                 "ring: one GPU per host: the world group"}));
  // No GPU at all (a CPU-only fleet).
  p = plan_nccl_groups({rank("a", {}), rank("b", {})});
  EXPECT_TRUE(p.groups.empty());
  EXPECT_EQ(p.skipped.front(), "world: 0 GPU(s) in the job; collectives need at least 2");
  // One rank drives every GPU: its own collectives family.
  p = plan_nccl_groups({rank("a", {"gpu0", "gpu1"}), rank("a", {})});
  EXPECT_TRUE(p.groups.empty());
  EXPECT_EQ(p.skipped.front(),
            "world: every GPU is driven by one rank; its own collectives family measures them");
}

}  // namespace
}  // namespace gpusizer::bench
