// The steps of `gpusizer run` outside the measurement itself: which MIG slices run in which mode
// and turn, and what a stopped parent records for them; what a resumed report still has to
// measure and which of its settings apply; the budget check that passes over a case that no
// longer fits while later, shorter ones run; progress in the table's units; the closing line.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <sstream>

#include "gpusizer/bench/mig_runs.hpp"
#include "gpusizer/bench/progress.hpp"
#include "gpusizer/bench/record_builder.hpp"
#include "gpusizer/bench/resume.hpp"
#include "gpusizer/bench/run_control.hpp"
#include "gpusizer/bench/run_finish.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/exit_codes.hpp"
#include "gpusizer/report_io.hpp"

namespace gpusizer::bench {
namespace {

Target slice(const std::string& id) {
  Target t;
  t.id = id;
  t.kind = TargetKind::mig;
  t.uuid = "MIG-" + id;
  return t;
}

Record record(const std::string& id, const std::string& target = "cpu",
              Concurrency mode = Concurrency::not_stated) {
  Record r;
  r.id = id;
  r.targets = {target};
  r.concurrency = mode;
  r.status = RecordStatus::ok;
  return r;
}

BenchCase bench_case(const std::string& id, int priority = 1, double seconds = 1) {
  BenchCase c;
  c.id = id;
  c.priority = priority;
  c.estimated_seconds = seconds;
  return c;
}

std::vector<std::string> ids_of(const CaseList& cases) {
  std::vector<std::string> out;
  for (const auto& c : cases) out.push_back(c.id);
  return out;
}

// --- MIG partition ---------------------------------------------------------------------------

TEST(MigPartition, ModesFromTheFlag) {
  EXPECT_EQ(mig_modes("both"),
            (std::vector<Concurrency>{Concurrency::isolated, Concurrency::concurrent}));
  EXPECT_EQ(mig_modes("concurrent"), (std::vector<Concurrency>{Concurrency::concurrent}));
  EXPECT_TRUE(mig_modes("off").empty());
  try {
    mig_modes("all");
    FAIL() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "--mig-mode: expected isolated, concurrent, both or off, got \"all\"");
  }
}

TEST(MigPartition, IsolatedIsATurnPerSliceConcurrentOneTurnForAll) {
  const std::vector<Target> slices{slice("gpu0/mig1"), slice("gpu0/mig2"), slice("gpu0/mig3")};
  const auto runs =
      mig_partition(slices, {Concurrency::isolated, Concurrency::concurrent}, Report{});
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].mode, Concurrency::isolated);
  EXPECT_EQ(runs[0].slices.size(), 3u);
  EXPECT_EQ(runs[0].turns(), 3u);
  EXPECT_EQ(runs[1].mode, Concurrency::concurrent);
  EXPECT_EQ(runs[1].turns(), 1u);
  // 3 + 1 turns share 80 s: 20 s each, whatever mode the turn is.
  EXPECT_DOUBLE_EQ(child_time_share(80, 4), 20);
  EXPECT_DOUBLE_EQ(child_time_share(-5, 2), 0);
}

TEST(MigPartition, AResumedReportSkipsWhatItMeasuredUnlessItWasCutShort) {
  const std::vector<Target> slices{slice("gpu0/mig1"), slice("gpu0/mig2")};
  Report report;
  report.records = {
      record("memory/d2d/gpu0/mig1/bytes=1/mode=isolated", "gpu0/mig1", Concurrency::isolated),
      record("memory/d2d/gpu0/mig2/bytes=1/mode=isolated", "gpu0/mig2", Concurrency::isolated),
      record("memory/d2d/gpu0/mig1/bytes=1/mode=concurrent", "gpu0/mig1", Concurrency::concurrent)};
  // mig2's isolated child was stopped: its not-run entry brings it back.
  report.not_run = {{"memory/d2d/gpu0/mig2/bytes=2/mode=isolated", "interrupted"}};
  const auto runs = mig_partition(slices, {Concurrency::isolated, Concurrency::concurrent}, report);
  ASSERT_EQ(runs.size(), 2u);
  ASSERT_EQ(runs[0].slices.size(), 1u);
  EXPECT_EQ(runs[0].slices[0].id, "gpu0/mig2");
  ASSERT_EQ(runs[1].slices.size(), 1u);
  EXPECT_EQ(runs[1].slices[0].id, "gpu0/mig2");
  EXPECT_EQ(runs[1].turns(), 1u);
  // Everything measured: nothing to run, no turn.
  report.not_run.clear();
  report.records.push_back(record("x/mode=concurrent", "gpu0/mig2", Concurrency::concurrent));
  EXPECT_TRUE(
      mig_partition(slices, {Concurrency::isolated, Concurrency::concurrent}, report).empty());
}

