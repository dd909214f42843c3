// The idle rule of `monitor --idle-after`, on scripted rounds of readings (no NVML).
#include "gpusizer/telemetry/idle_watch.hpp"

#include <gtest/gtest.h>

namespace gpusizer::telemetry {
namespace {

IdleReading gpu(const char* name, double util, double mem) {
  return IdleReading{name, util, mem, false, std::nullopt};
}

IdlePolicy policy(double idle_after, double grace) {
  IdlePolicy p;
  p.idle_after_seconds = idle_after;
  p.grace_seconds = grace;
  return p;
}

// Idle, then busy, then idle: acts once, idle_after into the second idle stretch; the first
// stretch is inside the grace period.
TEST(IdleWatch, IdleBusyIdleActsOnceAtTheRightTime) {
  IdleWatch w(policy(60, 120));
  std::vector<double> fired;
  for (int t = 0; t <= 600; t += 10) {
    const bool busy = t >= 100 && t < 300;
    auto d = w.update(t, {gpu("GPU 0", busy ? 97 : 0, busy ? 40 : 0), gpu("GPU 1", 1, 0)});
    if (d) {
      fired.push_back(t);
      EXPECT_EQ(d->idle_since_seconds, 300);
      EXPECT_EQ(d->at_seconds, 360);
      EXPECT_NE(d->reason.find("all 2 GPU(s) idle"), std::string::npos) << d->reason;
      EXPECT_NE(d->reason.find("for 60.0 s"), std::string::npos) << d->reason;
    }
  }
  EXPECT_EQ(fired, std::vector<double>{360});  // t=60..90 was idle 60 s but inside the grace
}

TEST(IdleWatch, GracePeriodDelaysButDoesNotCancel) {
  IdleWatch w(policy(30, 100));
  for (int t = 0; t < 100; t += 10) EXPECT_FALSE(w.update(t, {gpu("GPU 0", 0, 0)})) << t;
  auto d = w.update(100, {gpu("GPU 0", 0, 0)});
  ASSERT_TRUE(d);
  EXPECT_EQ(d->idle_since_seconds, 0);
}

TEST(IdleWatch, OneBusyGpuOrOneBusyMemoryKeepsEveryGpu) {
  IdleWatch w(policy(20, 0));
  for (int t = 0; t <= 100; t += 10) {
    EXPECT_FALSE(w.update(t, {gpu("GPU 0", 0, 0), gpu("GPU 1", 0, 35)})) << t;  // memory busy
  }
  IdleWatch v(policy(20, 0));
  for (int t = 0; t <= 100; t += 10)
    EXPECT_FALSE(v.update(t, {gpu("GPU 0", 0, 0), gpu("GPU 1", 50, 0)})) << t;
}

TEST(IdleWatch, ThresholdsAreStrict) {
  IdlePolicy p = policy(10, 0);
  p.max_utilization_percent = 5;
  p.max_memory_activity_percent = 5;
  IdleWatch at(p);
  for (int t = 0; t <= 50; t += 10) EXPECT_FALSE(at.update(t, {gpu("GPU 0", 5, 0)}));
  IdleWatch under(p);
  EXPECT_FALSE(under.update(0, {gpu("GPU 0", 4.9, 4.9)}));
  EXPECT_TRUE(under.update(10, {gpu("GPU 0", 4.9, 4.9)}));
}

// A GPU whose utilization NVML does not give (a MIG GPU) can never be called idle: the rule
// does not act, and says why.
TEST(IdleWatch, AnUnknownReadingIsNeverIdle) {
  IdleWatch w(policy(10, 0));
  for (int t = 0; t <= 100; t += 10) {
    EXPECT_FALSE(w.update(
        t, {gpu("GPU 0", 0, 0), IdleReading{"GPU 1 (MIG)", std::nullopt, 0, false, std::nullopt}}));
    EXPECT_NE(w.undecidable().find("GPU 1 (MIG)"), std::string::npos);
  }
  EXPECT_FALSE(w.update(110, {}));  // no GPU left (all lost): not idle either
  EXPECT_EQ(w.undecidable(), "no GPU gave a reading");
}

IdleReading slice(const char* name, std::optional<double> memory_used_mib) {
  return IdleReading{name, std::nullopt, std::nullopt, true, memory_used_mib};
}

// A MIG GPU is idle only when every slice is: a slice without utilization (most drivers) is
// judged by its memory used, strictly under --idle-mig-memory (default 1024 MiB).
TEST(IdleWatch, MigSlicesWithoutUtilizationAreJudgedByMemoryUsed) {
  IdlePolicy p = policy(20, 0);
  EXPECT_EQ(p.max_mig_memory_used_mib, 1024);
  IdleWatch w(p);
  std::vector<double> fired;
  for (int t = 0; t <= 200; t += 10) {
    const bool loaded = t < 100;  // one slice holds a model until t = 100, the other is empty
    auto d = w.update(t, {gpu("GPU 1", 0, 0), slice("GPU 0 MIG 3g GI 1", loaded ? 20000 : 13),
                          slice("GPU 0 MIG 1g GI 13", 1023.9)});
    if (d) {
      fired.push_back(t);
      EXPECT_EQ(d->idle_since_seconds, 100);
      EXPECT_NE(d->reason.find("all 1 GPU(s) and 2 MIG slice(s) idle"), std::string::npos)
          << d->reason;
      EXPECT_NE(d->reason.find("2 MIG slice(s) without utilization: memory used < 1024 MiB"),
                std::string::npos)
          << d->reason;
    }
  }
  EXPECT_EQ(fired, std::vector<double>{120});
  // At the threshold is not under it.
  IdleWatch at(p);
  for (int t = 0; t <= 100; t += 10) EXPECT_FALSE(at.update(t, {slice("s", 1024)})) << t;
  // Only slices (the machine's one GPU is in MIG mode): said so.
  IdleWatch only(policy(10, 0));
  EXPECT_FALSE(only.update(0, {slice("a", 1), slice("b", 2)}));
  auto d = only.update(10, {slice("a", 1), slice("b", 2)});
  ASSERT_TRUE(d);
  EXPECT_EQ(d->reason.rfind("all 2 MIG slice(s) idle", 0), 0u) << d->reason;
}

// A slice with utilization (a driver that gives it) is judged by utilization like a GPU, even
// with memory in use; a slice with neither figure cannot be called idle.
TEST(IdleWatch, MigSliceUtilizationWinsAndNoFigureIsUndecidable) {
  IdleWatch w(policy(10, 0));
  const IdleReading busy{"GPU 0 MIG 1g GI 13", 80, 10, true, 100};
  for (int t = 0; t <= 50; t += 10) EXPECT_FALSE(w.update(t, {busy})) << t;
  IdleWatch v(policy(10, 0));
  const IdleReading idle_with_memory{"GPU 0 MIG 1g GI 13", 0, 0, true, 60000};
  EXPECT_FALSE(v.update(0, {idle_with_memory}));
  EXPECT_TRUE(v.update(10, {idle_with_memory}));
  IdleWatch u(policy(10, 0));
  for (int t = 0; t <= 50; t += 10) {
    EXPECT_FALSE(u.update(t, {gpu("GPU 1", 0, 0), slice("GPU 0 MIG 7g GI 0", std::nullopt)}));
    EXPECT_EQ(u.undecidable(), "GPU 0 MIG 7g GI 0: neither utilization nor memory used available");
  }
}

TEST(IdleWatch, OffWhenIdleAfterIsZero) {
  IdleWatch w(IdlePolicy{});
  for (int t = 0; t <= 1000; t += 100) EXPECT_FALSE(w.update(t, {gpu("GPU 0", 0, 0)}));
}

}  // namespace
}  // namespace gpusizer::telemetry
