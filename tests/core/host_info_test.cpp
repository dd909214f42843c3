// The load average a record carries: /proc/loadavg's first field.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "gpusizer/host_info.hpp"

namespace gpusizer {
namespace {

TEST(LoadAverage, ParsesTheOneMinuteField) {
  // A real /proc/loadavg line: 1, 5 and 15 minute averages, running/total tasks, last pid.
  EXPECT_EQ(parse_load_average("0.52 0.58 0.59 2/1109 12345\n"), 0.52);
  EXPECT_EQ(parse_load_average("15.20 10.13 5.00 16/204 23389"), 15.2);
  EXPECT_EQ(parse_load_average("0.00 0.01 0.05 1/80 7"), 0.0);
  for (const char* bad : {"", "\n", "abc 1 2", "-1.0 0 0", "1e3 0 0", "nan 0 0", "1.2.3 0 0"}) {
    EXPECT_EQ(parse_load_average(bad), std::nullopt) << bad;
  }
}

TEST(LoadAverage, ReadsProcUnderTheSysfsRoot) {
  namespace fs = std::filesystem;
  const fs::path root =
      fs::temp_directory_path() / ("gpusizer-loadavg-" + std::to_string(getpid()));
  fs::create_directories(root / "proc");
  const char* saved = std::getenv("GPUSIZER_SYSFS_ROOT");
  const std::string before = saved ? saved : "";
  setenv("GPUSIZER_SYSFS_ROOT", root.c_str(), 1);
  EXPECT_EQ(load_average_1min(), std::nullopt);  // no /proc/loadavg there
  std::ofstream(root / "proc" / "loadavg") << "3.20 1.00 0.50 1/100 42\n";
  EXPECT_EQ(load_average_1min(), 3.2);
  if (saved) {
    setenv("GPUSIZER_SYSFS_ROOT", before.c_str(), 1);
  } else {
    unsetenv("GPUSIZER_SYSFS_ROOT");
  }
  fs::remove_all(root);
}

}  // namespace
}  // namespace gpusizer