TEST(MigPartition, TheChildCommandLineCarriesThePlanAndItsShare) {
  MigRunSettings s;
  s.suite = "standard";
  s.tiny = true;
  s.filter = "^memory/";
  s.benchmark_args = {"--benchmark_repetitions=2"};
  const SystemTime deadline = parse_utc_time("2026-12-01T11:00:00Z", "test");
  EXPECT_EQ(child_argv("/bin/gpusizer", s, "/r/.x.json", deadline),
            (std::vector<std::string>{
                "/bin/gpusizer", "run", "--child", "--no-cpu", "--no-progress", "--suite",
                "standard", "--out", "/r/.x.json", "--tiny", "--filter=^memory/",
                "--deadline=2026-12-01T11:00:00.000Z", "--benchmark_repetitions=2"}));
}

TEST(MigPartition, AStoppedParentRecordsEverySliceAndModeAsNotRun) {
  const auto file =
      std::filesystem::path(GPUSIZER_BINARY_DIR) / "tests" / "bench" / "mig-stopped-parent.json";
  RunResult result;
  result.report.status = ReportStatus::running;
  result.report.history.emplace_back();
  result.stop_cause = "interrupted by signal SIGTERM";
  MigRunSettings s;
  s.modes = {Concurrency::isolated, Concurrency::concurrent};
  finish_with_mig_children({slice("gpu0/mig1"), slice("gpu0/mig2")}, s, result, file);
  std::vector<std::string> not_run;
  for (const auto& [id, why] : result.report.not_run) {
    not_run.push_back(id);
    EXPECT_EQ(why, "interrupted by signal SIGTERM");
  }
  EXPECT_EQ(not_run, (std::vector<std::string>{
                         "mig/gpu0/mig1/mode=isolated", "mig/gpu0/mig1/mode=concurrent",
                         "mig/gpu0/mig2/mode=isolated", "mig/gpu0/mig2/mode=concurrent"}));
  EXPECT_EQ(result.report.status, ReportStatus::stopped);
  EXPECT_EQ(load_report(file).status, ReportStatus::stopped);  // finished and saved
  std::filesystem::remove(file);
}

// --- resume merge ----------------------------------------------------------------------------

TEST(ResumeMerge, OnlyWhatTheReportLacksRunsAndLeavesNotRun) {
  Report report;
  report.records = {record("memory/a"), record("memory/b")};
  report.records[1].flags = {kCutShortFlag};  // measured again
  report.not_run = {{"memory/c", "time budget"}, {"gemm/x", "time budget"}};
  CaseList planned{bench_case("memory/a"), bench_case("memory/b"), bench_case("memory/c"),
                   bench_case("memory/d"), bench_case("gemm/x")};
  const CaseList cases = cases_to_run(std::move(planned), CaseFilter("^memory/"), report);
  EXPECT_EQ(ids_of(cases), (std::vector<std::string>{"memory/b", "memory/c", "memory/d"}));
  // memory/c runs now; gemm/x is filtered out and stays not run.
  ASSERT_EQ(report.not_run.size(), 1u);
  EXPECT_EQ(report.not_run[0].first, "gemm/x");
  EXPECT_EQ(report.records.size(), 2u);  // the runner replaces memory/b when it is measured
}

