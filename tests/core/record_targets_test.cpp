// Record::targets: a list in memory, one string in the report ("target", ids joined by '+').
// The reader splits the string once, the writer joins the list once (join_target_ids), so
// reports written before the list existed load and write back byte for byte.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpusizer/report_io.hpp"
#include "input_error_of.hpp"

namespace gpusizer {
namespace {

using Ids = std::vector<std::string>;

// A report with one record on `targets`, as JSON (with its record chain).
nlohmann::json report_json(const Ids& targets) {
  Report r;
  r.tool = {"gpusizer", "0.1.0", "abc123"};
  r.started_at = "2026-11-30T10:00:00.000Z";
  r.suite = "quick";
  r.host.hostname = "node-1";
  Record rec;
  rec.id = "collectives/all_reduce/bytes=8";
  rec.family = Family::collectives;
  rec.operation = "all_reduce";
  rec.targets = targets;
  rec.status = RecordStatus::ok;
  rec.metrics = {{"busbw", 1e9, "B/s", "algbw x factor"}};
  rec.started_at = "2026-11-30T10:00:01.000Z";
  r.records = {rec};
  return to_json(r);
}

Ids loaded_targets(const nlohmann::json& j) {
  return report_from_json(JsonInput(j, "r.json")).records.at(0).targets;
}

// The error loading the report with the record's "target" key replaced by `target`.
std::string load_error(const std::string& target) {
  nlohmann::json j = report_json({"gpu0"});
  j["records"][0]["target"] = target;
  return error_of([&] { report_from_json(JsonInput(j, "r.json")); });
}

TEST(RecordTargets, JoinedWithPlusInOnePlace) {
  EXPECT_EQ(join_target_ids({}), "");
  EXPECT_EQ(join_target_ids({"cpu"}), "cpu");
  EXPECT_EQ(join_target_ids({"gpu0", "gpu1", "gpu2"}), "gpu0+gpu1+gpu2");
  EXPECT_EQ(join_target_ids({"ip-a:gpu0", "ip-b:gpu0/mig-1g.18gb-gi7-ci0"}),
            "ip-a:gpu0+ip-b:gpu0/mig-1g.18gb-gi7-ci0");
}

TEST(RecordTargets, ASingleIdIsAListOfOne) {
  const nlohmann::json j = report_json({"gpu0/mig-1g.18gb-gi7-ci0"});
  EXPECT_EQ(j["records"][0]["target"], "gpu0/mig-1g.18gb-gi7-ci0");
  EXPECT_EQ(loaded_targets(j), Ids{"gpu0/mig-1g.18gb-gi7-ci0"});
  // Read and written back: the same JSON, so the same record chain (record_chain.hpp).
  EXPECT_EQ(to_json(report_from_json(JsonInput(j, "r.json"))), j);
}

TEST(RecordTargets, ThreeIdsAreSplitInOrderAndJoinedBackTheSame) {
  const nlohmann::json j = report_json({"gpu2", "gpu0", "gpu1"});
  EXPECT_EQ(j["records"][0]["target"], "gpu2+gpu0+gpu1");
  EXPECT_EQ(loaded_targets(j), (Ids{"gpu2", "gpu0", "gpu1"}));
  EXPECT_EQ(to_json(report_from_json(JsonInput(j, "r.json"))), j);
}

TEST(RecordTargets, FleetIdsKeepTheirHostPrefix) {
  // Fleet target ids are "<host>:<local id>"; ':' and '/' are part of an id, only '+' separates.
  const nlohmann::json j = report_json({"ip-a:gpu0", "ip-b:gpu0/mig-1g.18gb-gi7-ci0", "ip-c:cpu"});
  EXPECT_EQ(j["records"][0]["target"], "ip-a:gpu0+ip-b:gpu0/mig-1g.18gb-gi7-ci0+ip-c:cpu");
  EXPECT_EQ(loaded_targets(j), (Ids{"ip-a:gpu0", "ip-b:gpu0/mig-1g.18gb-gi7-ci0", "ip-c:cpu"}));
  EXPECT_EQ(to_json(report_from_json(JsonInput(j, "r.json"))), j);
}

TEST(RecordTargets, AnEmptyIdIsAnInputErrorNamingTheRecordsTarget) {
  EXPECT_EQ(load_error("gpu0++gpu1"),
            "r.json: /records/0/target: expected target ids joined by '+', got the string "
            "\"gpu0++gpu1\" (an empty id)");
  EXPECT_EQ(load_error("+gpu0"),
            "r.json: /records/0/target: expected target ids joined by '+', got the string "
            "\"+gpu0\" (an empty id)");
  EXPECT_EQ(load_error("gpu0+"),
            "r.json: /records/0/target: expected target ids joined by '+', got the string "
            "\"gpu0+\" (an empty id)");
  EXPECT_EQ(load_error(""), "r.json: /records/0/target: expected a non-empty string");
}

}  // namespace
}  // namespace gpusizer
