// --resume of an MPI fleet run: the fleet report split back into each rank's part is what that
// rank sent (ids without the host prefix, only its own devices), the fleet's own collectives
// belong to no part, and a report of other hosts or other ranks is refused in one line.
#include <gtest/gtest.h>

#include "gpusizer/fleet.hpp"
#include "gpusizer/fleet_resume.hpp"
#include "input_error_of.hpp"

namespace gpusizer {
namespace {

Record record(const std::string& id, std::vector<std::string> targets) {
  Record r;
  r.id = id;
  r.family = Family::memory;
  r.operation = "op";
  r.targets = std::move(targets);
  r.status = RecordStatus::ok;
  return r;
}

Target target(const std::string& id, const std::string& kind) {
  Target t;
  t.id = id;
  t.kind = *parse<TargetKind>(kind);
  return t;
}

Report rank_report(const std::string& hostname) {
  Report r;
  r.tool = {"gpusizer", "0.3.0", "abc"};
  r.started_at = "2026-11-30T10:00:00.000Z";
  r.status = ReportStatus::stopped;
  r.suite = "quick";
  r.host.hostname = hostname;
  return r;
}

// Host a: rank 0 measures the CPU and gpu0, rank 1 gpu1 (local size 2); host b: rank 2, the CPU.
Report fleet_of_three_ranks() {
  Report r0 = rank_report("a");
  r0.targets = {target("cpu", "cpu"), target("gpu0", "gpu")};
  r0.records = {record("memory/memcpy/cpu/bytes=4", {"cpu"}),
                record("memory/memcpy/gpu0/bytes=4", {"gpu0"})};
  r0.not_run = {{"memory/triad/cpu/bytes=4", "stopped"}};
  r0.target_telemetry["gpu0"] = {{"idle_power_watts", 70.0}};
  r0.warnings = {"w0"};
  Report r1 = rank_report("a");
  r1.targets = {target("gpu1", "gpu")};
  r1.records = {record("memory/memcpy/gpu1/bytes=4", {"gpu1"})};
  r1.not_run = {{"memory/triad/gpu1/bytes=4", "stopped"}};
  r1.target_telemetry["gpu1"] = {{"idle_power_watts", 71.0}};
  Report r2 = rank_report("b");
  r2.targets = {target("cpu", "cpu")};
  r2.records = {record("memory/memcpy/cpu/bytes=4", {"cpu"})};
  FleetBuilder b(true);
  b.add(r0, "MPI rank 0", 0);
  b.add(r1, "MPI rank 1", 1);
  b.add(r2, "MPI rank 2", 2);
  Report f = b.report();
  f.settings["fleet"] = {{"how", "mpi"}, {"world_size", 3}};
  f.settings["suite"] = "quick";
  f.records.push_back(
      record("collectives/all_reduce/a:cpu+b:cpu/backend=mpi/ranks=3/bytes=8", {"a:cpu", "b:cpu"}));
  f.not_run.emplace_back("collectives/all_gather/a:cpu+b:cpu/backend=mpi/ranks=3/bytes=8", "x");
  RunSession s;
  s.records = {"memory/memcpy/a:cpu/bytes=4", "memory/memcpy/a:gpu1/bytes=4",
               "collectives/all_reduce/a:cpu+b:cpu/backend=mpi/ranks=3/bytes=8"};
  f.history = {s};
  return f;
}

std::vector<std::string> ids(const std::vector<Target>& ts) {
  std::vector<std::string> out;
  for (const auto& t : ts) out.push_back(t.id);
  return out;
}

std::vector<std::string> ids(const std::vector<Record>& rs) {
  std::vector<std::string> out;
  for (const auto& r : rs) out.push_back(r.id + " @ " + join_target_ids(r.targets));
  return out;
}

TEST(FleetResume, OwnerFollowsTheDeviceShareRule) {
  EXPECT_EQ(owner_local_rank("cpu", 8), 0);
  EXPECT_EQ(owner_local_rank("gpu5", 8), 5);
  EXPECT_EQ(owner_local_rank("gpu5", 2), 1);
  EXPECT_EQ(owner_local_rank("gpu13", 8), 5);
  EXPECT_EQ(owner_local_rank("gpu7", 1), 0);
  EXPECT_EQ(owner_local_rank("gpu1/mig-1g.18gb-gi7-ci0", 8), 0);
  EXPECT_EQ(owner_local_rank("gpu", 8), 0);
}

TEST(FleetResume, EachRankGetsBackWhatItSent) {
  const Report f = fleet_of_three_ranks();
  const Report p0 = fleet_part_for_rank(f, "a", 0, 2);
  EXPECT_EQ(p0.host.hostname, "a");
  EXPECT_TRUE(p0.host.ranks.empty());
  EXPECT_TRUE(p0.host.id.empty());
  EXPECT_TRUE(p0.hosts.empty());
  EXPECT_EQ(ids(p0.targets), (std::vector<std::string>{"cpu", "gpu0"}));
  EXPECT_FALSE(p0.targets[0].host.has_value());
  EXPECT_EQ(ids(p0.records), (std::vector<std::string>{"memory/memcpy/cpu/bytes=4 @ cpu",
                                                       "memory/memcpy/gpu0/bytes=4 @ gpu0"}));
  ASSERT_EQ(p0.not_run.size(), 1u);
  EXPECT_EQ(p0.not_run[0].first, "memory/triad/cpu/bytes=4");
  EXPECT_EQ(p0.target_telemetry, nlohmann::json({{"gpu0", {{"idle_power_watts", 70.0}}}}));
  EXPECT_EQ(p0.warnings, (std::vector<std::string>{"w0"}));
  EXPECT_FALSE(p0.settings.contains("fleet"));
  EXPECT_EQ(p0.settings["suite"], "quick");
  EXPECT_EQ(p0.suite, "quick");
  ASSERT_EQ(p0.history.size(), 1u);
  EXPECT_EQ(p0.history[0].records, (std::vector<std::string>{"memory/memcpy/cpu/bytes=4"}));

  const Report p1 = fleet_part_for_rank(f, "a", 1, 2);
  EXPECT_EQ(ids(p1.targets), (std::vector<std::string>{"gpu1"}));
  EXPECT_EQ(ids(p1.records), (std::vector<std::string>{"memory/memcpy/gpu1/bytes=4 @ gpu1"}));
  ASSERT_EQ(p1.not_run.size(), 1u);
  EXPECT_EQ(p1.not_run[0].first, "memory/triad/gpu1/bytes=4");
  EXPECT_TRUE(p1.warnings.empty());  // the host's warnings go to local rank 0 alone
  EXPECT_EQ(p1.history[0].records, (std::vector<std::string>{"memory/memcpy/gpu1/bytes=4"}));

  const Report p2 = fleet_part_for_rank(f, "b", 0, 1);
  EXPECT_EQ(ids(p2.targets), (std::vector<std::string>{"cpu"}));
  EXPECT_EQ(ids(p2.records), (std::vector<std::string>{"memory/memcpy/cpu/bytes=4 @ cpu"}));
  EXPECT_TRUE(p2.not_run.empty());  // the host collective's not-run is the session's
}

TEST(FleetResume, PartsMergeBackIntoTheSameFleet) {
  const Report f = fleet_of_three_ranks();
  FleetBuilder b(true);
  b.add(fleet_part_for_rank(f, "a", 0, 2), "MPI rank 0", 0);
  b.add(fleet_part_for_rank(f, "a", 1, 2), "MPI rank 1", 1);
  b.add(fleet_part_for_rank(f, "b", 0, 1), "MPI rank 2", 2);
  const Report again = b.report();
  EXPECT_EQ(ids(again.targets), ids(f.targets));
  std::vector<std::string> without_collectives = ids(f.records);
  without_collectives.pop_back();
  EXPECT_EQ(ids(again.records), without_collectives);
  EXPECT_EQ(again.warnings, f.warnings);
  EXPECT_EQ(again.target_telemetry, f.target_telemetry);
}

TEST(FleetCollectives, AreRecognisedByTheirBackendSegment) {
  EXPECT_TRUE(
      is_fleet_collective("collectives/all_reduce/a:cpu+b:cpu/backend=mpi/ranks=4/bytes=8"));
  EXPECT_TRUE(is_fleet_collective("collectives/all_reduce/a:gpu0+b:gpu0/backend=nccl/bytes=8"));
  EXPECT_FALSE(is_fleet_collective("collectives/all_reduce/a:gpu0+a:gpu1/bytes=8"));
}

TEST(FleetResume, RefusesOtherHostsRanksOrAReportNotFromMpi) {
  const Report f = fleet_of_three_ranks();
  EXPECT_EQ(error_of([&] {
              check_fleet_matches_ranks(f, {"a", "a", "b"}, "f.json");
            }),
            "(no error)");
  EXPECT_EQ(error_of([&] {
              check_fleet_matches_ranks(f, {"a", "b", "b"}, "f.json");
            }),
            "f.json: --resume under MPI: the report's hosts a (ranks 0,1), b (ranks 2) differ "
            "from this run's a (ranks 0), b (ranks 1,2); resume it with the same hosts and ranks "
            "per host");
  EXPECT_EQ(error_of([&] {
              check_fleet_matches_ranks(f, {"a", "a", "c"}, "f.json");
            }),
            "f.json: --resume under MPI: the report's hosts a (ranks 0,1), b (ranks 2) differ "
            "from this run's a (ranks 0,1), c (ranks 2); resume it with the same hosts and ranks "
            "per host");
  Report merged = f;
  merged.settings["fleet"]["how"] = "merge";
  EXPECT_EQ(error_of([&] {
              check_fleet_matches_ranks(merged, {"a", "a", "b"}, "f.json");
            }),
            "f.json: --resume under MPI: not a fleet report written by an MPI run (made by "
            "gpusizer merge: resume each host's own report, then merge them again)");
  EXPECT_EQ(error_of([&] { check_fleet_matches_ranks(rank_report("a"), {"a"}, "r.json"); }),
            "r.json: --resume under MPI: not a fleet report written by an MPI run (a single-host "
            "report: resume it without mpirun)");
}

}  // namespace
}  // namespace gpusizer
