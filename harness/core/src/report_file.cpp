#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "gpusizer/error.hpp"
#include "gpusizer/report_io.hpp"

namespace gpusizer {
namespace {

[[noreturn]] void fail_io(const std::filesystem::path& file, const char* what) {
  throw RuntimeError(file.string() + ": " + what + ": " + std::strerror(errno));
}

}  // namespace

void write_file_atomically(const std::filesystem::path& file, const std::string& text) {
  std::filesystem::path dir = file.parent_path();
  if (dir.empty()) dir = ".";
  std::string tmpl = (dir / ("." + file.filename().string() + ".XXXXXX")).string();
  int fd = ::mkstemp(tmpl.data());
  if (fd < 0) fail_io(file, "cannot create a temporary file beside it");
  const char* data = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    ssize_t n = ::write(fd, data, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      int saved = errno;
      ::close(fd);
      ::unlink(tmpl.c_str());
      errno = saved;
      fail_io(file, "write failed");
    }
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  // Make the content durable before the rename publishes it; keep the usual 0644 mode.
  ::fchmod(fd, 0644);
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    ::unlink(tmpl.c_str());
    fail_io(file, "fsync/close failed");
  }
  if (::rename(tmpl.c_str(), file.c_str()) != 0) {
    int saved = errno;
    ::unlink(tmpl.c_str());
    errno = saved;
    fail_io(file, "rename failed");
  }
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

void save_report(const Report& report, const std::filesystem::path& file) {
  write_file_atomically(file, to_json(report).dump(2) + "\n");
}

}  // namespace gpusizer
