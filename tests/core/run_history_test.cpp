// Which run measured which record: provenance checks for --resume and the report's history.
#include "gpusizer/run_history.hpp"

#include <gtest/gtest.h>

#include "gpusizer/error.hpp"
#include "gpusizer/report_io.hpp"

namespace gpusizer {
namespace {

Provenance here() {
  return Provenance{{"gpusizer", "0.1.0", "abc123"}, "node-1", "quick", std::nullopt};
}

Target gpu(const std::string& id, const std::string& model) {
  Target t;
  t.id = id;
  t.kind = TargetKind::gpu;
  t.name = model;
  return t;
}

Record record(const std::string& id) {
  Record r;
  r.id = id;
  r.family = Family::memory;
  r.operation = "stream_triad";
  r.targets = {"cpu"};
  r.status = RecordStatus::skipped;
  r.reason = "test";
  return r;
}

// A report written before the history existed, stopped by SIGTERM after two records.
Report legacy_stopped_report() {
  Report r;
  r.tool = {"gpusizer", "0.1.0", "abc123"};
  r.started_at = "2026-11-30T10:00:00.000Z";
  r.finished_at = "2026-11-30T10:01:00.000Z";
  r.status = ReportStatus::stopped;
  r.suite = "quick";
  r.host.hostname = "node-1";
  r.records = {record("a"), record("b")};
  r.warnings = {"GPUs: none", "run stopped: interrupted by signal SIGTERM"};
  return r;
}

TEST(Provenance, TheSameRunAddsWithoutComment) {
  EXPECT_EQ(provenance_difference(here(), here()), "");
}

TEST(Provenance, EachDifferenceIsNamed) {
  Provenance other = here();
  other.hostname = "node-2";
  EXPECT_EQ(provenance_difference(here(), other), "host \"node-1\" (report) vs \"node-2\" (here)");
  other = here();
  other.tool.version = "0.2.0";
  EXPECT_EQ(provenance_difference(here(), other),
            "gpusizer 0.1.0 (abc123) (report) vs gpusizer 0.2.0 (abc123) (here)");
  other = here();
  other.tool.git_revision = "def456";
  EXPECT_NE(provenance_difference(here(), other).find("def456"), std::string::npos);
  other = here();
  other.suite = "quick-tiny";
  EXPECT_EQ(provenance_difference(here(), other), "suite quick (report) vs quick-tiny (here)");
  other.hostname = "node-2";
  EXPECT_EQ(provenance_difference(here(), other),
            "host \"node-1\" (report) vs \"node-2\" (here); suite quick (report) vs quick-tiny "
            "(here)");
}

TEST(Provenance, GpuModelsAreComparedWhenBothSidesHaveGpus) {
  Provenance report = here(), now = here();
  report.gpu_models = gpu_models({gpu("gpu0", "NVIDIA H100"), gpu("gpu1", "NVIDIA H100")});
  now.gpu_models = std::vector<std::string>{"NVIDIA H200"};
  EXPECT_EQ(provenance_difference(report, now),
            "GPU models NVIDIA H100 (report) vs NVIDIA H200 (here)");
  now.gpu_models = std::vector<std::string>{};  // --no-gpu: CPU records on the same host
  EXPECT_EQ(provenance_difference(report, now), "");
  now.gpu_models = std::nullopt;  // not discovered yet
  EXPECT_EQ(provenance_difference(report, now), "");
}

TEST(History, AReportWithoutHistoryGetsAnEntryForItsRunAndLosesTheStaleStopWarning) {
  Report r = legacy_stopped_report();
  open_session(r, here(), "2026-11-30T11:00:00.000Z", "");
  ASSERT_EQ(r.history.size(), 2u);
  const RunSession& first = r.history[0];
  EXPECT_EQ(first.started_at, "2026-11-30T10:00:00.000Z");
  EXPECT_EQ(first.status, ReportStatus::stopped);
  EXPECT_EQ(first.stop_reason, "interrupted by signal SIGTERM");
  EXPECT_EQ(first.records, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(r.warnings, (std::vector<std::string>{"GPUs: none"}));
  EXPECT_EQ(r.history[1].status, ReportStatus::running);
  EXPECT_EQ(r.history[1].started_at, "2026-11-30T11:00:00.000Z");
}

TEST(History, EachRunListsOnlyTheRecordsItAdded) {
  Report r = legacy_stopped_report();
  open_session(r, here(), "2026-11-30T11:00:00.000Z", "");
  r.records.push_back(record("c"));
  update_session(r, ReportStatus::running, "", "");
  EXPECT_EQ(r.history[1].records, (std::vector<std::string>{"c"}));
  r.records.push_back(record("d"));
  update_session(r, ReportStatus::complete, "", "2026-11-30T11:05:00.000Z");
  EXPECT_EQ(r.history[1].records, (std::vector<std::string>{"c", "d"}));
  EXPECT_EQ(r.history[1].status, ReportStatus::complete);
  EXPECT_EQ(r.history[0].records, (std::vector<std::string>{"a", "b"}));
}

TEST(History, ANewReportStartsWithItsOwnEntryOnly) {
  Report r;
  open_session(r, here(), "2026-11-30T12:00:00.000Z", "");
  ASSERT_EQ(r.history.size(), 1u);
  EXPECT_EQ(r.history[0].status, ReportStatus::running);
  EXPECT_EQ(r.history[0].hostname, "node-1");
}

TEST(History, ARunThatWasKilledIsRecordedAsStoppedByTheNextOne) {
  Report r;
  open_session(r, here(), "2026-11-30T12:00:00.000Z", "");
  r.records.push_back(record("a"));
  update_session(r, ReportStatus::running, "", "");  // its last checkpoint before kill -9
  open_session(r, here(), "2026-11-30T12:10:00.000Z", "");
  ASSERT_EQ(r.history.size(), 2u);
  EXPECT_EQ(r.history[0].status, ReportStatus::stopped);
  EXPECT_EQ(r.history[0].stop_reason, "ended without finishing the report (killed)");
  EXPECT_EQ(r.history[0].records, std::vector<std::string>{"a"});
  forget_earlier_record(r, "a");  // measured again by this run
  EXPECT_TRUE(r.history[0].records.empty());
}

TEST(History, RoundTripsThroughJsonAndRejectsUnknownFields) {
  Report r = legacy_stopped_report();
  open_session(r, here(), "2026-11-30T11:00:00.000Z", "host \"x\" (report) vs \"y\" (here)");
  note_session_devices(r, {gpu("gpu0", "NVIDIA H200")});
  update_session(r, ReportStatus::empty, "", "2026-11-30T11:05:00.000Z");
  r.status = ReportStatus::empty;
  nlohmann::json j = to_json(r);
  Report back = report_from_json(JsonInput(j, "r.json"));
  ASSERT_EQ(back.history.size(), 2u);
  EXPECT_EQ(back.status, ReportStatus::empty);
  EXPECT_EQ(back.history[1].differs, "host \"x\" (report) vs \"y\" (here)");
  EXPECT_EQ(back.history[1].devices, (std::vector<std::string>{"gpu0: NVIDIA H200"}));
  EXPECT_EQ(back.history[0].stop_reason, "interrupted by signal SIGTERM");
  EXPECT_EQ(to_json(back), j);

  j["history"][1]["hostname"] = 7;
  try {
    report_from_json(JsonInput(j, "r.json"));
    FAIL() << "a number as hostname was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("r.json: /history/1/hostname: expected a string"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace gpusizer
