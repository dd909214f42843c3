// Fleet reports: several hosts in one report (see fleet.hpp).
#include "gpusizer/fleet.hpp"

#include <algorithm>

#include "gpusizer/error.hpp"

namespace gpusizer {
namespace {

bool tiny_of(const Report& r) {
  return r.settings.contains("tiny") && r.settings["tiny"].is_boolean() &&
         r.settings["tiny"].get<bool>();
}

std::string suite_name(const Report& r) {
  return "\"" + r.suite + "\"" + (tiny_of(r) ? " (--tiny)" : "");
}

// Later status wins in this order: a fleet is complete only when every member is.
int status_rank(ReportStatus s) {
  switch (s) {
    case ReportStatus::failed:
      return 3;
    case ReportStatus::running:
      return 2;
    case ReportStatus::stopped:
      return 1;
    case ReportStatus::complete:
    case ReportStatus::empty:
      break;
  }
  return 0;
}

// The target part of a case id, "<family>/<operation>/<targets>/...", read with the host's own
// target ids (which may hold '/', as MIG slices do). Returns the ids matched at `pos` and sets
// `length` to the text they span; no ids if the text there is not a '+'-joined list of known ids
// followed by '/' or the end.
std::vector<std::string> match_targets(const std::string& id, std::size_t pos,
                                       const std::vector<std::string>& known, std::size_t& length) {
  std::vector<std::string> matched;
  std::size_t at = pos;
  while (true) {
    const std::string* best = nullptr;
    for (const auto& k : known) {
      if (k.size() > (best == nullptr ? 0 : best->size()) && id.compare(at, k.size(), k) == 0) {
        const std::size_t end = at + k.size();
        if (end == id.size() || id[end] == '/' || id[end] == '+') best = &k;
      }
    }
    if (best == nullptr) return {};
    matched.push_back(*best);
    at += best->size();
    if (at == id.size() || id[at] == '/') {
      length = at - pos;
      return matched;
    }
    ++at;  // '+'
  }
}

std::vector<std::string> fleet_target_ids(const std::string& host_id,
                                          const std::vector<std::string>& local_ids) {
  std::vector<std::string> out;
  for (const auto& id : local_ids) out.push_back(fleet_target_id(host_id, id));
  return out;
}

// Renames the target part of a case id; an id of another shape gets "<host>:" in front.
std::string rename_id(const std::string& id, const std::string& host_id,
                      const std::vector<std::string>& known) {
  std::size_t pos = 0;
  for (int slash = 0; slash < 2; ++slash) {
    pos = id.find('/', pos);
    if (pos == std::string::npos) return host_id + ":" + id;
    ++pos;
  }
  // gemm ids carry the dtype as the operation segment: family/dtype/target/...
  std::size_t len = 0;
  const std::vector<std::string> targets = match_targets(id, pos, known, len);
  if (targets.empty()) return host_id + ":" + id;
  return id.substr(0, pos) + join_target_ids(fleet_target_ids(host_id, targets)) +
         id.substr(pos + len);
}

}  // namespace

std::string fleet_target_id(const std::string& host_id, const std::string& local_id) {
  return host_id + ":" + local_id;
}

void copy_provenance(const Report& from, Report& to) {
  to.tool = from.tool;
  to.command_line = from.command_line;
  to.started_at = from.started_at;
  to.finished_at = from.finished_at;
  to.status = from.status;
  to.suite = from.suite;
  to.settings = from.settings;
}

void FleetBuilder::check_compatible(const Report& member, const std::string& source) {
  if (members_ == 0) return;
  if (member.suite != fleet_.suite || tiny_of(member) != tiny_of(fleet_)) {
    throw InputError(source + ": suite " + suite_name(member) + " differs from " + first_source_ +
                     "'s " + suite_name(fleet_) +
                     " (a fleet report holds one suite: measure every host with the same one)");
  }
  if (member.tool.version != fleet_.tool.version) {
    throw InputError(source + ": gpusizer version \"" + member.tool.version + "\" differs from " +
                     first_source_ + "'s \"" + fleet_.tool.version +
                     "\" (measure every host with the same gpusizer)");
  }
  if (member.tool.git_revision != fleet_.tool.git_revision) {
    const std::string w = "hosts measured by different builds of gpusizer " + fleet_.tool.version +
                          ": " + fleet_.tool.git_revision + " (" + first_source_ + ") and " +
                          member.tool.git_revision + " (" + source + ")";
    if (std::find(fleet_.warnings.begin(), fleet_.warnings.end(), w) == fleet_.warnings.end())
      fleet_.warnings.push_back(w);
  }
}

Host& FleetBuilder::host_entry(const Host& host, const std::string& source,
                               std::optional<int> rank) {
  if (host.hostname.empty() || host.hostname.find_first_of(":+/ ") != std::string::npos) {
    throw InputError(source + ": host.hostname \"" + host.hostname +
                     "\" cannot name a fleet host (empty, or holds ':', '+', '/' or a space)");
  }
  for (auto& h : fleet_.hosts) {
    if (h.id != host.hostname) continue;
    if (!combine_same_host_) {
      throw InputError(source + ": host \"" + host.hostname + "\" is already in the fleet (from " +
                       h.source + "); each host is merged once");
    }
    if (rank) h.ranks.push_back(*rank);
    return h;
  }
  Host h = host;
  h.id = host.hostname;
  h.source = source;
  h.ranks.clear();
  if (rank) h.ranks.push_back(*rank);
  fleet_.hosts.push_back(std::move(h));
  return fleet_.hosts.back();
}

void FleetBuilder::add_fleet(const Report& member, const std::string& source) {
  for (const auto& h : member.hosts) {
    for (const auto& existing : fleet_.hosts) {
      if (existing.id == h.id) {
        throw InputError(source + ": host \"" + h.id + "\" is already in the fleet (from " +
                         existing.source + "); each host is merged once");
      }
    }
    fleet_.hosts.push_back(h);
  }
  for (const auto& t : member.targets) fleet_.targets.push_back(t);
  for (const auto& r : member.records) fleet_.records.push_back(r);
  for (const auto& nr : member.not_run) fleet_.not_run.push_back(nr);
  for (const auto& [k, v] : member.target_telemetry.items()) fleet_.target_telemetry[k] = v;
  for (const auto& w : member.warnings) fleet_.warnings.push_back(w);
}

void FleetBuilder::add(const Report& member, const std::string& source, std::optional<int> rank) {
  check_compatible(member, source);
  // A member that did not hold its record chain keeps the fleet from verifying (record_chain.hpp).
  for (const auto& b : member.integrity_breaks)
    fleet_.integrity_breaks.push_back(source + ": " + b);
  if (members_ == 0) {
    first_source_ = source;
    copy_provenance(member, fleet_);
    fleet_.host = member.host;
  } else {
    if (member.started_at < fleet_.started_at) fleet_.started_at = member.started_at;
    if (member.finished_at.empty() || fleet_.finished_at.empty()) {
      fleet_.finished_at.clear();
    } else if (member.finished_at > fleet_.finished_at) {
      fleet_.finished_at = member.finished_at;
    }
    if (status_rank(member.status) > status_rank(fleet_.status)) fleet_.status = member.status;
  }
  ++members_;
  if (!member.hosts.empty()) {
    add_fleet(member, source);
    return;
  }
  const std::string host_id = host_entry(member.host, source, rank).id;
  std::vector<std::string> known;
  for (const auto& t : member.targets) known.push_back(t.id);
  for (const auto& local : member.targets) {
    Target t = local;
    t.id = fleet_target_id(host_id, local.id);
    if (t.parent) t.parent = fleet_target_id(host_id, *t.parent);
    t.host = host_id;
    if (fleet_.find_target(t.id) != nullptr) {
      fleet_.warnings.push_back(source + ": target " + t.id +
                                " was already measured by another rank on this host; kept once");
      continue;
    }
    fleet_.targets.push_back(std::move(t));
  }
  for (const auto& local : member.records) {
    Record r = local;
    r.id = rename_id(local.id, host_id, known);
    r.targets = fleet_target_ids(host_id, local.targets);
    if (fleet_.find_record(r.id) != nullptr) continue;
    fleet_.records.push_back(std::move(r));
  }
  for (const auto& [id, why] : member.not_run)
    fleet_.not_run.emplace_back(rename_id(id, host_id, known), why);
  for (const auto& [k, v] : member.target_telemetry.items())
    fleet_.target_telemetry[fleet_target_id(host_id, k)] = v;
  for (const auto& w : member.warnings) fleet_.warnings.push_back(host_id + ": " + w);
}

Report merge_reports(const std::vector<std::pair<std::string, Report>>& inputs) {
  FleetBuilder builder(false);
  for (const auto& [file, report] : inputs) builder.add(report, file);
  Report fleet = builder.report();
  if (fleet.hosts.size() < 2) {
    throw InputError("merge: " + std::to_string(fleet.hosts.size()) +
                     " host(s) given; a fleet report needs reports of at least two hosts");
  }
  nlohmann::json merged = nlohmann::json::array();
  for (const auto& [file, report] : inputs) {
    merged.push_back({{"file", file},
                      {"hostname", report.host.hostname},
                      {"status", report.status},
                      {"records", report.records.size()}});
  }
  fleet.settings["fleet"] = {{"how", "merge"}, {"inputs", merged}};
  return fleet;
}

}  // namespace gpusizer

namespace gpusizer {

std::string fleet_summary(const Report& fleet) {
  std::string out = "fleet: " + std::to_string(fleet.hosts.size()) + " hosts:";
  bool first = true;
  for (const auto& h : fleet.hosts) {
    int targets = 0;
    for (const auto& t : fleet.targets) targets += t.host == h.id ? 1 : 0;
    out += std::string(first ? " " : ", ") + h.id + " (" +
           (h.instance_type ? h.instance_type->value : std::string("instance type unknown")) +
           ", " + std::to_string(targets) + " targets)";
    first = false;
  }
  return out;
}

}  // namespace gpusizer
