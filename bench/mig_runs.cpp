#include "gpusizer/bench/mig_runs.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>

#include "gpusizer/bench/child_runs.hpp"
#include "gpusizer/bench/run_control.hpp"
#include "gpusizer/clock.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/report_io.hpp"
#include "gpusizer/stop_signals.hpp"

namespace gpusizer::bench {
namespace {

std::string self_executable() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("gpusizer") : p.string();
}

bool names_slice_mode(const std::string& not_run_id, const std::string& slice,
                      const std::string& mode) {
  const std::string suffix = "/mode=" + mode;
  return not_run_id.ends_with(suffix) && (not_run_id == "mig/" + slice + suffix ||
                                          not_run_id.find("/" + slice + "/") != std::string::npos);
}

// Measured before (--resume) and nothing of it left over: a slice/mode whose child was stopped
// keeps not_run entries and runs again.
bool already_measured(const Report& report, const std::string& target, Concurrency mode) {
  for (const auto& [id, why] : report.not_run) {
    if (names_slice_mode(id, target, std::string(to_string(mode)))) return false;
  }
  for (const auto& r : report.records) {
    if (r.targets == std::vector<std::string>{target} && r.concurrency == mode) return true;
  }
  return false;
}

double seconds_until(SystemTime t) {
  return std::chrono::duration<double>(t - std::chrono::system_clock::now()).count();
}

}  // namespace

std::vector<Concurrency> mig_modes(const std::string& mig_mode) {
  if (mig_mode == "both") return {Concurrency::isolated, Concurrency::concurrent};
  if (mig_mode == "off") return {};
  if (auto one = parse<Concurrency>(mig_mode); one && *one != Concurrency::not_stated)
    return {*one};
  throw InputError("--mig-mode: expected isolated, concurrent, both or off, got \"" + mig_mode +
                   "\"");
}

std::size_t MigModeRun::turns() const {
  if (mode == Concurrency::concurrent) return slices.empty() ? 0 : 1;
  return slices.size();
}

std::vector<MigModeRun> mig_partition(const std::vector<Target>& slices,
                                      const std::vector<Concurrency>& modes, const Report& report) {
  std::vector<MigModeRun> out;
  for (const auto& mode : modes) {
    MigModeRun run{mode, {}};
    for (const auto& slice : slices) {
      if (!already_measured(report, slice.id, mode)) run.slices.push_back(slice);  // --resume
    }
    if (!run.slices.empty()) out.push_back(std::move(run));
  }
  return out;
}

double child_time_share(double seconds_left, std::size_t turns_left) {
  if (turns_left == 0) return seconds_left;
  return std::max(0.0, seconds_left) / static_cast<double>(turns_left);
}

std::vector<std::string> child_argv(const std::string& exe, const MigRunSettings& settings,
                                    const std::filesystem::path& report,
                                    std::optional<SystemTime> child_deadline) {
  std::vector<std::string> argv = {exe,
                                   "run",
                                   "--child",
                                   settings.cpu_stand_in ? "--no-gpu" : "--no-cpu",
                                   "--no-progress",
                                   "--suite",
                                   settings.suite,
                                   "--out",
                                   report.string()};
  if (settings.tiny) argv.push_back("--tiny");
  if (!settings.filter.empty()) argv.push_back("--filter=" + settings.filter);
  if (child_deadline) argv.push_back("--deadline=" + iso8601_utc(*child_deadline));
  for (const auto& a : settings.benchmark_args) argv.push_back(a);
  return argv;
}

