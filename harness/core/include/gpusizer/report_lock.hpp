// One writer per report: `gpusizer run` holds an exclusive flock(2) on a lock file beside its
// report (".<report name>.lock") for as long as it runs, so a second run given the same --out
// fails at once instead of writing over the first one's records. The lock dies with the process
// (kill -9 included); the file is removed on a normal exit, and a file left by a killed run is
// simply locked again by the next one.
#pragma once

#include <filesystem>

namespace gpusizer {

class ReportLock {
 public:
  // Takes the lock for `report` (its folder must exist). Throws InputError, naming the report, the
  // lock file and the holder's pid, when another process holds it; RuntimeError when the lock
  // file cannot be created.
  static ReportLock acquire(const std::filesystem::path& report);
  ReportLock(ReportLock&& other) noexcept;
  ReportLock& operator=(ReportLock&&) = delete;
  ReportLock(const ReportLock&) = delete;
  ReportLock& operator=(const ReportLock&) = delete;
  ~ReportLock();  // removes the lock file, then releases the lock

  const std::filesystem::path& path() const { return path_; }
  static std::filesystem::path lock_file_for(const std::filesystem::path& report);

 private:
  ReportLock(std::filesystem::path path, int fd) : path_(std::move(path)), fd_(fd) {}
  std::filesystem::path path_;
  int fd_ = -1;
};

}  // namespace gpusizer
