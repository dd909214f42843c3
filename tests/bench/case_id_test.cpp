// make_id (bench/case_id.hpp): the one way a benchmark id is built. The expected strings are the
// ids reports already hold (see tests/golden/case-ids-two-gpu.txt for a whole machine's list).
#include "gpusizer/bench/case_id.hpp"

#include <gtest/gtest.h>

namespace gpusizer::bench {
namespace {

TEST(CaseId, FamilyOperationTargetAndKeyedParts) {
  EXPECT_EQ(make_id("memory", "stream_triad", {"cpu"}, {{"bytes", "268435456"}}),
            "memory/stream_triad/cpu/bytes=268435456");
}

TEST(CaseId, SeveralTargetsAreJoinedWithPlus) {
  EXPECT_EQ(make_id("p2p", "p2p_ce_write", {"gpu0", "gpu1"}, {{"bytes", "1048576"}}),
            "p2p/p2p_ce_write/gpu0+gpu1/bytes=1048576");
  EXPECT_EQ(make_id("collectives", "all_reduce", {"gpu0", "gpu1", "gpu2"}, {{"bytes", "8"}}),
            "collectives/all_reduce/gpu0+gpu1+gpu2/bytes=8");
}

TEST(CaseId, AnEmptyKeyLeavesTheValueAlone) {
  EXPECT_EQ(make_id("gemm", "bf16", {"gpu0"}, {{"", "square"}, {"m", "8192"}, {"n", "8192"}}),
            "gemm/bf16/gpu0/square/m=8192/n=8192");
}

TEST(CaseId, HostCollectivesOfAFleet) {
  // bench/mpi/fleet_session.cpp: the MPI collectives over every host of a fleet.
  EXPECT_EQ(make_id("collectives", "all_reduce", {"host-a", "host-b"},
                    {{"backend", "mpi"}, {"ranks", "2"}, {"bytes", "4096"}}),
            "collectives/all_reduce/host-a+host-b/backend=mpi/ranks=2/bytes=4096");
}

TEST(CaseId, NoPartsEndsAtTheTargets) {
  EXPECT_EQ(make_id("io", "storage_to_host", {"cpu"}, {}), "io/storage_to_host/cpu");
}

}  // namespace
}  // namespace gpusizer::bench
