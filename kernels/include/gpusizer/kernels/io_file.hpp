// The file an I/O pipeline benchmark reads, shared by the CPU and CUDA backends (host code only).
// It is created under the --io-dir folder and unlinked at once, so the folder never holds it
// while the benchmark runs and a `kill -9` leaks nothing (the kernel frees an unlinked file when
// its last descriptor closes); a throw before the unlink removes it too. It is then written
// through the descriptor, fsync'ed and dropped from the page cache (posix_fadvise(DONTNEED),
// checked with mincore), so the first read comes from storage, not from the RAM it was just
// written to. The folder's filesystem type is recorded: on tmpfs/ramfs "storage" is RAM.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <utility>

namespace gpusizer::kernels {

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

struct FilesystemInfo {
  std::string type;            // "ext2/ext3/ext4", "xfs", "tmpfs", "overlay", "nfs"...
  bool memory_backed = false;  // tmpfs or ramfs: the file lives in RAM, reads never hit storage
};

// statfs(2) f_type -> name; "unknown (0x...)" for a magic not in the table.
FilesystemInfo filesystem_type(unsigned long f_type);
// The filesystem holding `directory` ("unknown (statfs: <error>)" when statfs fails).
FilesystemInfo filesystem_of(const std::string& directory);

// Outcome of dropping the file's pages from the page cache.
struct PageCacheDrop {
  std::string method;        // "fsync + posix_fadvise(POSIX_FADV_DONTNEED)"
  bool worked = false;       // advice accepted and no page still resident
  long resident_pages = -1;  // pages still cached afterwards; -1 when mincore could not tell
  long total_pages = 0;
  std::string detail() const;  // one line for the record
};

struct IoFileOptions {
  std::string name_prefix = "gpusizer-io-";
  // Also open an O_DIRECT descriptor (a second open of the unlinked file through
  // /proc/self/fd), kept only when a probe read of one aligned block succeeds.
  bool try_direct = true;
  std::size_t direct_alignment = 4096;
  // Test hook: called with "created" (the file exists in the folder, not yet unlinked) and
  // "written" (filled, fsync'ed, unlinked); a throw from it must leave no file behind.
  std::function<void(const std::string& stage)> fault_injection;
};

class IoTestFile {
 public:
  // Writes bytes [offset, offset + bytes) of the content; called in increasing offset order.
  using Fill = std::function<void(unsigned char* data, std::size_t bytes, std::size_t offset)>;

  // Throws InputError when `directory` does not exist, is not a folder or is not writable;
  // RuntimeError when writing or fsync fails. Nothing is left in `directory` after a throw.
  IoTestFile(const std::string& directory, std::size_t bytes, const Fill& fill,
             const IoFileOptions& options = {});

  std::size_t bytes() const { return bytes_; }
  // Where it was created, for messages (the name no longer exists: the file is unlinked).
  const std::string& label() const { return label_; }
  // Read/write descriptor (buffered reads; the corruption test hooks write through it).
  int fd() const { return fd_.get(); }
  // O_DIRECT descriptor, -1 when none; direct_note() says why not.
  int direct_fd() const { return direct_.get(); }
  const std::string& direct_note() const { return direct_note_; }
  const FilesystemInfo& filesystem() const { return filesystem_; }
  // The drop done right after writing (before any measurement).
  const PageCacheDrop& initial_drop() const { return initial_drop_; }
  // Drops the file's pages again (before a buffered pass) and checks how many remain.
  PageCacheDrop drop_page_cache() const;
  // Facts for the record: io_filesystem, io_file, page_cache_drop, page_cache_drop_worked and,
  // on tmpfs/ramfs, io_filesystem_warning. `reads_direct`: the pipeline reads with O_DIRECT.
  std::map<std::string, std::string> details(bool reads_direct) const;

 private:
  std::string label_;
  std::size_t bytes_ = 0;
  FileDescriptor fd_;
  FileDescriptor direct_;
  std::string direct_note_;
  FilesystemInfo filesystem_;
  PageCacheDrop initial_drop_;
};

// The record flag an I/O benchmark carries when its folder is in memory (tmpfs/ramfs).
inline constexpr const char* kIoDirectoryInMemoryFlag = "io_directory_in_memory";

}  // namespace gpusizer::kernels
