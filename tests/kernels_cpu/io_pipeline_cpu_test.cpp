#include "io_pipeline_cpu.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace gpusizer::kernels::cpu {
namespace {

namespace fs = std::filesystem;

// A private directory under the build tree (a real filesystem, unlike a tmpfs /tmp).
class IoDir : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = std::string(GPUSIZER_BINARY_DIR) + "/io-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::size_t files() const {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir_), {}));
  }
  std::string dir_;
};

TEST(Checksum, HandComputedWords) {
  // Words 1 and 2 at word indices 0 and 1: (1 ^ 0) + (2 ^ 0x9E3779B97F4A7C15).
  const std::uint64_t words[2] = {1, 2};
  EXPECT_EQ(checksum_words(words, 16, 0), 0x9E3779B97F4A7C18ULL);
  // A 3-byte tail is zero-padded: 0x030201 ^ 0.
  const unsigned char tail[3] = {1, 2, 3};
  EXPECT_EQ(checksum_words(tail, 3, 0), 0x030201ULL);
  // The same word at another position sums differently.
  EXPECT_NE(checksum_words(words, 8, 0), checksum_words(words, 8, 5));
}

TEST_F(IoDir, ReadsWholeFileVerifiesAndReportsStages) {
  const std::size_t bytes = (1u << 20) + 24;  // last chunk is short
  {
    IoPipelineCpu w(IoCase{dir_, bytes, 64 << 10, 3, false});
    EXPECT_EQ(files(), 0u) << "the file is unlinked while the workload is alive";
    w.warm_up();
    EXPECT_GT(w.run(2), 0.0);
    const Verification v = w.verify();
    EXPECT_EQ(v.status, VerificationStatus::passed) << v.detail;
    EXPECT_EQ(w.work_per_op().bytes, static_cast<double>(bytes));
    const auto d = w.details();
    EXPECT_TRUE(d.at("io_mode") == kIoModeDirect || d.at("io_mode") == kIoModeDropped ||
                d.at("io_mode") == kIoModeCached)
        << d.at("io_mode");
    const auto m = w.extra_metrics();
    for (const char* name : {"reader_busy_fraction", "consumer_busy_fraction"}) {
      ASSERT_TRUE(m.count(name)) << name;
      EXPECT_GT(m.at(name), 0.0) << name;
      EXPECT_LE(m.at(name), 1.0) << name;
    }
    ASSERT_TRUE(m.count("storage_only_bytes_per_second"));
    EXPECT_GT(m.at("storage_only_bytes_per_second"), 0.0);
    for (const char* key :
         {"io_filesystem", "io_file", "page_cache_drop", "page_cache_drop_worked"})
      EXPECT_TRUE(d.count(key)) << key;
  }
  EXPECT_EQ(files(), 0u) << "the benchmark file must be removed";
}

TEST_F(IoDir, UnalignedChunkFallsBackToBufferedReads) {
  IoPipelineCpu w(IoCase{dir_, 100000, 1000, 2, false});
  EXPECT_NE(w.io_mode(), kIoModeDirect);
  w.run(1);
  EXPECT_EQ(w.verify().status, VerificationStatus::passed) << w.verify().detail;
  EXPECT_NE(w.details().at("io_mode_note").find("multiple of 4096"), std::string::npos);
}

TEST_F(IoDir, CorruptedFileIsDetected) {
  IoPipelineCpu w(IoCase{dir_, 256 << 10, 16 << 10, 4, false});
  w.run(1);
  ASSERT_EQ(w.verify().status, VerificationStatus::passed);
  w.corrupt_file_for_test();
  w.run(1);
  EXPECT_EQ(w.verify().status, VerificationStatus::failed);
}

TEST_F(IoDir, MissingDirectoryIsAnInputErrorNamingIt) {
  const std::string missing = dir_ + "/does-not-exist";
  try {
    IoPipelineCpu w(IoCase{missing, 4096, 4096, 2, false});
    FAIL() << "accepted a missing directory";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(missing), std::string::npos) << e.what();
  }
}

TEST_F(IoDir, RegularFileAsDirectoryIsAnInputError) {
  const std::string file = dir_ + "/plain";
  { std::ofstream(file) << "x"; }
  EXPECT_THROW(IoPipelineCpu(IoCase{file, 4096, 4096, 2, false}), InputError);
}

TEST_F(IoDir, ReadOnlyDirectoryIsAnInputError) {
  if (::geteuid() == 0) GTEST_SKIP() << "root may write into a mode 0500 directory";
  const std::string ro = dir_ + "/ro";
  ASSERT_EQ(::mkdir(ro.c_str(), 0500), 0);
  EXPECT_THROW(IoPipelineCpu(IoCase{ro, 4096, 4096, 2, false}), InputError);
}

TEST_F(IoDir, BadSizesAreInputErrors) {
  EXPECT_THROW(IoPipelineCpu(IoCase{dir_, 0, 4096, 2, false}), InputError);
  EXPECT_THROW(IoPipelineCpu(IoCase{dir_, 4096, 12, 2, false}), InputError);
  EXPECT_THROW(IoPipelineCpu(IoCase{dir_, 4096, 4096, 0, false}), InputError);
}

TEST_F(IoDir, ToDeviceIsUnsupported) {
  EXPECT_THROW(IoPipelineCpu(IoCase{dir_, 4096, 4096, 2, true}), Unsupported);
}

}  // namespace
}  // namespace gpusizer::kernels::cpu