TEST(ResumeMerge, ANegatedFilterExcludes) {
  Report report;
  const CaseList cases =
      cases_to_run({bench_case("io/a"), bench_case("gemm/b")}, CaseFilter("-^io/"), report);
  EXPECT_EQ(ids_of(cases), (std::vector<std::string>{"gemm/b"}));
  EXPECT_THROW(CaseFilter("(("), InputError);
}

TEST(ResumeMerge, TheReportsSettingsApplyUnlessGivenAgain) {
  const nlohmann::json settings = {{"suite", "standard"},
                                   {"filter", "^gemm/"},
                                   {"io_directory", "/mnt/nvme"},
                                   {"tiny", true},
                                   {"benchmark_flags", {"--benchmark_repetitions=3"}}};
  RunRequest plain;
  inherit_settings(plain, settings);
  EXPECT_EQ(plain.suite, "standard");
  EXPECT_EQ(plain.filter, "^gemm/");
  EXPECT_EQ(plain.io_dir, "/mnt/nvme");
  EXPECT_TRUE(plain.tiny);
  EXPECT_EQ(plain.benchmark_args, (std::vector<std::string>{"--benchmark_repetitions=3"}));

  RunRequest given;
  given.suite = "quick";
  given.filter = "^memory/";
  given.given = {"--suite", "--filter"};
  given.benchmark_args = {"--benchmark_min_time=1"};
  inherit_settings(given, settings);
  EXPECT_EQ(given.suite, "quick");
  EXPECT_EQ(given.filter, "^memory/");
  EXPECT_EQ(given.io_dir, "/mnt/nvme");
  EXPECT_EQ(given.benchmark_args, (std::vector<std::string>{"--benchmark_min_time=1"}));
}

// --- budget ordering -------------------------------------------------------------------------

TEST(BudgetOrdering, ALongCaseThatNoLongerFitsIsPassedOverTheShorterOnesStillRun) {
  const SystemTime deadline = parse_utc_time("2026-12-01T11:00:00Z", "test");
  // Priority order (plan_cases): the headline first, then a long and a short sweep case.
  const CaseList cases{bench_case("gemm/headline", 0, 6), bench_case("gemm/long", 1, 8),
                       bench_case("memory/short", 1, 3)};
  double left = 12;
  std::vector<std::string> ran;
  std::vector<std::string> refused;
  for (const auto& c : cases) {
    const std::string why = budget_refusal(c.estimated_seconds, left, deadline);
    if (!why.empty()) {
      refused.push_back(c.id + ": " + why);
      continue;
    }
    ran.push_back(c.id);
    left -= c.estimated_seconds;
  }
  EXPECT_EQ(ran, (std::vector<std::string>{"gemm/headline", "memory/short"}));
  EXPECT_EQ(refused,
            (std::vector<std::string>{"gemm/long: time budget: needs ~8 s, 6 s left before "
                                      "2026-12-01T11:00:00.000Z"}));
  // Exactly enough fits; a negative time left is shown as 0.
  EXPECT_EQ(budget_refusal(3, 3, deadline), "");
  EXPECT_EQ(budget_refusal(3, -1, deadline),
            "time budget: needs ~3 s, 0 s left before 2026-12-01T11:00:00.000Z");
}

TEST(BudgetOrdering, SamplingNeverRunsPastTheDeadline) {
  EXPECT_DOUBLE_EQ(sampling_cap_for(15, 300), 15);    // far: the policy's own cap
  EXPECT_DOUBLE_EQ(sampling_cap_for(15, 30), 10);     // a third of the time left
  EXPECT_DOUBLE_EQ(sampling_cap_for(15, 0.1), 0.05);  // never below 50 ms
}

// --- progress --------------------------------------------------------------------------------

TEST(RunProgress, StyleFollowsTheFlagsAndTheTerminal) {
  EXPECT_EQ(progress_style(-1, false), ProgressStyle::off);
  EXPECT_EQ(progress_style(-1, true), ProgressStyle::one_line);
  EXPECT_EQ(progress_style(1, false), ProgressStyle::lines);
  EXPECT_EQ(progress_style(1, true), ProgressStyle::one_line);
  EXPECT_EQ(progress_style(0, true), ProgressStyle::off);
}

