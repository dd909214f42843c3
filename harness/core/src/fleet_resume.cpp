// Splitting a fleet report back into the ranks' parts (fleet_resume.hpp).
#include "gpusizer/fleet_resume.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

#include "gpusizer/error.hpp"
#include "gpusizer/fleet.hpp"

namespace gpusizer {
namespace {

bool segment_start(const std::string& id, std::size_t i) {
  return i == 0 || id[i - 1] == '/' || id[i - 1] == '+';
}

// The id as the rank wrote it: every "<host>:" at the start of a target part removed (the inverse
// of FleetBuilder's renaming; a host id holds no ':', '+', '/').
std::string strip_host(const std::string& id, const std::string& host_id) {
  const std::string prefix = host_id + ":";
  std::string out;
  std::size_t i = 0;
  while (i < id.size()) {
    if (segment_start(id, i) && id.compare(i, prefix.size(), prefix) == 0) {
      i += prefix.size();
      continue;
    }
    out += id[i++];
  }
  return out;
}

// The local id of the first target part of `host_id` in `id` ("h:gpu1+h:gpu2/..." -> "gpu1").
std::optional<std::string> first_local_target(const std::string& id, const std::string& host_id) {
  const std::string prefix = host_id + ":";
  for (std::size_t i = 0; i < id.size(); ++i) {
    if (!segment_start(id, i) || id.compare(i, prefix.size(), prefix) != 0) continue;
    const std::size_t from = i + prefix.size();
    const std::size_t end = id.find_first_of("/+", from);
    return id.substr(from, end == std::string::npos ? std::string::npos : end - from);
  }
  return std::nullopt;
}

// True when every target of a record sits on `host_id`.
bool all_on_host(const std::vector<std::string>& targets, const std::string& host_id) {
  return !targets.empty() &&
         std::all_of(targets.begin(), targets.end(), [&](const std::string& id) {
           return id.compare(0, host_id.size() + 1, host_id + ":") == 0;
         });
}

std::string ranks_text(const std::vector<int>& ranks) {
  std::string out;
  for (int r : ranks) out += (out.empty() ? "" : ",") + std::to_string(r);
  return out;
}

std::string layout_text(const std::map<std::string, std::vector<int>>& hosts) {
  std::string out;
  for (const auto& [h, ranks] : hosts)
    out += (out.empty() ? "" : ", ") + h + " (ranks " + ranks_text(ranks) + ")";
  return out;
}

}  // namespace

int owner_local_rank(const std::string& local_target_id, int local_size) {
  if (local_size <= 1 || local_target_id.size() < 4 || local_target_id.compare(0, 3, "gpu") != 0)
    return 0;
  long index = 0;
  for (std::size_t i = 3; i < local_target_id.size(); ++i) {
    const char c = local_target_id[i];
    if (std::isdigit(static_cast<unsigned char>(c)) == 0) return 0;  // a MIG slice, say
    index = std::min(index * 10 + (c - '0'), 1L << 20);
  }
  return static_cast<int>(index % local_size);
}

bool is_fleet_collective(const std::string& id) {
  return id.find("/backend=") != std::string::npos;
}

void check_fleet_matches_ranks(const Report& fleet,
                               const std::vector<std::string>& hostnames_by_rank,
                               const std::string& source) {
  const auto& how = fleet.settings.contains("fleet") ? fleet.settings["fleet"] : nlohmann::json();
  if (fleet.hosts.empty() || !how.is_object() || how.value("how", "") != "mpi") {
    throw InputError(source + ": --resume under MPI: not a fleet report written by an MPI run " +
                     (fleet.hosts.empty()
                          ? std::string("(a single-host report: resume it without mpirun)")
                          : std::string("(made by gpusizer merge: resume each host's own report, "
                                        "then merge them again)")));
  }
  std::map<std::string, std::vector<int>> here, there;
  for (std::size_t r = 0; r < hostnames_by_rank.size(); ++r)
    here[hostnames_by_rank[r]].push_back(static_cast<int>(r));
  for (const auto& h : fleet.hosts) there[h.id] = h.ranks;
  if (here != there) {
    throw InputError(source + ": --resume under MPI: the report's hosts " + layout_text(there) +
                     " differ from this run's " + layout_text(here) +
                     "; resume it with the same hosts and ranks per host");
  }
}

Report fleet_part_for_rank(const Report& fleet, const std::string& host_id, int local_rank,
                           int local_size) {
  auto mine = [&](const std::string& local_id) {
    return owner_local_rank(local_id, local_size) == local_rank;
  };
  Report part;
  copy_provenance(fleet, part);
  if (part.settings.is_object()) part.settings.erase("fleet");
  for (const auto& h : fleet.hosts) {
    if (h.id != host_id) continue;
    part.host = h;
    part.host.id.clear();
    part.host.ranks.clear();
    part.host.source.clear();
  }
  for (const auto& t : fleet.targets) {
    if (t.host != host_id) continue;
    Target local = t;
    local.id = strip_host(t.id, host_id);
    if (!mine(local.id)) continue;
    if (local.parent) local.parent = strip_host(*local.parent, host_id);
    local.host.reset();
    part.targets.push_back(std::move(local));
  }
  std::set<std::string> record_ids;  // the fleet's ids of the part's records
  for (const auto& r : fleet.records) {
    if (is_fleet_collective(r.id) || !all_on_host(r.targets, host_id)) continue;
    Record local = r;
    for (auto& id : local.targets) id = strip_host(id, host_id);
    if (!mine(local.targets.front())) continue;
    local.id = strip_host(r.id, host_id);
    record_ids.insert(r.id);
    part.records.push_back(std::move(local));
  }
  for (const auto& [id, why] : fleet.not_run) {
    const auto first = first_local_target(id, host_id);
    if (is_fleet_collective(id) || !first || !mine(*first)) continue;
    part.not_run.emplace_back(strip_host(id, host_id), why);
  }
  if (fleet.target_telemetry.is_object()) {
    for (const auto& [key, value] : fleet.target_telemetry.items()) {
      if (key.rfind(host_id + ":", 0) != 0) continue;
      const std::string local = strip_host(key, host_id);
      if (mine(local)) part.target_telemetry[local] = value;
    }
  }
  if (local_rank == 0) {
    const std::string prefix = host_id + ": ";
    for (const auto& w : fleet.warnings) {
      if (w.rfind(prefix, 0) == 0) part.warnings.push_back(w.substr(prefix.size()));
    }
  }
  for (const auto& session : fleet.history) {
    RunSession s = session;
    s.records.clear();
    for (const auto& id : session.records) {
      if (record_ids.count(id)) s.records.push_back(strip_host(id, host_id));
    }
    part.history.push_back(std::move(s));
  }
  return part;
}

}  // namespace gpusizer