int run_mig_slices(const std::vector<Target>& slices, const MigRunSettings& settings,
                   RunResult& result, const std::filesystem::path& report_path) {
  int exit_code = 0;
  const std::string exe = self_executable();
  const auto dir = std::filesystem::absolute(report_path).parent_path();
  const std::vector<MigModeRun> partition = mig_partition(slices, settings.modes, result.report);
  // Turns still to come: each isolated child is one, a concurrent batch is one.
  std::size_t turns_left = 0;
  for (const auto& run : partition) turns_left += run.turns();
  for (const auto& run : partition) {
    const std::string mode(to_string(run.mode));
    std::vector<ChildSpec> children;
    for (const auto& slice : run.slices) {
      std::erase_if(result.report.not_run,
                    [&](const auto& nr) { return names_slice_mode(nr.first, slice.id, mode); });
      ChildSpec spec;
      spec.target = slice;
      std::string safe = slice.id;
      for (char& c : safe) {
        if (c == '/') c = '_';
      }
      spec.report =
          dir / ("." + report_path.filename().string() + "." + safe + "." + mode + ".json");
      std::filesystem::remove(spec.report);
      spec.env = {{"CUDA_VISIBLE_DEVICES", slice.uuid.value_or("")},
                  {"CUDA_DEVICE_ORDER", "PCI_BUS_ID"}};
      if (settings.cpu_stand_in) spec.child_target_id = "cpu";  // its CPU records stand in
      children.push_back(std::move(spec));
    }
    if (children.empty()) continue;
    const bool concurrent = run.mode == Concurrency::concurrent;
    if (settings.progress) {
      const bool of_slices = settings.children == TargetKind::mig;
      *settings.progress << (of_slices ? "MIG" : "GPUs") << ": " << children.size()
                         << (of_slices ? " slice(s), " : " GPU(s), ") << mode
                         << (concurrent ? " (all at once)" : " (one at a time)") << std::endl;
    }
    std::vector<ChildResult> results;
    // One child (isolated) or the batch (concurrent) at a time, each given its share of the time
    // left, so the slices after it still get theirs.
    const std::size_t batch = concurrent ? children.size() : 1;
    for (std::size_t first = 0; first < children.size(); first += batch) {
      std::vector<ChildSpec> now(children.begin() + static_cast<long>(first),
                                 children.begin() + static_cast<long>(first + batch));
      double timeout = settings.timeout_seconds;
      std::optional<SystemTime> child_deadline;
      std::string no_time;
      if (settings.deadline) {
        const double left = seconds_until(*settings.deadline) - kDeadlineMarginSeconds;
        const double share = child_time_share(left, turns_left);
        child_deadline = std::chrono::system_clock::now() +
                         std::chrono::duration_cast<std::chrono::system_clock::duration>(
                             std::chrono::duration<double>(share));
        timeout = std::min(timeout, share + kChildStopGraceSeconds);
        if (share < kMinChildSeconds) {
          char buf[160];
          std::snprintf(buf, sizeof buf, "time budget: %.0f s left for %zu slice run(s)",
                        std::max(0.0, left), turns_left);
          no_time = buf;
        }
      }
      turns_left = turns_left > 0 ? turns_left - 1 : 0;
      for (auto& c : now) c.argv = child_argv(exe, settings, c.report, child_deadline);
      // What each child was given, beside its start barrier: how a cut-short slice ran.
      for (const auto& c : now) {
        nlohmann::json& facts = result.report.target_telemetry[c.target.id];
        if (!facts.is_object()) facts = nlohmann::json::object();
        facts[mode + "_child"] = {
            {"deadline", child_deadline ? iso8601_utc(*child_deadline) : std::string()},
            {"timeout_seconds", timeout}};
      }
      std::vector<ChildResult> got;
      if (!no_time.empty()) {
        for (const auto& c : now) {
          ChildResult r;
          r.target = c.target;
          r.not_started = true;
          r.not_run_reason = no_time;
          got.push_back(std::move(r));
        }
      } else {
        got = run_children(now, concurrent, timeout, kStartBarrierTimeoutSeconds,
                           &StopSignals::requested());
      }
      for (auto& r : got) {
        if ((r.not_started || r.stopped) && no_time.empty()) r.not_run_reason = signal_stop_cause();
        results.push_back(std::move(r));
      }
    }
    for (const auto& r : results) {
      merge_child_result(result.report, r, run.mode);
      nlohmann::json& child = result.report.target_telemetry[r.target.id][mode + "_child"];
      if (r.not_started) {
        child["not_started"] = r.not_run_reason;
      } else {
        child["seconds"] = r.seconds;
        child["exit_code"] = r.exit_code;
        child["stopped"] = r.stopped;
      }
      if (!r.failure.empty()) exit_code = 1;
      if (settings.progress) {
        *settings.progress << "  " << r.target.id << ": "
                           << (r.not_started ? "not run (" + r.not_run_reason + ")"
                                             : std::to_string(r.records.size()) + " records in " +
                                                   human_duration(r.seconds))
                           << (r.failure.empty() ? "" : ", " + r.failure) << std::endl;
      }
    }
    if (settings.before_checkpoint) settings.before_checkpoint(result.report);
    save_report(result.report, report_path);  // checkpoint after each mode
    for (const auto& c : children) std::filesystem::remove(c.report);
  }
  return exit_code;
}

void run_children_under_run_control(const std::vector<Target>& targets,
                                    const MigRunSettings& settings, RunResult& result,
                                    const std::filesystem::path& report_path,
                                    const std::string& what) {
  const std::size_t not_run_before = result.report.not_run.size();
  if (run_mig_slices(targets, settings, result, report_path) != 0) result.exit_code = 1;
  result.stop_cause = signal_stop_cause();
  if (result.stop_cause.empty() && result.report.not_run.size() > not_run_before) {
    result.stop_cause =
        "time budget: " + std::to_string(result.report.not_run.size() - not_run_before) + " " +
        what + " did not fit";
  }
}

void finish_with_mig_children(const std::vector<Target>& slices, const MigRunSettings& settings,
                              RunResult& result, const std::filesystem::path& report_path) {
  if (result.stop_cause.empty()) {
    run_children_under_run_control(slices, settings, result, report_path,
                                   "MIG benchmark(s) or slice run(s)");
  } else {
    for (const auto& slice : slices) {
      for (const auto& mode : settings.modes)
        result.report.not_run.emplace_back(
            "mig/" + slice.id + "/mode=" + std::string(to_string(mode)), result.stop_cause);
    }
  }
  finish_report(result.report, result.stop_cause);
  save_report(result.report, report_path);
}

}  // namespace gpusizer::bench
