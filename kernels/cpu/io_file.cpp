#include "io_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "gpusizer/error.hpp"
#include "pattern.hpp"

namespace gpusizer::kernels::cpu {
namespace {
constexpr std::uint64_t kPositionMix = 0x9E3779B97F4A7C15ULL;
}

FileDescriptor::~FileDescriptor() {
  if (fd_ >= 0) ::close(fd_);
}

FileDescriptor& FileDescriptor::operator=(FileDescriptor&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(o.fd_, -1);
  }
  return *this;
}

std::uint64_t checksum_words(const void* data, std::size_t bytes, std::uint64_t first_word) {
  const auto* p = static_cast<const unsigned char*>(data);
  const std::size_t words = bytes / 8;
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < words; ++i) {
    std::uint64_t w;
    std::memcpy(&w, p + 8 * i, 8);
    sum += w ^ ((first_word + i) * kPositionMix);
  }
  if (const std::size_t tail = bytes % 8; tail != 0) {
    std::uint64_t w = 0;
    std::memcpy(&w, p + 8 * words, tail);
    sum += w ^ ((first_word + words) * kPositionMix);
  }
  return sum;
}

PatternFile::PatternFile(const std::string& directory, std::size_t bytes) : bytes_(bytes) {
  struct stat st {};
  if (::stat(directory.c_str(), &st) != 0) {
    throw InputError("io directory \"" + directory + "\": " + std::strerror(errno));
  }
  if (!S_ISDIR(st.st_mode)) {
    throw InputError("io directory \"" + directory + "\": not a directory");
  }
  if (::access(directory.c_str(), W_OK) != 0) {
    throw InputError("io directory \"" + directory + "\": not writable (" + std::strerror(errno) +
                     ")");
  }
  std::string tmpl = directory + (directory.ends_with('/') ? "" : "/") + "gpusizer-io-XXXXXX";
  const int raw = ::mkstemp(tmpl.data());
  if (raw < 0) {
    throw InputError("io directory \"" + directory + "\": cannot create a file (" +
                     std::strerror(errno) + ")");
  }
  FileDescriptor fd(raw);
  path_ = tmpl;
  try {
    constexpr std::size_t kBlock = 4u << 20;
    std::vector<unsigned char> block(std::min(kBlock, bytes));
    PatternGenerator gen(kSourceSeed);
    std::size_t done = 0;
    while (done < bytes) {
      const std::size_t len = std::min(block.size(), bytes - done);
      gen.fill(block.data(), len);
      checksum_ += checksum_words(block.data(), len, done / 8);
      std::size_t written = 0;
      while (written < len) {
        const ssize_t r = ::write(fd.get(), block.data() + written, len - written);
        if (r < 0) {
          if (errno == EINTR) continue;
          throw RuntimeError("writing " + path_ + ": " + std::strerror(errno));
        }
        written += static_cast<std::size_t>(r);
      }
      done += len;
    }
    if (::fsync(fd.get()) != 0) {
      throw RuntimeError("fsync " + path_ + ": " + std::strerror(errno));
    }
  } catch (...) {
    ::unlink(path_.c_str());
    throw;
  }
}

PatternFile::~PatternFile() {
  ::unlink(path_.c_str());
}

}  // namespace gpusizer::kernels::cpu
