// JSON conversion of a report's run history (RunSession); see docs/report-format.md.
#include "gpusizer/report_io.hpp"

namespace gpusizer {
namespace {

std::vector<std::string> strings_of(const JsonInput& in) {
  std::vector<std::string> out;
  for (const auto& item : in.items()) out.push_back(item.string());
  return out;
}

}  // namespace

nlohmann::json to_json(const RunSession& s) {
  nlohmann::json j{
      {"started_at", s.started_at},
      {"finished_at", s.finished_at},
      {"status", s.status},
      {"tool",
       {{"name", s.tool.name}, {"version", s.tool.version}, {"git_revision", s.tool.git_revision}}},
      {"hostname", s.hostname},
      {"suite", s.suite},
      {"devices", s.devices},
      {"records", s.records}};
  if (!s.stop_reason.empty()) j["stop_reason"] = s.stop_reason;
  if (!s.differs.empty()) j["differs"] = s.differs;
  return j;
}

RunSession session_from_json(const JsonInput& in) {
  in.allow_only({"started_at", "finished_at", "status", "stop_reason", "tool", "hostname", "suite",
                 "devices", "differs", "records"});
  RunSession s;
  s.started_at = in.string_at("started_at");
  s.finished_at = in.string_at("finished_at");
  s.status = in.at("status").enumerated<ReportStatus>();
  s.stop_reason = in.optional_string("stop_reason").value_or("");
  auto tool = in.at("tool");
  tool.allow_only({"name", "version", "git_revision"});
  s.tool =
      ToolInfo{tool.string_at("name"), tool.string_at("version"), tool.string_at("git_revision")};
  s.hostname = in.string_at("hostname");
  s.suite = in.string_at("suite");
  s.devices = strings_of(in.at("devices"));
  s.differs = in.optional_string("differs").value_or("");
  s.records = strings_of(in.at("records"));
  return s;
}

}  // namespace gpusizer
