// Files for the I/O pipeline: an owned descriptor, the pattern file the benchmark creates (and
// removes), and the position-dependent checksum both ends of the pipeline agree on.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace gpusizer::kernels::cpu {

class FileDescriptor {
 public:
  FileDescriptor() = default;
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor();
  FileDescriptor(FileDescriptor&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  FileDescriptor& operator=(FileDescriptor&& o) noexcept;
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

// Sum over the 64-bit little-endian words w_j of (w_j XOR j * 0x9E3779B97F4A7C15), mod 2^64,
// where j is the word's index in the file (so a chunk read from the wrong offset changes the
// sum). `first_word` = offset / 8; `bytes` is a multiple of 8 except at the end of the file,
// where the last partial word is zero-padded.
std::uint64_t checksum_words(const void* data, std::size_t bytes, std::uint64_t first_word);

// A file of `bytes` bytes filled with the xorshift pattern, created under `directory` with a
// unique name, fsync'ed, and removed by the destructor. Throws InputError when the directory does
// not exist, is not a directory or is not writable; RuntimeError when writing fails.
class PatternFile {
 public:
  PatternFile(const std::string& directory, std::size_t bytes);
  ~PatternFile();
  PatternFile(const PatternFile&) = delete;
  PatternFile& operator=(const PatternFile&) = delete;

  const std::string& path() const { return path_; }
  std::size_t bytes() const { return bytes_; }
  std::uint64_t checksum() const { return checksum_; }

 private:
  std::string path_;
  std::size_t bytes_;
  std::uint64_t checksum_ = 0;
};

}  // namespace gpusizer::kernels::cpu
