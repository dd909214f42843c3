#include "gpusizer/bench/run_control.hpp"

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>

#include "gpusizer/error.hpp"
#include "gpusizer/host_info.hpp"
#include "gpusizer/report_io.hpp"
#include "gpusizer/run_history.hpp"
#include "gpusizer/stop_signals.hpp"

namespace gpusizer::bench {
namespace {

std::string suite_name(const RunOptions& o) {
  return o.tiny ? to_string(o.suite) + "-tiny" : to_string(o.suite);
}

std::string refusal(const std::filesystem::path& file, const std::string& differs) {
  return file.string() + ": --resume: " + differs +
         "; pass --allow-mixed-resume to add to it anyway (its history then says which run "
         "measured which record)";
}

void allow_mix(Report& report, const std::string& differs) {
  RunSession& s = report.history.back();
  s.differs = s.differs.empty() ? differs : s.differs + "; " + differs;
  add_warning_once(report, "resumed with --allow-mixed-resume: " + differs +
                               "; history says which run measured which record");
}

}  // namespace

void add_warning_once(Report& report, const std::string& w) {
  if (std::find(report.warnings.begin(), report.warnings.end(), w) == report.warnings.end())
    report.warnings.push_back(w);
}

Report start_report(const RunOptions& o) {
  const Host host = collect_host();
  const Provenance here{current_tool(), host.hostname, suite_name(o), std::nullopt};
  if (o.resume) {
    Report r = load_report(*o.resume);
    if (!r.hosts.empty()) {
      throw InputError(o.resume->string() + ": --resume: a fleet report of " +
                       std::to_string(r.hosts.size()) +
                       " host(s) is continued only by the MPI run that wrote it, on the same "
                       "hosts and ranks (mpirun ... gpusizer run --resume; docs/multi-node.md)");
    }
    const std::string differs = provenance_difference(provenance_of(r), here);
    if (!differs.empty() && !o.allow_mixed_resume) throw InputError(refusal(*o.resume, differs));
    r.status = ReportStatus::running;
    r.finished_at.clear();
    r.command_line = o.command_line;
    open_session(r, here, now_iso8601_utc(), "");
    if (!differs.empty()) allow_mix(r, differs);
    return r;
  }
  Report r;
  r.tool = here.tool;
  r.command_line = o.command_line;
  open_session(r, here, iso8601_utc(o.start), "");  // a new report: its first entry
  r.started_at = r.history.front().started_at;
  r.suite = here.suite;
  r.host = host;
  if (o.instance_type) r.host.instance_type = o.instance_type;
  return r;
}

void check_resumed_gpus(Report& report, const std::vector<Target>& before,
                        const std::vector<Target>& here, const RunOptions& o) {
  note_session_devices(report, here);
  if (!o.resume) return;
  Provenance was, now;
  was.gpu_models = gpu_models(before);
  now.gpu_models = gpu_models(here);
  const std::string differs = provenance_difference(was, now);
  if (differs.empty()) return;
  if (!o.allow_mixed_resume) throw InputError(refusal(*o.resume, differs));
  allow_mix(report, differs);
}

std::optional<SystemTime> run_deadline(const RunOptions& o) {
  std::optional<SystemTime> deadline = o.deadline;
  if (o.time_budget_seconds > 0) {
    const SystemTime by_budget =
        o.start + std::chrono::duration_cast<std::chrono::system_clock::duration>(
                      std::chrono::duration<double>(o.time_budget_seconds));
    deadline = deadline ? std::min(*deadline, by_budget) : by_budget;
  }
  return deadline;
}

void check_budget_fits(const RunOptions& o, const CaseList& cases) {
  const auto deadline = run_deadline(o);
  if (!o.check_budget || !deadline || cases.empty()) return;
  const double shortest = std::min_element(cases.begin(), cases.end(), [](auto& a, auto& b) {
                            return a.estimated_seconds < b.estimated_seconds;
                          })->estimated_seconds;
  const double left = std::chrono::duration<double>(*deadline - o.start).count();
  if (left - kDeadlineMarginSeconds >= shortest) return;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "leaves %.1f s, too little for any benchmark planned: the shortest needs ~%.1f s, "
                "and %.0f s are kept to write the report",
                std::max(0.0, left), shortest, kDeadlineMarginSeconds);
  if (o.deadline && *o.deadline <= *deadline) {
    throw InputError("--deadline " + iso8601_utc(*o.deadline) + " " + buf);
  }
  char budget[64];
  std::snprintf(budget, sizeof budget, "%g s ", o.time_budget_seconds);
  throw InputError("--time-budget " + std::string(budget) + buf);
}

