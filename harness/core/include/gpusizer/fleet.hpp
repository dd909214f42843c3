// Fleet reports: the measurements of several hosts in one report. `gpusizer merge` builds one from
// reports measured separately; an MPI run builds one from every rank's records. Each host is kept
// with its instance type (Report::hosts), each target names its host and its id becomes
// "<host id>:<id>" so that one device on one host is one target, and record ids, record targets,
// not-run ids and per-target facts are renamed the same way.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpusizer/report.hpp"

namespace gpusizer {

// "<host id>:<local id>": a target's id in a fleet report.
std::string fleet_target_id(const std::string& host_id, const std::string& local_id);

// Copies what the parts of a fleet report share about the run: tool, command line, start and
// finish, status, suite and settings (not the host). A fleet report takes them from its first
// member (FleetBuilder::add), and each rank's part takes them back (fleet_part_for_rank).
void copy_provenance(const Report& from, Report& to);

class FleetBuilder {
 public:
  // `combine_same_host`: an MPI run, where several ranks share a host and together measure its
  // devices; otherwise (merge) two reports of one host are refused.
  explicit FleetBuilder(bool combine_same_host) : combine_same_host_(combine_same_host) {}

  // Adds one report of one host, or a fleet report (its hosts are carried over as they are).
  // `source` names it in messages and in the host entry ("a.json", "MPI rank 3"). Throws
  // InputError, one line naming `source`, on a different suite, a different gpusizer version
  // or (unless combining) a host already present.
  void add(const Report& member, const std::string& source, std::optional<int> rank = {});

  // The fleet so far (status and times combined over the members).
  const Report& report() const { return fleet_; }
  Report& report() { return fleet_; }
  bool empty() const { return members_ == 0; }

 private:
  void check_compatible(const Report& member, const std::string& source);
  Host& host_entry(const Host& host, const std::string& source, std::optional<int> rank);
  void add_fleet(const Report& member, const std::string& source);

  bool combine_same_host_;
  int members_ = 0;
  std::string first_source_;
  Report fleet_;
};

// Merges separately measured reports (file name, report), in the order given, into one fleet
// report. Throws InputError on mixed suites, versions or duplicate hosts, or fewer than 2 hosts.
Report merge_reports(const std::vector<std::pair<std::string, Report>>& inputs);

}  // namespace gpusizer

namespace gpusizer {
// One line: "fleet: 2 hosts: ip-a (p5.48xlarge, 9 targets), ip-b (...)".
std::string fleet_summary(const Report& fleet);
}  // namespace gpusizer
