#include "gpusizer/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "gpusizer/error.hpp"

namespace gpusizer {
namespace {

std::string what_it_is(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a plain file";
}

[[noreturn]] void too_large(const std::filesystem::path& file, const InputKind& kind,
                            std::uint64_t size, bool at_least) {
  throw InputError(file.string() + ": larger than the " + describe_size(kind.max_bytes) +
                   " limit for " + std::string(kind.name) + " (" + (at_least ? "more than " : "") +
                   describe_size(size) + ")");
}

void check_mode(const std::filesystem::path& file, const InputKind& kind, const struct stat& st) {
  if (!S_ISREG(st.st_mode)) {
    throw InputError(file.string() + ": not a regular file (" + what_it_is(st.st_mode) +
                     "), expected " + std::string(kind.name) + " file");
  }
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size > kind.max_bytes) too_large(file, kind, size, false);
}

// Closes the descriptor on every path out of read_input_file.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string describe_size(std::uint64_t bytes) {
  char buf[64];
  if (bytes < kMiB) {
    std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(bytes));
  } else if (bytes >= 1024 * kMiB && bytes % (1024 * kMiB) == 0) {
    std::snprintf(buf, sizeof buf, "%llu GiB",
                  static_cast<unsigned long long>(bytes / (1024 * kMiB)));
  } else if (bytes % kMiB == 0) {
    std::snprintf(buf, sizeof buf, "%llu MiB", static_cast<unsigned long long>(bytes / kMiB));
  } else {
    std::snprintf(buf, sizeof buf, "%.1f MiB",
                  static_cast<double>(bytes) / static_cast<double>(kMiB));
  }
  return buf;
}

std::uint64_t check_input_file(const std::filesystem::path& file, const InputKind& kind) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) throw InputError(file.string() + ": no such file");
    throw InputError(file.string() + ": cannot read: " + std::strerror(errno));
  }
  check_mode(file, kind, st);
  return static_cast<std::uint64_t>(st.st_size);
}

std::string read_input_file(const std::filesystem::path& file, const InputKind& kind) {
  check_input_file(file, kind);
  // O_NONBLOCK: should the path be swapped for a FIFO after the check, open() still returns
  // at once, and fstat() below refuses it.
  Fd in{::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)};
  if (in.fd < 0) {
    throw InputError(file.string() + ": cannot open for reading: " + std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(in.fd, &st) != 0) {
    throw InputError(file.string() + ": cannot read: " + std::strerror(errno));
  }
  check_mode(file, kind, st);
  std::string bytes;
  bytes.resize(static_cast<std::size_t>(st.st_size));
  std::size_t used = 0;
  for (;;) {
    if (used == bytes.size()) {
      if (used > kind.max_bytes) too_large(file, kind, used, true);  // it grew while read
      // Room to notice growth (and files such as /proc entries whose size says 0).
      bytes.resize(std::min<std::size_t>(std::max<std::size_t>(2 * used, 64 * 1024),
                                         static_cast<std::size_t>(kind.max_bytes) + 1));
    }
    const ssize_t n = ::read(in.fd, bytes.data() + used, bytes.size() - used);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw InputError(file.string() + ": read failed: " + std::strerror(errno));
    }
    if (n == 0) break;
    used += static_cast<std::size_t>(n);
  }
  if (used > kind.max_bytes) too_large(file, kind, used, true);
  bytes.resize(used);
  return bytes;
}

}  // namespace gpusizer
