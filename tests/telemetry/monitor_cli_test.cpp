// The `monitor` subcommand's flags, parsed by CLI11 and run against the fake NVML.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <future>
#include <thread>

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
  // Samples at 0, 0.1, 0.2 s; each: two GPUs and the four MIG slices of GPU 0.
  EXPECT_EQ(lines, 3 * (2 + 4));
}

// The documented default, --duration 0 = until Ctrl-C, was rejected as "expected a positive
// duration". Without the flag the monitor runs until SIGTERM and then exits 0.
TEST(MonitorCli, WithoutDurationRunsUntilStopped) {
  test::use_fake_nvml("mig_h200.json", 1.0);
  const auto file = std::filesystem::temp_directory_path() /
                    ("gpusizer_cli_forever_" + std::to_string(::getpid()) + ".emf");
  std::filesystem::remove(file);
  CLI::App app("gpusizer");
  std::function<int()> action;
  cli::register_monitor(app, action);
  const std::vector<std::string> args{"gpusizer", "monitor", "--interval",
                                      "50ms",     "--out",   file.string()};
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  app.parse(static_cast<int>(argv.size()), argv.data());
  ASSERT_TRUE(action);
  auto running = std::async(std::launch::async, action);
  // Wait for output (the signal handler is installed before the first sample), then stop it.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < give_up &&
         (!std::filesystem::exists(file) || std::filesystem::file_size(file) == 0))
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_GT(std::filesystem::file_size(file), 0u) << "no sample written";
  // Still running well after the first samples: the default is not a zero-length run.
  ASSERT_EQ(running.wait_for(std::chrono::milliseconds(300)), std::future_status::timeout);
  ::kill(::getpid(), SIGTERM);
  ASSERT_EQ(running.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  EXPECT_EQ(running.get(), 0);
  std::filesystem::remove(file);
}

// --names cloudwatch writes to the agent's namespace unless --namespace says otherwise; names
// that belong to the other format are a one-line input error.
TEST(MonitorCli, NamesPickTheNamespaceAndMustMatchTheFormat) {
  test::use_fake_nvml("mig_h200.json", 1.0);
  auto run = [](std::vector<std::string> args) {
    CLI::App app("gpusizer");
    std::function<int()> action;
    cli::register_monitor(app, action);
    args.insert(args.begin(), {"gpusizer", "monitor", "--interval", "50ms", "--duration", "50ms"});
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    app.parse(static_cast<int>(argv.size()), argv.data());
    return action;
  };
  const auto file = std::filesystem::temp_directory_path() /
                    ("gpusizer_cli_names_" + std::to_string(::getpid()) + ".emf");
  auto cw = run({"--names", "cloudwatch", "--out", file.string()});
  ASSERT_EQ(cw(), 0);
  std::ifstream in(file);
  std::string first;
  std::getline(in, first);
  std::filesystem::remove(file);
  EXPECT_NE(first.find("\"Namespace\":\"CWAgent\""), std::string::npos) << first;
  EXPECT_NE(first.find("\"nvidia_smi_power_draw\""), std::string::npos) << first;
  EXPECT_THROW(run({"--names", "dcgm"})(), InputError);  // dcgm names with EMF
  EXPECT_THROW(run({"--names", "cloudwatch", "--format", "prometheus"})(), InputError);
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
