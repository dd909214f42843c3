// The `monitor` subcommand's flags, parsed by CLI11 and run against the fake NVML.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "commands.hpp"
#include "fake_nvml_env.hpp"
#include "gpusizer/error.hpp"

namespace gpusizer {
namespace {

TEST(MonitorCli, ParsesDurationsAndRuns) {
  test::use_fake_nvml("mig_h200.json", 1.0);
  const auto file = std::filesystem::temp_directory_path() /
                    ("gpusizer_cli_" + std::to_string(::getpid()) + ".emf");
  CLI::App app("gpusizer");
  std::function<int()> action;
  cli::register_monitor(app, action);
  const std::vector<std::string> args{"gpusizer", "monitor",    "--format", "emf",   "--interval",
                                      "100ms",    "--duration", "0.25s",    "--out", file.string()};
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  app.parse(static_cast<int>(argv.size()), argv.data());
  ASSERT_TRUE(action);
  EXPECT_EQ(action(), 0);
  std::ifstream in(file);
  int lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  std::filesystem::remove(file);
  EXPECT_EQ(lines, 3 * 2);  // samples at 0, 0.1, 0.2 s; two GPUs
}

TEST(MonitorCli, RejectsBadFlags) {
  CLI::App app("gpusizer");
  std::function<int()> action;
  cli::register_monitor(app, action);
  const char* bad_format[] = {"gpusizer", "monitor", "--format", "csv"};
  EXPECT_THROW(app.parse(4, bad_format), CLI::ValidationError);
  CLI::App app2("gpusizer");
  cli::register_monitor(app2, action);
  const char* bad_interval[] = {"gpusizer", "monitor", "--interval", "soon"};
  app2.parse(4, bad_interval);
  ASSERT_TRUE(action);
  EXPECT_THROW(action(), InputError);
}

}  // namespace
}  // namespace gpusizer
