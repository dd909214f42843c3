// RAPL from a fake sysfs tree (GPUSIZER_SYSFS_ROOT), including counter wraparound.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "gpusizer/telemetry/rapl.hpp"
#include "gpusizer/telemetry/telemetry.hpp"

namespace gpusizer::telemetry {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  const fs::path tmp = file.string() + ".tmp";
  std::ofstream(tmp) << text << "\n";
  fs::rename(tmp, file);  // atomic: the sampler never sees a half-written file
}

class FakeSysfs : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("gpusizer_rapl_" + std::to_string(::getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    pc_ = root_ / "sys/class/powercap";
    domain("intel-rapl:0", "package-0", 1'000'000, 262'143'328'850);
    domain("intel-rapl:1", "package-1", 5'000'000, 262'143'328'850);
    domain("intel-rapl:0:0", "core", 77, 262'143'328'850);  // sub-domain: ignored
    domain("intel-rapl:2", "psys", 99, 262'143'328'850);    // not a package: ignored
  }
  void TearDown() override {
    ::unsetenv("GPUSIZER_SYSFS_ROOT");
    fs::permissions(root_, fs::perms::owner_all);
    fs::remove_all(root_);
  }
  void domain(const std::string& dir, const std::string& name, std::uint64_t uj,
              std::uint64_t max) {
    write(pc_ / dir / "name", name);
    write(pc_ / dir / "energy_uj", std::to_string(uj));
    write(pc_ / dir / "max_energy_range_uj", std::to_string(max));
  }
  fs::path root_, pc_;
};

TEST(RaplDelta, HandlesWraparound) {
  EXPECT_EQ(rapl_counter_delta(100, 250, 1000), 150u);
  EXPECT_EQ(rapl_counter_delta(900, 50, 1000), 150u);  // 100 to the wrap + 50 after
  EXPECT_EQ(rapl_counter_delta(900, 50, 0), 0u);       // unknown range: count nothing
}

TEST_F(FakeSysfs, ReadsPackageDomainsOnly) {
  std::string why;
  auto reader = RaplReader::open(root_.string(), why);
  ASSERT_TRUE(reader) << why;
  ASSERT_EQ(reader->domains().size(), 2u);
  EXPECT_EQ(reader->domains()[0].name, "package-0");
  EXPECT_EQ(reader->domains()[1].name, "package-1");
  auto before = reader->read();
  ASSERT_TRUE(before);
  EXPECT_EQ((*before)[0], 1'000'000u);
  // package-0 +2.5 J; package-1 wraps: 2'000'000 uJ before the top + 1'000'000 after = 3 J.
  write(pc_ / "intel-rapl:0/energy_uj", "3500000");
  write(pc_ / "intel-rapl:1/max_energy_range_uj", "7000000");
  write(pc_ / "intel-rapl:1/energy_uj", "1000000");
  auto fresh = RaplReader::open(root_.string(), why);  // re-read the new max range
  auto after = fresh->read();
  EXPECT_NEAR(fresh->delta_joules(*before, *after), 5.5, 1e-9);
}

TEST_F(FakeSysfs, ProbeReportsCpuPackageEnergy) {
  ::setenv("GPUSIZER_SYSFS_ROOT", root_.c_str(), 1);
  ::setenv("GPUSIZER_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1", 1);
  TelemetryOptions options;
  options.sample_period_seconds = 0.01;
  auto provider = make_telemetry_provider(options);
  Target cpu;
  cpu.id = "cpu";
  cpu.kind = TargetKind::cpu;
  auto probe = provider->probe_for(cpu);
  probe->begin();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  write(pc_ / "intel-rapl:0/energy_uj", "3000000");  // +2 J
  write(pc_ / "intel-rapl:1/energy_uj", "5500000");  // +0.5 J
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const auto w = probe->end();
  EXPECT_EQ(w.source, TelemetrySource::rapl);
  EXPECT_EQ(w.scope, "CPU package (RAPL)");
  EXPECT_NEAR(*w.energy_joules, 2.5, 1e-9);
  EXPECT_NEAR(*w.power_mean_watts, 2.5 / w.duration_seconds, 1e-9);
  EXPECT_GE(w.sample_count, 2u);
}

TEST_F(FakeSysfs, UnreadableOrMissingRaplIsUnavailableWithReason) {
  std::string why;
  EXPECT_FALSE(RaplReader::open((root_ / "nowhere").string(), why));
  EXPECT_NE(why.find("not found"), std::string::npos) << why;

  ::setenv("GPUSIZER_SYSFS_ROOT", (root_ / "nowhere").c_str(), 1);
  ::setenv("GPUSIZER_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1", 1);
  auto provider = make_telemetry_provider({});
  Target cpu;
  cpu.id = "cpu";
  cpu.kind = TargetKind::cpu;
  const auto w = provider->probe_for(cpu)->end();
  EXPECT_EQ(w.source, TelemetrySource::unavailable);
  EXPECT_EQ(w.scope, "CPU package (RAPL)");
  EXPECT_NE(w.unavailable_reason.find("not found"), std::string::npos);
  const auto idle = provider->measure_idle({cpu});
  EXPECT_TRUE(idle["cpu"].contains("unavailable"));
}

TEST_F(FakeSysfs, PermissionDeniedIsTheReason) {
  std::string why;
  if (::geteuid() == 0) GTEST_SKIP() << "running as root: file permissions are not enforced";
  fs::permissions(pc_ / "intel-rapl:0/energy_uj", fs::perms::none);
  EXPECT_FALSE(RaplReader::open(root_.string(), why));
  EXPECT_NE(why.find("Permission denied"), std::string::npos) << why;
}

}  // namespace
}  // namespace gpusizer::telemetry
