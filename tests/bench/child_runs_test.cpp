// MIG orchestration exercised with the CPU backend: children that succeed, crash and hang.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>

#include "gpusizer/bench/child_runs.hpp"

namespace gpusizer::bench {
namespace {

Target slice(const std::string& profile, int gi) {
  Target t;
  t.id = "gpu0/mig-" + profile + "-gi" + std::to_string(gi) + "-ci0";
  t.kind = TargetKind::mig;
  t.name = "NVIDIA H200 MIG " + profile;
  t.parent = "gpu0";
  t.mig_profile = profile;
  t.uuid = "MIG-fake-" + std::to_string(gi);
  return t;
}

class ChildRuns : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("gpusizer-children-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // A real gpusizer child on the CPU backend; the "slice" is seen as target "cpu" there.
  ChildSpec good(const std::string& profile, int gi) {
    ChildSpec s;
    s.target = slice(profile, gi);
    s.report = dir_ / (profile + std::to_string(gi) + ".json");
    s.argv = {GPUSIZER_BINARY, "run",           "--tiny",
              "--no-gpu",      "--no-progress", "--no-telemetry",
              "--filter",      "stream_triad",  "--mig-mode",
              "off",           "--out",         s.report.string()};
    s.child_target_id = "cpu";
    return s;
  }
  ChildSpec shell(const std::string& profile, int gi, const std::string& script) {
    ChildSpec s;
    s.target = slice(profile, gi);
    s.report = dir_ / (profile + std::to_string(gi) + ".json");
    s.argv = {"/bin/sh", "-c", script};
    return s;
  }
  std::filesystem::path dir_;
};

TEST_F(ChildRuns, IsolatedChildrenSucceedCrashAndHangWithoutStoppingTheParent) {
  std::vector<ChildSpec> specs{good("3g.71gb", 1), shell("2g.35gb", 2, "kill -SEGV $$"),
                               shell("1g.18gb", 3, "exec sleep 120"), good("1g.18gb", 4)};
  auto start = std::chrono::steady_clock::now();
  // A timeout a loaded CI machine cannot miss for the good children (each runs the real binary);
  // the hanging one sleeps far longer than it.
  auto results = run_children(specs, /*concurrent=*/false, /*timeout_seconds=*/8.0);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(results.size(), 4u);
  EXPECT_EQ(results[0].failure, "");
  EXPECT_EQ(results[0].records.size(), 1u);
  EXPECT_EQ(results[1].exit_code, 128 + 11);
  EXPECT_NE(results[1].failure.find("killed by signal 11"), std::string::npos);
  EXPECT_NE(results[2].failure.find("timed out"), std::string::npos) << results[2].failure;
  EXPECT_EQ(results[3].failure, "");
  EXPECT_LT(took, 60.0);  // the hang was stopped, not waited for

  Report parent;
  for (const auto& r : results) merge_child_result(parent, r, Concurrency::isolated);
  // Two good children, one record each, renamed to their slice, carrying the mode.
  ASSERT_EQ(parent.records.size(), 2u);
  EXPECT_EQ(parent.records[0].targets, std::vector<std::string>{"gpu0/mig-3g.71gb-gi1-ci0"});
  EXPECT_EQ(parent.records[0].id,
            "memory/stream_triad/gpu0/mig-3g.71gb-gi1-ci0/bytes=1048576/mode=isolated");
  EXPECT_EQ(parent.records[0].concurrency, Concurrency::isolated);
  EXPECT_EQ(parent.targets.size(), 4u);
  ASSERT_EQ(parent.warnings.size(), 2u);
  EXPECT_NE(parent.warnings[0].find("gpu0/mig-2g.35gb-gi2-ci0 (isolated)"), std::string::npos);
}

TEST_F(ChildRuns, ConcurrentChildrenRunTogether) {
  std::vector<ChildSpec> specs{shell("1g.18gb", 1, "sleep 1"), shell("1g.18gb", 2, "sleep 1"),
                               shell("1g.18gb", 3, "sleep 1")};
  auto start = std::chrono::steady_clock::now();
  auto results = run_children(specs, /*concurrent=*/true, 10.0);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(took, 2.5);  // three 1 s children at once, not 3 s one after another
  for (const auto& r : results) EXPECT_EQ(r.failure, "child wrote no report");
}

// The start barrier: one child's setup takes 1.5 s longer (a shell waits before starting
// gpusizer); the other, ready at once, must not start measuring before it.
TEST_F(ChildRuns, ConcurrentChildrenStartMeasuringAfterTheLastIsReady) {
  ChildSpec fast = good("1g.18gb", 1);
  ChildSpec slow = good("1g.18gb", 2);
  std::string command = "sleep 1.5; exec";
  for (const auto& a : slow.argv) command += " '" + a + "'";
  slow.argv = {"/bin/sh", "-c", command};
  auto results = run_children({fast, slow}, /*concurrent=*/true, 60.0);
  ASSERT_EQ(results.size(), 2u);
  std::string last_ready;
  for (const auto& r : results) {
    ASSERT_EQ(r.failure, "");
    ASSERT_TRUE(r.start_barrier.has_value());
    const StartBarrierResult& b = *r.start_barrier;
    EXPECT_EQ(b.setup_error, "");
    EXPECT_TRUE(b.reached);
    EXPECT_EQ(b.children, 2u);
    EXPECT_EQ(b.children_ready, 2u);
    EXPECT_FALSE(b.timed_out);
    EXPECT_GE(b.released_after_seconds, b.ready_after_seconds);
    last_ready = std::max(last_ready, b.ready_at);
  }
  EXPECT_GT(results[1].start_barrier->ready_after_seconds,
            results[0].start_barrier->ready_after_seconds + 1.0);
  for (const auto& r : results) {
    ASSERT_FALSE(r.records.empty());
    // ISO 8601 UTC timestamps with milliseconds, all in one format: ordered as text.
    for (const auto& rec : r.records) {
      EXPECT_GE(rec.started_at, last_ready) << r.target.id;
      EXPECT_GE(rec.started_at, r.start_barrier->released_at) << r.target.id;
    }
  }
  Report parent;
  for (const auto& r : results) merge_child_result(parent, r, Concurrency::concurrent);
  EXPECT_TRUE(parent.warnings.empty()) << parent.warnings.front();
  for (const auto& r : results) {
    const auto& j = parent.target_telemetry.at(r.target.id).at("concurrent_start_barrier");
    EXPECT_TRUE(j.at("reached").get<bool>());
    EXPECT_EQ(j.at("slices_ready").get<int>(), 2);
    EXPECT_GE(j.at("waited_seconds").get<double>(), 0.0);
  }
  ASSERT_FALSE(parent.records.empty());
  EXPECT_NE(parent.records[0].details.at("start_barrier").find("2 of 2 slices ready"),
            std::string::npos)
      << parent.records[0].details.at("start_barrier");
}

TEST_F(ChildRuns, TheStartBarrierIsReleasedByItsTimeoutAndSaysWhoMissedIt) {
  // The second child never gets ready (nor exits before the child timeout).
  std::vector<ChildSpec> specs{good("1g.18gb", 1), shell("1g.18gb", 2, "exec sleep 30")};
  auto start = std::chrono::steady_clock::now();
  // The good child starts the real binary (discovery, idle power): 4 s to reach the barrier even
  // on a loaded 2-core machine.
  auto results = run_children(specs, true, /*timeout_seconds=*/10.0, /*barrier_timeout=*/4.0);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(took, 30.0);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].failure, "");
  EXPECT_FALSE(results[0].records.empty());
  EXPECT_TRUE(results[0].start_barrier->reached);
  EXPECT_FALSE(results[1].start_barrier->reached);
  EXPECT_TRUE(results[0].start_barrier->timed_out);
  EXPECT_EQ(results[0].start_barrier->children_ready, 1u);
  EXPECT_GE(results[0].start_barrier->released_after_seconds, 4.0);
  Report parent;
  for (const auto& r : results) merge_child_result(parent, r, Concurrency::concurrent);
  bool said = false;
  for (const auto& w : parent.warnings)
    said = said ||
           w.find("start barrier released with 1 of 2 slices ready (timeout)") != std::string::npos;
  EXPECT_TRUE(said) << ::testing::PrintToString(parent.warnings);
}

