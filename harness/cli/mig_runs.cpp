#include "mig_runs.hpp"

#include <unistd.h>

#include <iostream>
#include "gpusizer/bench/child_runs.hpp"

#include "gpusizer/clock.hpp"
#include "gpusizer/report_io.hpp"

namespace gpusizer::cli {
namespace {

std::string self_executable() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("gpusizer") : p.string();
}

bool already_measured(const Report& report, const std::string& target, const std::string& mode) {
  for (const auto& r : report.records) {
    if (r.target == target && r.mode == mode) return true;
  }
  return false;
}

}  // namespace

int run_mig_slices(const std::vector<Target>& slices, const MigRunSettings& settings,
                   bench::RunResult& result, const std::filesystem::path& report_path) {
  int exit_code = 0;
  const std::string exe = self_executable();
  const auto dir = std::filesystem::absolute(report_path).parent_path();
  for (const auto& mode : settings.modes) {
    std::vector<bench::ChildSpec> children;
    for (const auto& slice : slices) {
      if (already_measured(result.report, slice.id, mode)) continue;  // --resume
      bench::ChildSpec spec;
      spec.target = slice;
      std::string safe = slice.id;
      for (char& c : safe) {
        if (c == '/') c = '_';
      }
      spec.report =
          dir / ("." + report_path.filename().string() + "." + safe + "." + mode + ".json");
      std::filesystem::remove(spec.report);
      spec.argv = {exe,       "run",          "--child", "--no-cpu",          "--no-progress",
                   "--suite", settings.suite, "--out",   spec.report.string()};
      if (settings.tiny) spec.argv.push_back("--tiny");
      if (!settings.filter.empty()) spec.argv.push_back("--filter=" + settings.filter);
      for (const auto& a : settings.benchmark_args) spec.argv.push_back(a);
      spec.env = {{"CUDA_VISIBLE_DEVICES", slice.uuid.value_or("")},
                  {"CUDA_DEVICE_ORDER", "PCI_BUS_ID"}};
      children.push_back(std::move(spec));
    }
    if (children.empty()) continue;
    if (settings.progress) {
      std::cerr << "MIG: " << children.size() << " slice(s), " << mode
                << (mode == "concurrent" ? " (all at once)" : " (one at a time)") << std::endl;
    }
    auto results = bench::run_children(children, mode == "concurrent", settings.timeout_seconds);
    for (const auto& r : results) {
      bench::merge_child_result(result.report, r, mode);
      if (!r.failure.empty()) exit_code = 1;
      if (settings.progress) {
        std::cerr << "  " << r.target.id << ": " << r.records.size() << " records in "
                  << human_duration(r.seconds) << (r.failure.empty() ? "" : ", " + r.failure)
                  << std::endl;
      }
    }
    save_report(result.report, report_path);  // checkpoint after each mode
    for (const auto& c : children) std::filesystem::remove(c.report);
  }
  return exit_code;
}

}  // namespace gpusizer::cli
