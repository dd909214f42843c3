#include "gpusizer/run_history.hpp"

#include <algorithm>
#include <set>

namespace gpusizer {
namespace {

std::string tool_text(const ToolInfo& t) {
  return "gpusizer " + t.version + " (" + t.git_revision + ")";
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

std::vector<std::string> device_lines(const std::vector<Target>& targets) {
  std::vector<std::string> out;
  for (const auto& t : targets) {
    if (t.kind == TargetKind::cpu) continue;
    out.push_back(t.id + ": " + t.name + (t.uuid ? " (" + *t.uuid + ")" : ""));
  }
  return out;
}

}  // namespace

std::vector<std::string> gpu_models(const std::vector<Target>& targets) {
  std::set<std::string> models;
  for (const auto& t : targets) {
    if (t.kind == TargetKind::gpu) models.insert(t.name);
  }
  return {models.begin(), models.end()};
}

Provenance provenance_of(const Report& report) {
  return Provenance{report.tool, report.host.hostname, report.suite, gpu_models(report.targets)};
}

std::string provenance_difference(const Provenance& report, const Provenance& here) {
  std::vector<std::string> diffs;
  if (report.hostname != here.hostname) {
    diffs.push_back("host \"" + report.hostname + "\" (report) vs \"" + here.hostname +
                    "\" (here)");
  }
  if (report.tool.version != here.tool.version ||
      report.tool.git_revision != here.tool.git_revision) {
    diffs.push_back(tool_text(report.tool) + " (report) vs " + tool_text(here.tool) + " (here)");
  }
  if (report.suite != here.suite) {
    diffs.push_back("suite " + report.suite + " (report) vs " + here.suite + " (here)");
  }
  if (report.gpu_models && here.gpu_models && !report.gpu_models->empty() &&
      !here.gpu_models->empty() && *report.gpu_models != *here.gpu_models) {
    diffs.push_back("GPU models " + join(*report.gpu_models) + " (report) vs " +
                    join(*here.gpu_models) + " (here)");
  }
  std::string out;
  for (const auto& d : diffs) out += (out.empty() ? "" : "; ") + d;
  return out;
}

void open_session(Report& report, const Provenance& here, const std::string& started_at,
                  const std::string& differs) {
  std::string stopped_by;
  std::erase_if(report.warnings, [&](const std::string& w) {
    if (w.rfind(kRunStoppedWarning, 0) != 0) return false;
    stopped_by = w.substr(std::string(kRunStoppedWarning).size());
    return true;
  });
  if (report.history.empty() && !report.started_at.empty()) {
    // Written before the history existed: one entry for the run that wrote it.
    RunSession first;
    first.started_at = report.started_at;
    first.finished_at = report.finished_at;
    first.status = report.status;
    first.stop_reason = stopped_by;
    first.tool = report.tool;
    first.hostname = report.host.hostname;
    first.suite = report.suite;
    first.devices = device_lines(report.targets);
    for (const auto& r : report.records) first.records.push_back(r.id);
    report.history.push_back(std::move(first));
  } else if (!report.history.empty() && report.history.back().stop_reason.empty()) {
    report.history.back().stop_reason = stopped_by;
  }
  if (!report.history.empty() && report.history.back().status == ReportStatus::running) {
    // Killed (kill -9, power loss) before it could finish the report.
    report.history.back().status = ReportStatus::stopped;
    report.history.back().stop_reason = "ended without finishing the report (killed)";
  }
  RunSession now;
  now.started_at = started_at;
  now.tool = here.tool;
  now.hostname = here.hostname;
  now.suite = here.suite;
  now.differs = differs;
  report.history.push_back(std::move(now));
}

void note_session_devices(Report& report, const std::vector<Target>& targets) {
  if (!report.history.empty()) report.history.back().devices = device_lines(targets);
}

void forget_earlier_record(Report& report, const std::string& record_id) {
  for (std::size_t i = 0; i + 1 < report.history.size(); ++i) {
    std::erase(report.history[i].records, record_id);
  }
}

void update_session(Report& report, ReportStatus status, const std::string& stop_reason,
                    const std::string& finished_at) {
  if (report.history.empty()) return;
  std::set<std::string> earlier;
  for (std::size_t i = 0; i + 1 < report.history.size(); ++i) {
    earlier.insert(report.history[i].records.begin(), report.history[i].records.end());
  }
  RunSession& s = report.history.back();
  s.status = status;
  s.stop_reason = stop_reason;
  s.finished_at = finished_at;
  s.records.clear();
  for (const auto& r : report.records) {
    if (!earlier.count(r.id)) s.records.push_back(r.id);
  }
}

}  // namespace gpusizer