TEST_F(ChildRuns, IsolatedChildrenHaveNoStartBarrier) {
  auto results = run_children({good("1g.18gb", 1)}, false, 30.0);
  EXPECT_FALSE(results[0].start_barrier.has_value());
}

TEST_F(ChildRuns, AChildThatMeasuresNothingIsSaidWithItsReason) {
  // A child whose filter matches nothing on its target exits 0 with an empty report.
  ChildSpec spec = good("1g.18gb", 5);
  spec.argv[7] = "no-such-benchmark";  // the --filter value
  auto results = run_children({spec}, false, 30.0);
  ASSERT_EQ(results[0].failure, "");
  EXPECT_TRUE(results[0].records.empty());
  Report parent;
  merge_child_result(parent, results[0], Concurrency::isolated);
  ASSERT_EQ(parent.warnings.size(), 1u);
  EXPECT_NE(parent.warnings[0].find("gpu0/mig-1g.18gb-gi5-ci0 (isolated): the child measured "
                                    "nothing"),
            std::string::npos)
      << parent.warnings[0];
}

TEST_F(ChildRuns, MissingProgramIsAFailureNotACrash) {
  ChildSpec s = shell("1g.18gb", 1, "");
  s.argv = {"/nonexistent/gpusizer"};
  auto results = run_children({s}, false, 1.0);
  EXPECT_NE(results[0].failure.find("cannot start /nonexistent/gpusizer"), std::string::npos);
}