TEST(RunProgress, LinesKeepEveryLine) {
  std::ostringstream err;
  {
    Progress p(ProgressStyle::lines, err, 2);
    p.begin(0, bench_case("gemm/fp64/cpu"), 5);
    p.note("ok");
  }
  EXPECT_EQ(err.str().find('\r'), std::string::npos);
  EXPECT_NE(err.str().find("[1/2] gemm/fp64/cpu  (elapsed "), std::string::npos) << err.str();
  EXPECT_NE(err.str().find("\n  ok\n"), std::string::npos) << err.str();
}

TEST(RunProgress, OnATerminalOneLineIsRewrittenWithACountdown) {
  std::ostringstream err;
  const SystemTime deadline = std::chrono::system_clock::now() + std::chrono::seconds(600);
  {
    Progress p(ProgressStyle::one_line, err, 3, deadline);
    p.begin(1, bench_case("memory/memcpy/cpu"), 5);
    p.note("ok 12.3 GB/s, verification passed");
  }
  const std::string text = err.str();
  EXPECT_EQ(text.rfind("\r[2/3] memory/memcpy/cpu  (elapsed ", 0), 0u) << text;
  EXPECT_NE(text.find("deadline in "), std::string::npos) << text;
  EXPECT_NE(text.find("\x1b[K\r  ok 12.3 GB/s"), std::string::npos) << text;
  // One newline, at the end: the line is closed for whatever follows.
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1);
  EXPECT_EQ(text.back(), '\n');
}

TEST(RunProgress, TheSummaryUsesTheTablesUnit) {
  Record r = record("gemm/fp32/cpu/small");
  r.metrics = {Metric{"throughput", 104.7e9, "FLOP/s", ""}};
  r.verification.status = VerificationStatus::passed;
  // The table printed "104.7 GFLOP/s" for this record; progress once said "0.105 TFLOP/s".
  EXPECT_EQ(one_line_summary(r), "ok 104.7 GFLOP/s, verification passed");
  r.metrics = {Metric{"bandwidth", 2.5e12, "B/s", ""}};
  EXPECT_EQ(one_line_summary(r), "ok 2.500 TB/s, verification passed");
  r.status = RecordStatus::skipped;
  r.reason = "no peer access";
  EXPECT_EQ(one_line_summary(r), "skipped: no peer access");
}

// --- the end of a run ------------------------------------------------------------------------

TEST(RunConclusion, StoppedEmptyAndDone) {
  RunResult r;
  r.report.status = ReportStatus::complete;
  r.report.records = {record("a")};
  RunConclusion c = conclude(r, "r.json", true, false, true);
  EXPECT_EQ(c.line, "report: r.json (1 records, status complete)");
  EXPECT_EQ(c.exit_code, kExitOk);

  r.stop_cause = "time budget: deadline reached during a";
  r.report.status = ReportStatus::stopped;
  r.report.not_run = {{"b", "x"}};
  c = conclude(r, "r.json", true, false, true);
  EXPECT_EQ(c.line,
            "report: r.json (1 records, status stopped: time budget: deadline reached during a; "
            "1 not run; gpusizer run --resume r.json continues it)");
  EXPECT_EQ(c.exit_code, kExitStopped);

  RunResult empty;
  empty.report.status = ReportStatus::empty;
  c = conclude(empty, "e.json", false, true, false);
  EXPECT_EQ(c.line,
            "gpusizer: nothing was measured (no target: the CPU was skipped with --no-cpu; GPUs "
            "were skipped with --no-gpu); report: e.json (0 records, status empty)");
  EXPECT_EQ(c.exit_code, kExitEmpty);
  empty.exit_code = 1;
  EXPECT_EQ(conclude(empty, "e.json", false, true, false).exit_code, kExitFailure);
}

}  // namespace
}  // namespace gpusizer::bench
