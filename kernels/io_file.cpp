#include "gpusizer/kernels/io_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "gpusizer/error.hpp"

namespace gpusizer::kernels {
namespace {

std::string errno_text() {
  return std::strerror(errno);
}

// Pages of the file resident in the page cache (mincore over a read-only mapping); -1 if unknown.
long resident_pages(int fd, std::size_t bytes) {
  if (bytes == 0) return 0;
  void* map = ::mmap(nullptr, bytes, PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) return -1;
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> vec((bytes + page - 1) / page);
  long resident = -1;
  if (::mincore(map, bytes, vec.data()) == 0) {
    resident = 0;
    for (unsigned char v : vec) resident += (v & 1);
  }
  ::munmap(map, bytes);
  return resident;
}

void write_all(int fd, const unsigned char* data, std::size_t len, const std::string& label) {
  std::size_t written = 0;
  while (written < len) {
    const ssize_t r = ::write(fd, data + written, len - written);
    if (r < 0) {
      if (errno == EINTR) continue;
      throw RuntimeError("writing " + label + ": " + errno_text());
    }
    written += static_cast<std::size_t>(r);
  }
}

}  // namespace

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

FilesystemInfo filesystem_type(unsigned long f_type) {
  // Magic numbers from statfs(2) / <linux/magic.h>. ext2, ext3 and ext4 share one.
  static constexpr struct {
    unsigned long magic;
    const char* name;
    bool memory_backed;
  } kKnown[] = {
      {0xEF53, "ext2/ext3/ext4", false},
      {0x58465342, "xfs", false},
      {0x9123683E, "btrfs", false},
      {0x2FC12FC1, "zfs", false},
      {0xF2F52010, "f2fs", false},
      {0xCA451A4E, "bcachefs", false},
      {0x01021994, "tmpfs", true},
      {0x858458F6, "ramfs", true},
      {0x794C7630, "overlay", false},
      {0x61756673, "aufs", false},
      {0x6969, "nfs", false},
      {0xFF534D42, "cifs", false},
      {0xFE534D42, "smb2", false},
      {0x65735546, "fuse", false},
      {0x00C36400, "ceph", false},
      {0x0BD00BD0, "lustre", false},
      {0x47504653, "gpfs", false},
      {0x01021997, "9p", false},
      {0x73717368, "squashfs", false},
      {0x4D44, "vfat", false},
      {0x2011BAB0, "exfat", false},
      {0x5346544E, "ntfs", false},
  };
  for (const auto& k : kKnown) {
    if (k.magic == (f_type & 0xFFFFFFFFUL)) return {k.name, k.memory_backed};
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, "unknown (0x%lx)", f_type);
  return {buf, false};
}

FilesystemInfo filesystem_of(const std::string& directory) {
  struct statfs st {};
  if (::statfs(directory.c_str(), &st) != 0) return {"unknown (statfs: " + errno_text() + ")"};
  return filesystem_type(static_cast<unsigned long>(st.f_type));
}

std::string PageCacheDrop::detail() const {
  std::string s = method + ": ";
  if (resident_pages < 0) return s + "could not be checked (mincore failed)";
  s +=
      std::to_string(resident_pages) + " of " + std::to_string(total_pages) + " pages still cached";
  return s + (worked ? " (worked)" : " (did NOT work: reads may come from RAM)");
}

IoTestFile::IoTestFile(const std::string& directory, std::size_t bytes, const Fill& fill,
                       const IoFileOptions& options)
    : bytes_(bytes) {
  struct stat st {};
  if (::stat(directory.c_str(), &st) != 0) {
    throw InputError("io directory \"" + directory + "\": " + errno_text());
  }
  if (!S_ISDIR(st.st_mode)) throw InputError("io directory \"" + directory + "\": not a directory");
  if (::access(directory.c_str(), W_OK) != 0) {
    throw InputError("io directory \"" + directory + "\": not writable (" + errno_text() + ")");
  }
  filesystem_ = filesystem_of(directory);

  std::string path =
      directory + (directory.ends_with('/') ? "" : "/") + options.name_prefix + "XXXXXX";
  const int raw = ::mkostemp(path.data(), O_CLOEXEC);
  if (raw < 0) {
    throw InputError("io directory \"" + directory + "\": cannot create a file (" + errno_text() +
                     ")");
  }
  fd_ = FileDescriptor(raw);
  label_ = path + " (unlinked)";
  // From here until the unlink, any throw removes the file; after it the name is gone.
  try {
    if (options.fault_injection) options.fault_injection("created");
    if (::unlink(path.c_str()) != 0) throw RuntimeError("unlink " + path + ": " + errno_text());
  } catch (...) {
    ::unlink(path.c_str());
    throw;
  }

  constexpr std::size_t kBlock = 4u << 20;
  std::vector<unsigned char> block(std::min(kBlock, std::max<std::size_t>(bytes, 1)));
  for (std::size_t done = 0; done < bytes;) {
    const std::size_t len = std::min(block.size(), bytes - done);
    fill(block.data(), len, done);
    write_all(fd_.get(), block.data(), len, label_);
    done += len;
  }
  if (::fsync(fd_.get()) != 0) throw RuntimeError("fsync " + label_ + ": " + errno_text());
  initial_drop_ = drop_page_cache();

  if (options.try_direct) {
    // A second open of the same (unlinked) inode, through the /proc link of our descriptor.
    const std::string self = "/proc/self/fd/" + std::to_string(fd_.get());
    const int d = ::open(self.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
    if (d < 0) {
      direct_note_ = "O_DIRECT open refused: " + errno_text();
    } else {
      FileDescriptor direct(d);
      // Some filesystems accept the flag at open and refuse the read: probe one block.
      const std::size_t align = options.direct_alignment;
      std::unique_ptr<void, decltype(&std::free)> probe(std::aligned_alloc(align, align),
                                                        &std::free);
      if (probe && ::pread(direct.get(), probe.get(), align, 0) >= 0) {
        direct_ = std::move(direct);
      } else {
        direct_note_ = "O_DIRECT read refused: " + errno_text();
      }
    }
  }
  if (options.fault_injection) options.fault_injection("written");
}

PageCacheDrop IoTestFile::drop_page_cache() const {
  PageCacheDrop d;
  d.method = "fsync + posix_fadvise(POSIX_FADV_DONTNEED)";
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  d.total_pages = static_cast<long>((bytes_ + page - 1) / page);
  const bool synced = ::fsync(fd_.get()) == 0;
  const int rc = ::posix_fadvise(fd_.get(), 0, 0, POSIX_FADV_DONTNEED);
  if (!synced) d.method += " (fsync failed: " + errno_text() + ")";
  if (rc != 0) d.method += std::string(" (advice refused: ") + std::strerror(rc) + ")";
  d.resident_pages = resident_pages(fd_.get(), bytes_);
  d.worked = synced && rc == 0 && d.resident_pages == 0;
  return d;
}

std::map<std::string, std::string> IoTestFile::details(bool reads_direct) const {
  std::map<std::string, std::string> d = {
      {"io_filesystem", filesystem_.type},
      {"io_file",
       "created as " + label_ + ": unlinked right after creation, written through its descriptor"},
      {"page_cache_drop", std::string(reads_direct ? "reads use O_DIRECT (no page cache); " : "") +
                              "after writing, before any read: " + initial_drop_.detail()},
      {"page_cache_drop_worked", initial_drop_.worked ? "yes" : "no"},
  };
  if (filesystem_.memory_backed) {
    d["io_filesystem_warning"] = "the I/O folder is on " + filesystem_.type +
                                 ": the file lives in RAM, so storage figures measure memory; "
                                 "pass --io-dir on a disk-backed filesystem";
  }
  return d;
}

}  // namespace gpusizer::kernels