TEST(ChildMerge, AChildThatNamedItsSliceByUuidIsMergedPerMode) {
  // The child matched its CUDA device's UUID with NVML and named it as the parent does; the
  // isolated and concurrent records stay apart (each id carries its mode).
  ChildResult res;
  res.target = slice("1g.18gb", 13);
  Target seen = res.target;
  res.child_targets = {seen};
  Record r;
  r.id = "memory/stream_triad/gpu0/mig-1g.18gb-gi13-ci0/bytes=1048576";
  r.targets = {seen.id};
  r.status = RecordStatus::ok;
  res.records = {r};
  Report parent;
  merge_child_result(parent, res, Concurrency::isolated);
  merge_child_result(parent, res, Concurrency::concurrent);
  ASSERT_EQ(parent.records.size(), 2u);
  EXPECT_EQ(parent.records[0].id,
            "memory/stream_triad/gpu0/mig-1g.18gb-gi13-ci0/bytes=1048576/mode=isolated");
  EXPECT_EQ(parent.records[1].id,
            "memory/stream_triad/gpu0/mig-1g.18gb-gi13-ci0/bytes=1048576/mode=concurrent");
  EXPECT_TRUE(parent.warnings.empty());
  // A name the child chose without NVML ("mig-unknown-<uuid>") is still the slice's.
  ChildResult unnamed = res;
  unnamed.child_targets.front().id = "mig-unknown-50000000";
  unnamed.records.front().id = "memory/stream_triad/mig-unknown-50000000/bytes=1048576";
  unnamed.records.front().targets = {"mig-unknown-50000000"};
  Report other;
  merge_child_result(other, unnamed, Concurrency::isolated);
  ASSERT_EQ(other.records.size(), 1u);
  EXPECT_EQ(other.records[0].targets, std::vector<std::string>{"gpu0/mig-1g.18gb-gi13-ci0"});
}

