// MPI fleet runs without MPI: where a rank stands (from the launcher's environment), what it
// measures, and the host collectives' byte counts and exact data pattern, by hand.
#include <gtest/gtest.h>

#include <map>

#include "gpusizer/bench/fleet.hpp"
#include "gpusizer/bench/host_collectives.hpp"

namespace gpusizer::bench {
namespace {

using kernels::Collective;

EnvLookup env(std::map<std::string, std::string> vars) {
  auto shared = std::make_shared<std::map<std::string, std::string>>(std::move(vars));
  return [shared](const char* name) -> const char* {
    auto it = shared->find(name);
    return it == shared->end() ? nullptr : it->second.c_str();
  };
}

TEST(FleetPlan, RankFromOpenMpiPmixOrNothing) {
  auto ompi = mpi_launch_from_environment(env({{"OMPI_COMM_WORLD_SIZE", "16"},
                                               {"OMPI_COMM_WORLD_RANK", "11"},
                                               {"OMPI_COMM_WORLD_LOCAL_RANK", "3"},
                                               {"OMPI_COMM_WORLD_LOCAL_SIZE", "8"},
                                               {"SLURM_LOCALID", "0"}}));  // inherited by mpirun
  ASSERT_TRUE(ompi);
  EXPECT_EQ(ompi->rank, 11);
  EXPECT_EQ(ompi->size, 16);
  EXPECT_EQ(ompi->local_rank, 3);
  EXPECT_EQ(ompi->local_size, 8);
  auto srun = mpi_launch_from_environment(
      env({{"PMIX_RANK", "5"}, {"SLURM_NTASKS", "8"}, {"SLURM_LOCALID", "1"}}));
  ASSERT_TRUE(srun);
  EXPECT_EQ(srun->rank, 5);
  EXPECT_EQ(srun->size, 8);
  EXPECT_EQ(srun->local_rank, 1);
  EXPECT_FALSE(mpi_launch_from_environment(env({{"SLURM_PROCID", "0"}})));
  EXPECT_FALSE(mpi_launch_from_environment(env({{"OMPI_COMM_WORLD_SIZE", "x"}})));
}

TEST(FleetPlan, EachLocalRankMeasuresItsShare) {
  RankPlace p{9, 16, 1, 8};
  RunOptions o;
  std::vector<int> gpus;
  share_local_devices(p, o, gpus, 8);
  EXPECT_FALSE(o.cpu);  // local rank 0 measures the CPU
  EXPECT_TRUE(o.gpus);
  EXPECT_EQ(gpus, std::vector<int>{1});
  RankPlace two_per_host{0, 4, 0, 2};
  RunOptions o0;
  std::vector<int> g0;
  share_local_devices(two_per_host, o0, g0, 8);
  EXPECT_TRUE(o0.cpu);
  EXPECT_EQ(g0, (std::vector<int>{0, 2, 4, 6}));
  RankPlace cpu_only{3, 4, 3, 4};  // 4 ranks on a CPU-only host
  RunOptions o3;
  std::vector<int> g3;
  share_local_devices(cpu_only, o3, g3, 0);
  EXPECT_FALSE(o3.cpu);
  EXPECT_FALSE(o3.gpus);
  std::vector<int> given{5};  // --gpus is left as given
  RunOptions o5;
  share_local_devices(p, o5, given, 8);
  EXPECT_EQ(given, std::vector<int>{5});
}

TEST(HostCollectives, BytesFollowNcclTests) {
  // 4 ranks, 4096 B: all_reduce 512 doubles; all_gather / all_to_all 128 per rank, S = 4096.
  EXPECT_EQ(block_elements(Collective::all_reduce, 4096, 4), 512u);
  EXPECT_EQ(block_elements(Collective::all_gather, 4096, 4), 128u);
  EXPECT_EQ(logical_bytes(Collective::all_to_all, 128, 4), 4096u);
  // 3 ranks do not divide 4096 B into 8-byte blocks: 170 x 8 x 3 = 4080 B.
  EXPECT_EQ(
      logical_bytes(Collective::all_gather, block_elements(Collective::all_gather, 4096, 3), 3),
      4080u);
  EXPECT_EQ(send_blocks(Collective::all_to_all, 4), 4u);
  EXPECT_EQ(recv_blocks(Collective::all_reduce, 4), 1u);
  EXPECT_DOUBLE_EQ(kernels::busbw_factor(Collective::all_reduce, 4), 1.5);   // 2(n-1)/n
  EXPECT_DOUBLE_EQ(kernels::busbw_factor(Collective::all_to_all, 4), 0.75);  // (n-1)/n
}

TEST(HostCollectives, PatternPredictsEveryResultExactly) {
  // all_reduce, 4 ranks, element 5: ranks send 1x6, 2x6, 3x6, 4x6; the sum is 60.
  EXPECT_EQ(send_value(Collective::all_reduce, 2, 4, 0, 5), 18.0);
  EXPECT_EQ(expected_value(Collective::all_reduce, 0, 4, 0, 5), 60.0);
  // all_gather: block 3 of the result is rank 3's data: 3 x 1024 + 1 at element 0.
  EXPECT_EQ(send_value(Collective::all_gather, 3, 4, 0, 0), 3073.0);
  EXPECT_EQ(expected_value(Collective::all_gather, 1, 4, 3, 0), 3073.0);
  // all_to_all: rank 3 sends its block 1 to rank 1: (3 x 4 + 1) x 1024 + 1 = 13313.
  EXPECT_EQ(send_value(Collective::all_to_all, 3, 4, 1, 0), 13313.0);
  EXPECT_EQ(expected_value(Collective::all_to_all, 1, 4, 3, 0), 13313.0);
  // A simulated exchange agrees element by element, and a wrong block would not.
  const int n = 3;
  for (int dst = 0; dst < n; ++dst) {
    for (int src = 0; src < n; ++src) {
      for (std::size_t i = 0; i < 2048; i += 511) {
        EXPECT_EQ(send_value(Collective::all_to_all, src, n, static_cast<std::size_t>(dst), i),
                  expected_value(Collective::all_to_all, dst, n, static_cast<std::size_t>(src), i));
      }
    }
  }
  EXPECT_NE(send_value(Collective::all_to_all, 0, n, 2, 0),
            expected_value(Collective::all_to_all, 2, n, 1, 0));
  // Element 1023 wraps: cell = 1024, all_reduce over 64 ranks = 1024 x 2080, still exact.
  EXPECT_EQ(expected_value(Collective::all_reduce, 0, 64, 0, 1023), 2129920.0);
}

}  // namespace
}  // namespace gpusizer::bench
