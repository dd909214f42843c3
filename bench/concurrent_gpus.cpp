#include "gpusizer/bench/concurrent_gpus.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>

#include "gpusizer/bench/concurrent_aggregate.hpp"
#include "gpusizer/bench/run_control.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/report_io.hpp"

namespace gpusizer::bench {
namespace {

// The records the stand-in children wrote since `first`: flagged and explained.
void mark_stand_ins(Report& report, std::size_t first, const std::set<std::string>& gpus) {
  bool any = false;
  for (std::size_t i = first; i < report.records.size(); ++i) {
    Record& r = report.records[i];
    if (r.targets.size() != 1 || gpus.count(r.targets.front()) == 0 ||
        load_mode(r) != Concurrency::concurrent)
      continue;
    if (std::find(r.flags.begin(), r.flags.end(), kSimulatedFlag) != r.flags.end()) continue;
    r.flags.push_back(kSimulatedFlag);
    r.details["simulated"] = "measured on the CPU as a stand-in for " + r.targets.front() + " (" +
                             kGpuStandInEnv + "=cpu, a test seam): not a GPU figure";
    any = true;
  }
  if (any) {
    add_warning_once(report, std::string("simulated: ") + kGpuStandInEnv +
                                 "=cpu: the concurrent GPU records were measured on the CPU as "
                                 "stand-ins for the GPUs (tests only); they are not GPU figures");
  }
}

}  // namespace

std::vector<Concurrency> gpu_modes(const std::string& gpu_mode) {
  if (gpu_mode == "both") return {Concurrency::isolated, Concurrency::concurrent};
  if (auto one = parse<Concurrency>(gpu_mode); one && *one != Concurrency::not_stated)
    return {*one};
  throw InputError("--gpu-mode: expected isolated, concurrent or both, got \"" + gpu_mode + "\"");
}

bool gpu_stand_in_requested() {
  const char* v = std::getenv(kGpuStandInEnv);
  return v != nullptr && std::string(v) == "cpu";
}

void run_concurrent_gpus(const std::vector<Target>& gpus, MigRunSettings settings,
                         RunResult& result, const std::filesystem::path& report_path) {
  if (gpus.empty()) return;
  if (!result.stop_cause.empty()) {
    for (const auto& g : gpus)
      result.report.not_run.emplace_back(
          "gpu/" + g.id + "/mode=" + std::string(to_string(Concurrency::concurrent)),
          result.stop_cause);
    return;
  }
  settings.modes = {Concurrency::concurrent};
  settings.children = TargetKind::gpu;
  settings.cpu_stand_in = gpu_stand_in_requested();
  std::set<std::string> ids;
  for (const auto& g : gpus) ids.insert(g.id);
  const std::size_t records_before = result.report.records.size();
  settings.before_checkpoint = [&](Report& report) {
    if (settings.cpu_stand_in) mark_stand_ins(report, records_before, ids);
    for (auto& a : concurrent_aggregates(report)) report.records.push_back(std::move(a));
  };
  run_children_under_run_control(gpus, settings, result, report_path,
                                 "concurrent GPU benchmark(s) or GPU run(s)");
}

}  // namespace gpusizer::bench