TEST(ChildMerge, WhatAStoppedChildDidNotRunIsNotRunInTheParent) {
  ChildResult res;
  res.target = slice("1g.18gb", 13);
  res.child_targets = {res.target};
  res.child_targets.front().id = "mig-unknown-50000000";
  res.not_run = {{"gemm/bf16/mig-unknown-50000000/m=64", "interrupted by signal SIGTERM"}};
  res.stopped = true;
  ChildResult later;
  later.target = slice("2g.35gb", 14);
  later.not_started = true;
  later.not_run_reason = "interrupted by signal SIGTERM";
  Report parent;
  merge_child_result(parent, res, Concurrency::isolated);
  merge_child_result(parent, later, Concurrency::isolated);
  using Entry = std::pair<std::string, std::string>;
  EXPECT_EQ(parent.not_run,
            (std::vector<Entry>{
                {"gemm/bf16/gpu0/mig-1g.18gb-gi13-ci0/m=64/mode=isolated",
                 "interrupted by signal SIGTERM"},
                {"mig/gpu0/mig-2g.35gb-gi14-ci0/mode=isolated", "interrupted by signal SIGTERM"}}));
  EXPECT_TRUE(parent.warnings.empty()) << "a stop is not a failure, nor an empty child";
  EXPECT_EQ(parent.targets.size(), 2u);
}

TEST_F(ChildRuns, AStopRequestIsForwardedToTheRunningChildren) {
  // Each child stops on SIGTERM as gpusizer does: it says so and exits 3 (stopped).
  auto script = [&](const std::string& name) {
    const std::string mark = (dir_ / name).string();
    return "trap 'kill $p; touch \"" + mark +
           ".stopped\"; exit 3' TERM; sleep 60 & p=$!; touch \"" + mark + ".started\"; wait";
  };
  std::vector<ChildSpec> specs{shell("1g.18gb", 1, script("a")), shell("1g.18gb", 2, script("b"))};
  std::atomic<bool> stop{false};
  std::thread parent_signal([&] {  // the parent's SIGTERM, once both children run
    while (!std::filesystem::exists(dir_ / "a.started") ||
           !std::filesystem::exists(dir_ / "b.started")) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    stop.store(true);
  });
  auto results = run_children(specs, /*concurrent=*/true, /*timeout_seconds=*/120, 120, &stop);
  parent_signal.join();
  ASSERT_EQ(results.size(), 2u);
  for (const auto& r : results) {
    EXPECT_TRUE(r.stopped) << r.target.id;
    EXPECT_EQ(r.exit_code, 3);
    EXPECT_EQ(r.failure, "") << "a child stopped for its parent did not fail";
  }
  EXPECT_TRUE(std::filesystem::exists(dir_ / "a.stopped")) << "SIGTERM was not forwarded";
  EXPECT_TRUE(std::filesystem::exists(dir_ / "b.stopped")) << "SIGTERM was not forwarded";
}

TEST_F(ChildRuns, NoChildStartsOnceTheParentIsStopping) {
  std::atomic<bool> stop{true};
  const std::string mark = (dir_ / "ran").string();
  for (bool concurrent : {false, true}) {
    auto results =
        run_children({shell("1g.18gb", 1, "touch '" + mark + "'")}, concurrent, 30, 120, &stop);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_TRUE(results[0].not_started);
    EXPECT_FALSE(std::filesystem::exists(mark));
  }
}

TEST_F(ChildRuns, StoppedAndEmptyChildrenAreNotFailures) {
  auto results = run_children(
      {shell("1g.18gb", 1, "exit 3"), shell("1g.18gb", 2, "exit 4"), shell("1g.18gb", 3, "exit 2")},
      false, 30);
  EXPECT_TRUE(results[0].stopped);
  EXPECT_EQ(results[0].failure, "") << "stopped before it wrote anything";
  EXPECT_FALSE(results[1].stopped);
  EXPECT_EQ(results[1].failure, "child wrote no report");
  EXPECT_EQ(results[2].failure, "child exited with code 2");
}

}  // namespace
}  // namespace gpusizer::bench
