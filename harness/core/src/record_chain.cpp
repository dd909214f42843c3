#include "gpusizer/record_chain.hpp"

#include "gpusizer/report_io.hpp"

namespace gpusizer {
namespace {

using nlohmann::json;

std::string item_name(const char* kind, const json& item) {
  const auto id = item.is_object() ? item.find("id") : item.end();
  const bool named = item.is_object() && id != item.end() && id->is_string();
  return std::string(kind) + " " + (named ? id->get<std::string>() : std::string("(no id)"));
}

std::string text_at(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

json record_chain(const json& report) {
  json links = json::array();
  std::string previous = kRecordChainSeed;
  for (const char* kind : {"targets", "records"}) {
    const auto list = report.find(kind);
    if (list == report.end() || !list->is_array()) continue;
    const char* singular = kind[0] == 't' ? "target" : "record";
    for (const auto& item : *list) {
      // Invalid UTF-8 is replaced (U+FFFD) as the printers write it, so the chain matches the file.
      previous = sha256_hex(previous + item.dump(-1, ' ', false, json::error_handler_t::replace));
      links.push_back({{"item", item_name(singular, item)}, {"sha256", previous}});
    }
  }
  const std::string head = links.empty() ? sha256_hex(previous) : previous;
  return {{"algorithm", kRecordChainAlgorithm}, {"links", links}, {"head", head}};
}

std::vector<std::string> record_chain_findings(const json& report) {
  std::vector<std::string> findings;
  const auto stored = report.find("integrity");
  if (stored == report.end() || !stored->is_object()) {
    findings.push_back(
        "no record chain: the report was written by a gpusizer older than the chain "
        "or its \"integrity\" block was removed");
    return findings;
  }
  if (text_at(*stored, "algorithm") != kRecordChainAlgorithm) {
    findings.push_back("record chain: unknown algorithm \"" + text_at(*stored, "algorithm") +
                       "\" (this gpusizer checks " + kRecordChainAlgorithm + ")");
    return findings;
  }
  const json fresh = record_chain(report);
  const auto links = stored->find("links");
  const json empty = json::array();
  const json& written = links != stored->end() && links->is_array() ? *links : empty;
  const auto& now = fresh["links"];
  // The first link that differs names the item edited (every later link differs with it).
  for (std::size_t i = 0; i < now.size(); ++i) {
    if (i >= written.size()) {
      findings.push_back(now[i]["item"].get<std::string>() +
                         ": added after the report was written (not in its record chain)");
      break;
    }
    if (!written[i].is_object() ||
        text_at(written[i], "sha256") != now[i]["sha256"].get<std::string>()) {
      const std::string was = written[i].is_object() ? text_at(written[i], "item") : "";
      const std::string name = now[i]["item"].get<std::string>();
      findings.push_back(name + (was == name || was.empty()
                                     ? ": changed after it was written (its digest differs)"
                                     : ": not what the chain recorded at this place (" + was +
                                           "): items removed, added or reordered"));
      break;
    }
  }
  if (findings.empty() && written.size() > now.size()) {
    findings.push_back(std::to_string(written.size() - now.size()) +
                       " item(s) removed after the report was written (first: " +
                       text_at(written[now.size()], "item") + ")");
  }
  if (findings.empty() && text_at(*stored, "head") != fresh["head"].get<std::string>()) {
    findings.push_back("record chain: the stored head does not match the links");
  }
  return findings;
}

std::vector<std::string> record_chain_breaks(const json& report) {
  std::vector<std::string> breaks;
  const auto stored = report.find("integrity");
  if (stored == report.end() || !stored->is_object()) return breaks;
  if (const auto list = stored->find("breaks"); list != stored->end() && list->is_array()) {
    for (const auto& b : *list) breaks.push_back(b.is_string() ? b.get<std::string>() : b.dump());
  }
  return breaks;
}

}  // namespace gpusizer
