// Input that cannot hurt: non-regular files are refused without being opened, every kind of
// file has a size limit stated in the message, JSON nesting is limited.
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "gpusizer/error.hpp"
#include "gpusizer/input_file.hpp"
#include "gpusizer/json_input.hpp"
#include "input_error_of.hpp"

namespace gpusizer {
namespace {

class InputFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("gpusizer-input-file-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path write(const std::string& name, const std::string& text) {
    auto p = dir_ / name;
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  std::filesystem::path dir_;
};

constexpr InputKind kTiny{"a test file", 16};

TEST_F(InputFileTest, ReadsARegularFileWithinItsLimit) {
  auto p = write("ok.json", "[1, 2, 3]");
  EXPECT_EQ(read_input_file(p, kTiny), "[1, 2, 3]");
  EXPECT_EQ(JsonInput::parse_file(p, kTiny), nlohmann::json::parse("[1,2,3]"));
}

TEST_F(InputFileTest, RefusesAFileAboveTheLimitNamingLimitAndSize) {
  auto p = write("big.json", std::string(3 * kMiB + kMiB / 2, ' '));
  EXPECT_EQ(error_of([&] {
              read_input_file(p, InputKind{"a report", 2 * kMiB});
            }),
            p.string() + ": larger than the 2 MiB limit for a report (3.5 MiB)");
  auto small = write("17.json", std::string(17, ' '));
  EXPECT_EQ(error_of([&] { read_input_file(small, kTiny); }),
            small.string() + ": larger than the 16 bytes limit for a test file (17 bytes)");
}

TEST_F(InputFileTest, RefusesAFifoWithoutOpeningIt) {
  // Opening a FIFO for reading blocks until a writer comes: were it opened, this test would hang
  // (ctest's timeout), not fail.
  auto p = dir_ / "pipe.json";
  ASSERT_EQ(::mkfifo(p.c_str(), 0600), 0);
  EXPECT_EQ(error_of([&] { read_input_file(p, input_kinds::report); }),
            p.string() + ": not a regular file (a FIFO), expected a report file");
}

TEST_F(InputFileTest, RefusesDevicesDirectoriesAndMissingFiles) {
  EXPECT_EQ(error_of([] { read_input_file("/dev/zero", input_kinds::report); }),
            "/dev/zero: not a regular file (a character device), expected a report file");
  EXPECT_EQ(error_of([&] { read_input_file(dir_, input_kinds::workload); }),
            dir_.string() + ": not a regular file (a directory), expected a workload file");
  EXPECT_EQ(error_of([&] { read_input_file(dir_ / "nope.json", input_kinds::catalog); }),
            (dir_ / "nope.json").string() + ": no such file");
  // A symlink is followed: one to a device is a device.
  auto link = dir_ / "zero.json";
  std::filesystem::create_symlink("/dev/zero", link);
  EXPECT_EQ(error_of([&] { read_input_file(link, input_kinds::report); }),
            link.string() + ": not a regular file (a character device), expected a report file");
}

TEST_F(InputFileTest, ReadsProcFilesWhoseSizeSaysZeroUpToTheLimit) {
  // /proc files are regular with st_size 0: the limit still holds while reading.
  EXPECT_EQ(
      error_of([] {
        read_input_file("/proc/self/maps", InputKind{"a test file", 8});
      }).rfind("/proc/self/maps: larger than the 8 bytes limit for a test file (more than ", 0),
      0u);
}

TEST(JsonDepth, AcceptsTheLimitAndRefusesOneLevelMore) {
  const std::string at_limit = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  EXPECT_NO_THROW(JsonInput::parse_text(at_limit, "ok.json"));
  const std::string deeper =
      std::string(kMaxJsonDepth + 1, '[') + std::string(kMaxJsonDepth + 1, ']');
  EXPECT_EQ(error_of([&] { JsonInput::parse_text(deeper, "deep.json"); }),
            "deep.json: JSON nested deeper than the limit of 256 levels");
}

TEST(JsonDepth, RefusesAHundredThousandLevelsInAFreeFormField) {
  // Parsed whole, this document would crash (stack overflow) when copied or printed.
  const std::string text =
      R"({"settings": {"x": )" + std::string(100000, '[') + std::string(100000, ']') + "}}";
  EXPECT_EQ(error_of([&] { JsonInput::parse_text(text, "r.json"); }),
            "r.json: JSON nested deeper than the limit of 256 levels");
  const std::string objects = [] {
    std::string s;
    for (int i = 0; i < 300; ++i) s += R"({"a":)";
    s += "1";
    for (int i = 0; i < 300; ++i) s += "}";
    return s;
  }();
  EXPECT_EQ(error_of([&] { JsonInput::parse_text(objects, "o.json"); }),
            "o.json: JSON nested deeper than the limit of 256 levels");
}

TEST(DescribeSize, BytesAndMebibytes) {
  EXPECT_EQ(describe_size(512), "512 bytes");
  EXPECT_EQ(describe_size(64 * kMiB), "64 MiB");
  EXPECT_EQ(describe_size(200'000'000), "190.7 MiB");
  EXPECT_EQ(describe_size(input_kinds::price_list.max_bytes), "16 GiB");
}

}  // namespace
}  // namespace gpusizer
