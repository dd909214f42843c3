// Fleet reports (gpusizer merge, MPI runs): hosts kept with their instance type, one target per
// device per host with ids renamed "<host>:<id>", and one-line refusals.
#include <gtest/gtest.h>

#include <algorithm>

#include "gpusizer/error.hpp"
#include "gpusizer/fleet.hpp"
#include "gpusizer/report_io.hpp"

namespace gpusizer {
namespace {

Record record(const std::string& id, const std::string& family, std::vector<std::string> targets) {
  Record r;
  r.id = id;
  r.family = *parse<Family>(family);
  r.operation = "op";
  r.targets = std::move(targets);
  r.status = RecordStatus::ok;
  r.metrics.push_back({"bandwidth", 1e9, "B/s", "test"});
  r.started_at = "2026-11-30T10:00:00.000Z";
  return r;
}

Report host_report(const std::string& hostname, const std::string& instance_type) {
  Report r;
  r.tool = {"gpusizer", "0.3.0", "abc"};
  r.started_at = "2026-11-30T10:00:00.000Z";
  r.finished_at = "2026-11-30T10:05:00.000Z";
  r.status = ReportStatus::complete;
  r.suite = "quick";
  r.host.hostname = hostname;
  r.host.logical_cpus = 192;
  r.host.instance_type = InstanceType{instance_type, "--instance-type"};
  Target cpu;
  cpu.id = "cpu";
  cpu.kind = TargetKind::cpu;
  Target g0;
  g0.id = "gpu0";
  g0.kind = TargetKind::gpu;
  Target g1 = g0;
  g1.id = "gpu1";
  Target slice;
  slice.id = "gpu0/mig-1g.18gb-gi7-ci0";
  slice.kind = TargetKind::mig;
  slice.parent = "gpu0";
  slice.mig_profile = "1g.18gb";
  r.targets = {cpu, g0, g1, slice};
  r.records = {record("memory/stream_triad/cpu/bytes=1024", "memory", {"cpu"}),
               record("gemm/bf16/gpu1/square/m=8", "gemm", {"gpu1"}),
               record("collectives/all_reduce/gpu0+gpu1/bytes=8", "collectives", {"gpu0", "gpu1"}),
               record("memory/stream_triad/gpu0/mig-1g.18gb-gi7-ci0/bytes=1/mode=isolated",
                      "memory", {"gpu0/mig-1g.18gb-gi7-ci0"})};
  r.not_run = {{"p2p/p2p_ce_read/gpu0+gpu1/bytes=64", "time budget"}};
  r.target_telemetry["gpu0"] = {{"idle_power_watts", 70.0}};
  r.warnings = {"a warning"};
  return r;
}

TEST(Fleet, RenamesTargetsAndRecordsPerHost) {
  Report fleet = merge_reports({{"a.json", host_report("ip-a", "p5.48xlarge")},
                                {"b.json", host_report("ip-b", "p5.48xlarge")}});
  ASSERT_EQ(fleet.hosts.size(), 2u);
  EXPECT_EQ(fleet.hosts[0].id, "ip-a");
  EXPECT_EQ(fleet.hosts[1].source, "b.json");
  ASSERT_TRUE(fleet.hosts[1].instance_type);
  EXPECT_EQ(fleet.hosts[1].instance_type->value, "p5.48xlarge");
  ASSERT_EQ(fleet.targets.size(), 8u);  // 4 devices on each of 2 hosts
  const Target* slice = fleet.find_target("ip-b:gpu0/mig-1g.18gb-gi7-ci0");
  ASSERT_NE(slice, nullptr);
  EXPECT_EQ(slice->parent, "ip-b:gpu0");
  EXPECT_EQ(slice->host, "ip-b");
  EXPECT_NE(fleet.find_record("memory/stream_triad/ip-a:cpu/bytes=1024"), nullptr);
  EXPECT_NE(fleet.find_record("gemm/bf16/ip-b:gpu1/square/m=8"), nullptr);
  const Record* coll = fleet.find_record("collectives/all_reduce/ip-a:gpu0+ip-a:gpu1/bytes=8");
  ASSERT_NE(coll, nullptr);
  EXPECT_EQ(coll->targets, (std::vector<std::string>{"ip-a:gpu0", "ip-a:gpu1"}));
  EXPECT_NE(
      fleet.find_record("memory/stream_triad/ip-b:gpu0/mig-1g.18gb-gi7-ci0/bytes=1/mode=isolated"),
      nullptr);
  ASSERT_EQ(fleet.not_run.size(), 2u);
  EXPECT_EQ(fleet.not_run[1].first, "p2p/p2p_ce_read/ip-b:gpu0+ip-b:gpu1/bytes=64");
  EXPECT_EQ(fleet.target_telemetry["ip-b:gpu0"]["idle_power_watts"], 70.0);
  EXPECT_EQ(fleet.warnings[1], "ip-b: a warning");
  EXPECT_EQ(fleet.settings["fleet"]["how"], "merge");
  EXPECT_EQ(fleet.status, ReportStatus::complete);
}

TEST(Fleet, RoundTripsThroughJsonAndTheLoader) {
  Report fleet = merge_reports({{"a.json", host_report("ip-a", "p5.48xlarge")},
                                {"b.json", host_report("ip-b", "p4d.24xlarge")}});
  nlohmann::json j = to_json(fleet);
  Report back = report_from_json(JsonInput(j, "fleet.json"));
  EXPECT_EQ(to_json(back), j);
  const Target* t = back.find_target("ip-b:cpu");
  ASSERT_NE(t, nullptr);
  ASSERT_TRUE(back.host_of(*t).instance_type);
  EXPECT_EQ(back.host_of(*t).instance_type->value, "p4d.24xlarge");
}

TEST(Fleet, LoaderRejectsATargetOfAnUnknownHost) {
  Report fleet = merge_reports({{"a.json", host_report("ip-a", "p5.48xlarge")},
                                {"b.json", host_report("ip-b", "p5.48xlarge")}});
  nlohmann::json j = to_json(fleet);
  j["targets"][0]["host"] = "ip-z";
  try {
    report_from_json(JsonInput(j, "fleet.json"));
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "fleet.json: /targets/0/host: no host with id \"ip-z\" in \"hosts\"");
  }
}

std::string refusal(const std::vector<std::pair<std::string, Report>>& in) {
  try {
    merge_reports(in);
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(Fleet, RefusesMixedSuitesVersionsAndDuplicateHosts) {
  Report a = host_report("ip-a", "p5.48xlarge");
  Report b = host_report("ip-b", "p5.48xlarge");
  b.suite = "standard";
  EXPECT_EQ(refusal({{"a.json", a}, {"b.json", b}}),
            "b.json: suite \"standard\" differs from a.json's \"quick\" (a fleet report holds one "
            "suite: measure every host with the same one)");
  b.suite = "quick";
  b.settings["tiny"] = true;
  EXPECT_EQ(refusal({{"a.json", a}, {"b.json", b}}),
            "b.json: suite \"quick\" (--tiny) differs from a.json's \"quick\" (a fleet report "
            "holds one suite: measure every host with the same one)");
  b.settings = nlohmann::json::object();
  b.tool.version = "0.4.0";
  EXPECT_EQ(refusal({{"a.json", a}, {"b.json", b}}),
            "b.json: gpusizer version \"0.4.0\" differs from a.json's \"0.3.0\" (measure every "
            "host with the same gpusizer)");
  EXPECT_EQ(refusal({{"a.json", a}, {"a2.json", a}}),
            "a2.json: host \"ip-a\" is already in the fleet (from a.json); each host is merged "
            "once");
  EXPECT_EQ(refusal({{"a.json", a}}),
            "merge: 1 host(s) given; a fleet report needs reports of at least two hosts");
}

TEST(Fleet, CombinesStatusTimesAndNestedFleets) {
  Report a = host_report("ip-a", "p5.48xlarge");
  Report b = host_report("ip-b", "p5.48xlarge");
  Report c = host_report("ip-c", "p5.48xlarge");
  b.status = ReportStatus::stopped;
  b.started_at = "2026-11-30T09:00:00.000Z";
  c.finished_at = "2026-11-30T11:00:00.000Z";
  b.tool.git_revision = "def";
  Report ab = merge_reports({{"a.json", a}, {"b.json", b}});
  EXPECT_EQ(ab.status, ReportStatus::stopped);
  EXPECT_EQ(ab.started_at, "2026-11-30T09:00:00.000Z");
  EXPECT_NE(std::find(ab.warnings.begin(), ab.warnings.end(),
                      "hosts measured by different builds of gpusizer 0.3.0: abc (a.json) and "
                      "def (b.json)"),
            ab.warnings.end());
  Report abc = merge_reports({{"ab.json", ab}, {"c.json", c}});
  EXPECT_EQ(abc.hosts.size(), 3u);
  EXPECT_EQ(abc.targets.size(), 12u);
  EXPECT_EQ(abc.finished_at, "2026-11-30T11:00:00.000Z");
  EXPECT_NE(abc.find_record("memory/stream_triad/ip-c:cpu/bytes=1024"), nullptr);
  EXPECT_EQ(refusal({{"ab.json", ab}, {"a.json", a}}),
            "a.json: host \"ip-a\" is already in the fleet (from a.json); each host is merged "
            "once");
}

TEST(Fleet, MpiRanksOfOneHostCombineIntoOneHost) {
  Report r0 = host_report("node1", "p5.48xlarge");
  r0.targets.resize(1);  // local rank 0 measures the CPU
  r0.records.resize(1);
  Report r1 = host_report("node1", "p5.48xlarge");
  r1.targets = {r1.targets[2]};  // local rank 1 measures gpu1
  r1.records = {r1.records[1]};
  FleetBuilder b(true);
  b.add(r0, "MPI rank 0", 0);
  b.add(r1, "MPI rank 1", 1);
  const Report& f = b.report();
  ASSERT_EQ(f.hosts.size(), 1u);
  EXPECT_EQ(f.hosts[0].ranks, (std::vector<int>{0, 1}));
  ASSERT_EQ(f.targets.size(), 2u);
  EXPECT_EQ(f.targets[1].id, "node1:gpu1");
  EXPECT_NE(f.find_record("gemm/bf16/node1:gpu1/square/m=8"), nullptr);
}

TEST(Fleet, CopyProvenanceCopiesTheRunNotTheHostOrWhatWasMeasured) {
  Report from;
  from.tool = {"gpusizer", "0.4.0", "def"};
  from.command_line = {"gpusizer", "run", "--suite=standard"};
  from.started_at = "2026-12-01T08:00:00.000Z";
  from.finished_at = "";
  from.status = ReportStatus::stopped;
  from.suite = "standard";
  from.settings = {{"tiny", true}};
  from.host.hostname = "ip-z";
  Report to = host_report("ip-a", "p5.48xlarge");
  copy_provenance(from, to);
  EXPECT_EQ(to.tool.version, "0.4.0");
  EXPECT_EQ(to.tool.git_revision, "def");
  EXPECT_EQ(to.command_line, (std::vector<std::string>{"gpusizer", "run", "--suite=standard"}));
  EXPECT_EQ(to.started_at, "2026-12-01T08:00:00.000Z");
  EXPECT_EQ(to.finished_at, "");
  EXPECT_EQ(to.status, ReportStatus::stopped);
  EXPECT_EQ(to.suite, "standard");
  EXPECT_EQ(to.settings, (nlohmann::json{{"tiny", true}}));
  // Not provenance: the host and what was measured stay.
  EXPECT_EQ(to.host.hostname, "ip-a");
  EXPECT_EQ(to.targets.size(), 4u);
  EXPECT_EQ(to.records.size(), 4u);
  EXPECT_EQ(to.not_run.size(), 1u);
  EXPECT_EQ(to.warnings, std::vector<std::string>{"a warning"});
}

TEST(Fleet, HostnameThatCannotBeAnIdIsRefused) {
  EXPECT_EQ(refusal({{"a.json", host_report("", "p5.48xlarge")}}),
            "a.json: host.hostname \"\" cannot name a fleet host (empty, or holds ':', '+', '/' "
            "or a space)");
}

}  // namespace
}  // namespace gpusizer
