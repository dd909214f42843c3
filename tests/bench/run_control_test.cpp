// Run control: repetitions within the budget, budgets and deadlines that cannot work, how a run
// ends (status, warning, history), and the identity check of --resume.
#include "gpusizer/bench/run_control.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "gpusizer/error.hpp"
#include "gpusizer/host_info.hpp"
#include "gpusizer/report_io.hpp"
#include "gpusizer/run_history.hpp"

namespace gpusizer::bench {
namespace {

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no InputError)";
}

TEST(Repetitions, AskedRepetitionsRunWhenTheyFit) {
  std::string note;
  EXPECT_EQ(repetitions_for_case(3, std::nullopt, 2, note), 3);
  EXPECT_EQ(repetitions_for_case(3, 100.0, 2, note), 3);
  EXPECT_EQ(note, "");
}

TEST(Repetitions, TheBudgetCapsThem) {
  std::string note;
  // 8 s left at ~2 s each: 4 of the 50 asked.
  EXPECT_EQ(repetitions_for_case(50, 8.0, 2, note), 4);
  EXPECT_EQ(note, "50 asked, 4 run: 8 s left, ~2.0 s each");
  // No time left at all: the one measurement the case exists for.
  EXPECT_EQ(repetitions_for_case(50, -3.0, 2, note), 1);
}

TEST(Repetitions, NeverMoreThanTheCeilingEvenWithoutABudget) {
  std::string note;
  EXPECT_EQ(repetitions_for_case(1000000000, std::nullopt, 2, note), kMaxRepetitions);
  EXPECT_EQ(note, "1000000000 asked, at most 1000 per benchmark");
}

CaseList cases_of(std::initializer_list<double> seconds) {
  CaseList out;
  for (double s : seconds) {
    BenchCase c;
    c.id = "memory/x" + std::to_string(out.size());
    c.estimated_seconds = s;
    out.push_back(std::move(c));
  }
  return out;
}

TEST(Budget, ABudgetTooSmallForAnyBenchmarkIsAnInputError) {
  RunOptions o;
  o.time_budget_seconds = 3;  // 3 s - 2 s kept for the report < 1.5 s, the shortest case
  EXPECT_EQ(message_of([&] {
              check_budget_fits(o, cases_of({2, 1.5, 3}));
            }),
            "--time-budget 3 s leaves 3.0 s, too little for any benchmark planned: the shortest "
            "needs ~1.5 s, and 2 s are kept to write the report");
  o.time_budget_seconds = 4;  // 2 s left: the 1.5 s case fits
  EXPECT_NO_THROW(check_budget_fits(o, cases_of({2, 1.5, 3})));
  o.time_budget_seconds = 3;
  EXPECT_NO_THROW(check_budget_fits(o, {})) << "nothing left to run (a finished --resume)";
  o.check_budget = false;  // a MIG child: its parent decided
  EXPECT_NO_THROW(check_budget_fits(o, cases_of({2})));
}

TEST(Budget, ADeadlineTooCloseOrPastIsAnInputError) {
  RunOptions o;
  o.deadline = o.start + std::chrono::seconds(3);
  EXPECT_NE(message_of([&] {
              check_budget_fits(o, cases_of({2}));
            }).find("--deadline " + iso8601_utc(*o.deadline) + " leaves 3.0 s, too little"),
            std::string::npos);
  o.deadline = std::chrono::system_clock::now() - std::chrono::hours(1);
  EXPECT_EQ(message_of([&] {
              check_deadline_ahead(o);
            }).rfind("--deadline " + iso8601_utc(*o.deadline) + " is in the past (now ", 0),
            0u);
  o.deadline.reset();
  o.time_budget_seconds = 1;
  EXPECT_EQ(message_of([&] { check_deadline_ahead(o); }),
            "--time-budget 1 s: too short for any benchmark (2 s are kept to write the report)");
  o.time_budget_seconds = 600;
  EXPECT_NO_THROW(check_deadline_ahead(o));
}

TEST(Budget, TheDeadlineIsTheEarlierOfBudgetAndDeadline) {
  RunOptions o;
  EXPECT_FALSE(run_deadline(o).has_value());
  o.time_budget_seconds = 60;
  EXPECT_EQ(*run_deadline(o), o.start + std::chrono::seconds(60));
  o.deadline = o.start + std::chrono::seconds(30);
  EXPECT_EQ(*run_deadline(o), *o.deadline);
}

Record measured(const std::string& id, RecordStatus status) {
  Record r;
  r.id = id;
  r.status = status;
  return r;
}

TEST(Finish, StatusWarningAndHistorySayHowTheRunEnded) {
  RunOptions o;
  Report r = start_report(o);
  r.records = {measured("a", RecordStatus::ok)};
  finish_report(r, "");
  EXPECT_EQ(r.status, ReportStatus::complete);
  EXPECT_TRUE(r.warnings.empty());
  ASSERT_EQ(r.history.size(), 1u);
  EXPECT_EQ(r.history[0].records, std::vector<std::string>{"a"});

  Report stopped = start_report(o);
  stopped.not_run = {{"b", "interrupted by signal SIGTERM"}};
  finish_report(stopped, "interrupted by signal SIGTERM");
  EXPECT_EQ(stopped.status, ReportStatus::stopped);
  EXPECT_EQ(stopped.warnings,
            std::vector<std::string>{"run stopped: interrupted by signal SIGTERM"});
  EXPECT_EQ(stopped.history[0].stop_reason, "interrupted by signal SIGTERM");

  Report budget = start_report(o);
  budget.records = {measured("a", RecordStatus::ok)};
  budget.not_run = {{"b", "time budget: needs ~2 s, 0 s left"}};
  finish_report(budget, "");
  EXPECT_EQ(budget.status, ReportStatus::stopped)
      << "a report that lists benchmarks not run is incomplete";
  EXPECT_TRUE(budget.warnings.empty()) << "but this run was not stopped";

  Report empty = start_report(o);
  empty.records = {measured("a", RecordStatus::skipped)};
  finish_report(empty, "");
  EXPECT_EQ(empty.status, ReportStatus::empty) << "skipped records measured nothing";
}