void check_deadline_ahead(const RunOptions& o) {
  if (!o.check_budget) return;
  const auto now = std::chrono::system_clock::now();
  if (o.deadline && *o.deadline <= now) {
    throw InputError("--deadline " + iso8601_utc(*o.deadline) + " is in the past (now " +
                     iso8601_utc(now) + ")");
  }
  if (o.time_budget_seconds > 0 && o.time_budget_seconds <= kDeadlineMarginSeconds) {
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "--time-budget %g s: too short for any benchmark (%.0f s are kept to write the "
                  "report)",
                  o.time_budget_seconds, kDeadlineMarginSeconds);
    throw InputError(buf);
  }
}

std::string budget_refusal(double estimated_seconds, double seconds_left, SystemTime deadline) {
  if (seconds_left >= estimated_seconds) return "";
  char buf[128];
  std::snprintf(buf, sizeof buf, "time budget: needs ~%.0f s, %.0f s left before %s",
                estimated_seconds, std::max(0.0, seconds_left), iso8601_utc(deadline).c_str());
  return buf;
}

double sampling_cap_for(double time_cap_seconds, double seconds_left) {
  return std::min(time_cap_seconds, std::max(0.05, seconds_left / 3));
}

int repetitions_for_case(std::int64_t requested, std::optional<double> seconds_left,
                         double estimated_seconds, std::string& note) {
  std::int64_t reps = std::clamp<std::int64_t>(requested, 1, kMaxRepetitions);
  char buf[192];
  if (reps < requested) {
    std::snprintf(buf, sizeof buf, "%lld asked, at most %lld per benchmark",
                  static_cast<long long>(requested), static_cast<long long>(kMaxRepetitions));
    note = buf;
  }
  if (seconds_left && estimated_seconds > 0) {
    const double fit = std::floor(std::max(0.0, *seconds_left) / estimated_seconds);
    const auto allowed = static_cast<std::int64_t>(std::max(1.0, std::min(fit, 1e9)));
    if (allowed < reps) {
      std::snprintf(buf, sizeof buf, "%lld asked, %lld run: %.0f s left, ~%.1f s each",
                    static_cast<long long>(requested), static_cast<long long>(allowed),
                    *seconds_left, estimated_seconds);
      note = buf;
      reps = allowed;
    }
  }
  return static_cast<int>(reps);
}

std::string signal_stop_cause() {
  const int sig = StopSignals::signal_number();
  if (sig == 0) return "";
  return std::string("interrupted by signal ") + (sig == SIGTERM ? "SIGTERM" : "SIGINT");
}

bool measured_anything(const Report& report) {
  return std::any_of(report.records.begin(), report.records.end(), [](const Record& r) {
    return r.status == RecordStatus::ok || r.status == RecordStatus::failed;
  });
}

void finish_report(Report& report, const std::string& stop_cause) {
  report.finished_at = now_iso8601_utc();
  const bool stopped = !stop_cause.empty() || !report.not_run.empty();
  report.status = stopped                     ? ReportStatus::stopped
                  : measured_anything(report) ? ReportStatus::complete
                                              : ReportStatus::empty;
  if (!stop_cause.empty()) add_warning_once(report, kRunStoppedWarning + stop_cause);
  update_session(report, report.status, stop_cause, report.finished_at);
}

}  // namespace gpusizer::bench
