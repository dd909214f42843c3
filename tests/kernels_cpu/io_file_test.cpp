// The I/O test file shared by the CPU and CUDA backends (kernels/io_file.cpp): it never stays in
// the folder, not while the benchmark runs, not after a failed construction, not after kill -9;
// the page-cache drop and the folder's filesystem are recorded.
#include "gpusizer/kernels/io_file.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>

#include "gpusizer/error.hpp"
#include "io_pipeline_cpu.hpp"

namespace gpusizer::kernels {
namespace {

namespace fs = std::filesystem;

// A private folder under the build tree (a disk-backed filesystem, unlike a tmpfs /tmp).
class IoFileDir : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = std::string(GPUSIZER_BINARY_DIR) + "/io-file-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::size_t files() const {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir_), {}));
  }
  static IoTestFile::Fill counting_fill() {
    return [](unsigned char* data, std::size_t bytes, std::size_t offset) {
      for (std::size_t i = 0; i < bytes; ++i) data[i] = static_cast<unsigned char>(offset + i);
    };
  }
  std::string dir_;
};

TEST_F(IoFileDir, TheFolderHoldsNoFileWhileItIsInUse) {
  IoTestFile f(dir_, 3 * 4096 + 5, counting_fill());
  EXPECT_EQ(files(), 0u) << "the file must be unlinked right after it is created";
  // Still readable through its descriptors, with the content written.
  unsigned char b[2] = {};
  ASSERT_EQ(::pread(f.fd(), b, 2, 4097), 2);
  EXPECT_EQ(b[0], static_cast<unsigned char>(4097));
  EXPECT_EQ(b[1], static_cast<unsigned char>(4098));
  EXPECT_NE(f.label().find(dir_), std::string::npos) << f.label();
  const auto d = f.details(false);
  EXPECT_EQ(d.at("io_filesystem"), f.filesystem().type);
  EXPECT_NE(d.at("page_cache_drop").find("POSIX_FADV_DONTNEED"), std::string::npos);
  EXPECT_EQ(d.at("page_cache_drop_worked"), f.initial_drop().worked ? "yes" : "no");
  EXPECT_EQ(f.initial_drop().total_pages, 4);
  EXPECT_NE(f.details(true).at("page_cache_drop").find("O_DIRECT"), std::string::npos);
}

TEST_F(IoFileDir, AFailureAfterTheFileWasCreatedLeavesNothing) {
  for (const std::string stage : {"created", "written"}) {
    SCOPED_TRACE(stage);
    IoFileOptions o;
    bool reached = false;
    o.fault_injection = [&](const std::string& s) {
      if (s != stage) return;
      reached = true;
      if (s == "created") {
        EXPECT_EQ(files(), 1u) << "the hook runs while the file exists";
      }
      throw std::runtime_error("injected at " + s);
    };
    EXPECT_THROW(IoTestFile(dir_, 1 << 16, counting_fill(), o), std::runtime_error);
    EXPECT_TRUE(reached);
    EXPECT_EQ(files(), 0u);
  }
}

TEST_F(IoFileDir, AFailingCpuPipelineConstructionLeavesNothing) {
  IoFileOptions o;
  o.fault_injection = [](const std::string& s) {
    if (s == "created") throw RuntimeError("injected");
  };
  EXPECT_THROW(cpu::IoPipelineCpu(IoCase{dir_, 1 << 16, 4096, 2, false}, o), RuntimeError);
  EXPECT_EQ(files(), 0u);
}

TEST_F(IoFileDir, KillNineLeaksNothing) {
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    IoTestFile f(dir_, 1 << 20, counting_fill());
    ::kill(::getpid(), SIGKILL);
    ::_exit(0);  // not reached
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGKILL);
  EXPECT_EQ(files(), 0u);
}

TEST_F(IoFileDir, AMissingFolderIsAnInputError) {
  EXPECT_THROW(IoTestFile(dir_ + "/missing", 4096, counting_fill()), InputError);
}

TEST(Filesystem, MagicNumbersHaveNames) {
  EXPECT_EQ(filesystem_type(0xEF53).type, "ext2/ext3/ext4");
  EXPECT_EQ(filesystem_type(0x58465342).type, "xfs");
  EXPECT_EQ(filesystem_type(0x794C7630).type, "overlay");
  EXPECT_EQ(filesystem_type(0x6969).type, "nfs");
  EXPECT_TRUE(filesystem_type(0x01021994).memory_backed);  // tmpfs
  EXPECT_TRUE(filesystem_type(0x858458F6).memory_backed);  // ramfs
  EXPECT_FALSE(filesystem_type(0xEF53).memory_backed);
  EXPECT_EQ(filesystem_type(0x1234).type, "unknown (0x1234)");
  EXPECT_NE(filesystem_of("/no/such/folder").type.find("statfs"), std::string::npos);
}

// On tmpfs the page cache IS the storage: the drop cannot work, and the record says so.
TEST(Filesystem, ATmpfsFolderIsFlagged) {
  const std::string shm = "/dev/shm";
  if (!fs::is_directory(shm) || ::access(shm.c_str(), W_OK) != 0 ||
      !filesystem_of(shm).memory_backed) {
    GTEST_SKIP() << "no writable tmpfs at /dev/shm";
  }
  cpu::IoPipelineCpu w(IoCase{shm, 1 << 16, 4096, 2, false});
  const auto flags = w.flags();
  EXPECT_NE(std::find(flags.begin(), flags.end(), kIoDirectoryInMemoryFlag), flags.end());
  const auto d = w.details();
  EXPECT_EQ(d.at("io_filesystem"), "tmpfs");
  EXPECT_NE(d.at("io_filesystem_warning").find("RAM"), std::string::npos);
  EXPECT_EQ(d.at("page_cache_drop_worked"), "no");
  EXPECT_EQ(w.mode(), CacheMode::hot);
}

}  // namespace
}  // namespace gpusizer::kernels