class ResumeIdentity : public ::testing::Test {
 protected:
  void SetUp() override {
    file_ = std::filesystem::temp_directory_path() /
            ("gpusizer-resume-" + std::to_string(::getpid()) + ".json");
    Report r = start_report(RunOptions{});
    r.records = {measured("a", RecordStatus::skipped)};
    r.records[0].family = Family::memory;
    r.records[0].operation = "x";
    r.records[0].targets = {"cpu"};
    r.records[0].reason = "test";
    finish_report(r, "");
    report_ = r;
  }
  void TearDown() override { std::filesystem::remove(file_); }
  RunOptions resume(Report r, bool allow) {
    save_report(r, file_);
    RunOptions o;
    o.resume = file_;
    o.allow_mixed_resume = allow;
    return o;
  }
  std::filesystem::path file_;
  Report report_;
};

TEST_F(ResumeIdentity, AReportFromThisRunResumesAndGetsAHistoryEntry) {
  Report r = start_report(resume(report_, false));
  EXPECT_EQ(r.status, ReportStatus::running);
  ASSERT_EQ(r.history.size(), 2u);
  EXPECT_EQ(r.history[1].differs, "");
}

TEST_F(ResumeIdentity, AnotherHostIsRefusedInOneLineSayingWhatDiffers) {
  Report other = report_;
  other.host.hostname = "ip-10-0-0-7";
  const std::string msg = message_of([&] { start_report(resume(other, false)); });
  EXPECT_EQ(msg.rfind(file_.string() + ": --resume: host \"ip-10-0-0-7\" (report) vs \"" +
                          collect_host().hostname + "\" (here); pass --allow-mixed-resume",
                      0),
            0u)
      << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos);
}

TEST_F(ResumeIdentity, AFleetReportIsLeftToTheMpiRunThatWroteIt) {
  Report fleet = report_;
  Host a = fleet.host;
  a.id = a.hostname;
  a.ranks = {0, 1};
  fleet.hosts = {a};
  EXPECT_EQ(message_of([&] { start_report(resume(fleet, false)); }),
            file_.string() +
                ": --resume: a fleet report of 1 host(s) is continued only by the MPI run that "
                "wrote it, on the same hosts and ranks (mpirun ... gpusizer run --resume; "
                "docs/multi-node.md)");
}

TEST_F(ResumeIdentity, AnotherVersionOrSuiteIsRefused) {
  Report other = report_;
  other.tool.version = "0.0.1";
  EXPECT_NE(message_of([&] { start_report(resume(other, false)); }).find("gpusizer 0.0.1"),
            std::string::npos);
  RunOptions o = resume(report_, false);
  o.tiny = true;
  EXPECT_NE(message_of([&] { start_report(o); }).find("suite quick (report) vs quick-tiny (here)"),
            std::string::npos);
}

TEST_F(ResumeIdentity, AllowedMixesAreRecorded) {
  Report other = report_;
  other.host.hostname = "ip-10-0-0-7";
  Report r = start_report(resume(other, true));
  ASSERT_EQ(r.history.size(), 2u);
  EXPECT_NE(r.history[1].differs.find("host \"ip-10-0-0-7\" (report)"), std::string::npos);
  EXPECT_EQ(r.history[0].records, std::vector<std::string>{"a"});
  ASSERT_FALSE(r.warnings.empty());
  EXPECT_EQ(r.warnings.back().rfind("resumed with --allow-mixed-resume: host", 0), 0u);
}

TEST_F(ResumeIdentity, OtherGpuModelsAreRefusedOnceDiscovered) {
  Target h100;
  h100.id = "gpu0";
  h100.kind = TargetKind::gpu;
  h100.name = "NVIDIA H100";
  Target h200 = h100;
  h200.name = "NVIDIA H200";
  Report r = report_;
  r.targets = {h100};
  RunOptions o = resume(r, false);
  Report started = start_report(o);
  EXPECT_NE(message_of([&] {
              check_resumed_gpus(started, started.targets, {h200}, o);
            }).find("GPU models NVIDIA H100 (report) vs NVIDIA H200 (here)"),
            std::string::npos);
  EXPECT_NO_THROW(check_resumed_gpus(started, started.targets, {h100}, o));
  o.allow_mixed_resume = true;
  check_resumed_gpus(started, started.targets, {h200}, o);
  EXPECT_NE(started.history.back().differs.find("GPU models"), std::string::npos);
  EXPECT_EQ(started.history.back().devices, std::vector<std::string>{"gpu0: NVIDIA H200"});
}

}  // namespace
}  // namespace gpusizer::bench
