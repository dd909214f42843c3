#include "gpusizer/bench/resume.hpp"

#include <algorithm>
#include <set>

#include "gpusizer/bench/record_builder.hpp"

namespace gpusizer::bench {

CaseList cases_to_run(CaseList planned, const CaseFilter& filter, Report& report) {
  std::set<std::string> recorded;
  for (const auto& r : report.records) {
    if (std::find(r.flags.begin(), r.flags.end(), kCutShortFlag) == r.flags.end())
      recorded.insert(r.id);
  }
  CaseList cases;
  for (auto& c : planned) {
    if (!filter.accepts(c.id) || recorded.count(c.id)) continue;
    cases.push_back(std::move(c));
  }
  // Cases that run now are no longer "not run".
  std::erase_if(report.not_run, [&](const auto& nr) {
    return std::any_of(cases.begin(), cases.end(),
                       [&](const BenchCase& c) { return c.id == nr.first; });
  });
  return cases;
}

void inherit_settings(RunRequest& request, const nlohmann::json& s) {
  auto text = [&](const char* key) {
    return s.contains(key) && s[key].is_string() ? s[key].get<std::string>() : std::string();
  };
  const auto given = [&](const char* flag) { return request.given.count(flag) > 0; };
  if (!given("--suite") && !text("suite").empty()) request.suite = text("suite");
  if (!given("--filter")) request.filter = text("filter");
  if (!given("--io-dir")) request.io_dir = text("io_directory");
  if (!given("--gpu-mode") && !text("gpu_mode").empty()) request.gpu_mode = text("gpu_mode");
  if (!given("--tiny") && s.contains("tiny") && s["tiny"].is_boolean()) {
    request.tiny = s["tiny"].get<bool>();
  }
  if (request.benchmark_args.empty() && s.contains("benchmark_flags") &&
      s["benchmark_flags"].is_array()) {
    for (const auto& f : s["benchmark_flags"]) {
      if (f.is_string()) request.benchmark_args.push_back(f.get<std::string>());
    }
  }
}

}  // namespace gpusizer::bench
