// One writer per report: the lock beside it, its message, and a lock file left by a killed run.
#include "gpusizer/report_lock.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "gpusizer/error.hpp"

namespace gpusizer {
namespace {

namespace fs = std::filesystem;

class ReportLockDir : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = std::string(GPUSIZER_BINARY_DIR) + "/report-lock-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(ReportLockDir, ASecondWriterIsRefusedWithTheHolderNamed) {
  const fs::path report = dir_ / "r.json";
  ReportLock first = ReportLock::acquire(report);
  EXPECT_EQ(first.path(), dir_ / ".r.json.lock");
  EXPECT_TRUE(fs::exists(first.path()));
  try {
    ReportLock second = ReportLock::acquire(report);
    FAIL() << "two writers held the lock of one report";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(report.string() + ": another gpusizer run (pid " +
                       std::to_string(::getpid()) + ") is writing this report"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find(".r.json.lock is locked"), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << "one line";
  }
  // Another report in the same folder is another lock.
  EXPECT_NO_THROW(ReportLock::acquire(dir_ / "other.json"));
}

TEST_F(ReportLockDir, TheLockFileGoesWithTheLockAndALeftoverIsTakenOver) {
  const fs::path report = dir_ / "r.json";
  { ReportLock lock = ReportLock::acquire(report); }
  EXPECT_FALSE(fs::exists(ReportLock::lock_file_for(report))) << "lock file left behind";
  // What a kill -9 leaves: the file, without its lock (the kernel dropped it).
  std::ofstream(ReportLock::lock_file_for(report)) << "999999\n";
  ReportLock again = ReportLock::acquire(report);
  std::ifstream in(again.path());
  std::string pid;
  in >> pid;
  EXPECT_EQ(pid, std::to_string(::getpid()));
}

TEST_F(ReportLockDir, AFolderThatCannotHoldTheLockIsAnError) {
  EXPECT_THROW(ReportLock::acquire(dir_ / "missing" / "r.json"), RuntimeError);
}

}  // namespace
}  // namespace gpusizer
