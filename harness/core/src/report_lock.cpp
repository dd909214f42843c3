#include "gpusizer/report_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include "gpusizer/error.hpp"

namespace gpusizer {
namespace {

std::string holder_of(int fd) {
  char buf[32] = {};
  const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  std::string pid = n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
  while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
  if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) return "";
  return " (pid " + pid + ")";
}

}  // namespace

std::filesystem::path ReportLock::lock_file_for(const std::filesystem::path& report) {
  const auto absolute = std::filesystem::absolute(report);
  return absolute.parent_path() / ("." + absolute.filename().string() + ".lock");
}

ReportLock ReportLock::acquire(const std::filesystem::path& report) {
  const std::filesystem::path path = lock_file_for(report);
  // The holder removes the file before it unlocks: a run that locked a file which is no longer
  // the one at `path` tries again with the new one.
  for (int attempt = 0; attempt < 100; ++attempt) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
      throw RuntimeError(report.string() + ": cannot create the lock file " + path.string() + ": " +
                         std::strerror(errno));
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      const std::string holder = holder_of(fd);
      ::close(fd);
      if (err == EWOULDBLOCK) {
        throw InputError(report.string() + ": another gpusizer run" + holder +
                         " is writing this report (" + path.string() +
                         " is locked); wait for it to end or choose another --out");
      }
      throw RuntimeError(report.string() + ": cannot lock " + path.string() + ": " +
                         std::strerror(err));
    }
    struct stat held {
    }, named{};
    if (::fstat(fd, &held) == 0 && ::stat(path.c_str(), &named) == 0 &&
        held.st_ino == named.st_ino && held.st_dev == named.st_dev) {
      const std::string pid = std::to_string(::getpid()) + "\n";
      if (::ftruncate(fd, 0) == 0 && ::pwrite(fd, pid.data(), pid.size(), 0) < 0) {
        // The pid is only for the other run's message; the lock holds without it.
      }
      return ReportLock(path, fd);
    }
    ::close(fd);
  }
  throw RuntimeError(report.string() + ": cannot lock " + path.string() +
                     ": it keeps being replaced");
}

ReportLock::ReportLock(ReportLock&& other) noexcept
    : path_(std::move(other.path_)), fd_(std::exchange(other.fd_, -1)) {}

ReportLock::~ReportLock() {
  if (fd_ < 0) return;
  ::unlink(path_.c_str());
  ::close(fd_);
}

}  // namespace gpusizer
