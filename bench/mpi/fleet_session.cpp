// An MPI fleet run (fleet.hpp): every rank measures its share of its host with the ordinary
// runner, ranks agree at each benchmark boundary whether to go on and send rank 0 their records,
// then all ranks measure the host collectives together; rank 0 writes the one fleet report after
// every boundary.
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <ostream>

#include "gpusizer/bench/case_id.hpp"
#include "gpusizer/bench/fleet.hpp"
#include "gpusizer/bench/host_collectives.hpp"
#include "gpusizer/bench/suite.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/fleet.hpp"
#include "gpusizer/report_io.hpp"
#include "gpusizer/stop_signals.hpp"
#include "host_collectives_mpi.hpp"
#include "mpi_world.hpp"

namespace gpusizer::bench {
namespace {

constexpr double kBoundaryDeadlineMarginSeconds = 5;
// Beyond the shared deadline, how long a rank still waits for a missing one.
constexpr double kGiveUpAfterDeadlineSeconds = 120;

SamplingPolicy host_collective_policy(Suite suite, bool tiny) {
  SamplingPolicy p = sampling_policy(suite, tiny);
  p.min_window_seconds = 0;  // no power telemetry over the network
  return p;
}

class MpiFleetSession final : public FleetSession {
 public:
  const RankPlace& place() const override { return world_.place(); }
  RunResult run(RunOptions o, Report report, TelemetryProvider* telemetry,
                std::ostream& err) override;

 private:
  struct Agreement {
    std::string stop_cause;
    bool all_done = false;
  };
  Agreement boundary(const Report& mine, bool done);
  Report build_fleet(const std::string& status) const;
  void save_fleet(const std::string& status);
  std::vector<std::string> collective_targets() const;

  mpi::World world_;
  std::optional<SystemTime> deadline_;
  std::filesystem::path fleet_out_;
  std::vector<std::string> command_line_;
  std::vector<std::optional<Report>> snapshots_;  // rank 0: every rank's latest report
  std::string last_sent_;
  std::vector<Record> collective_records_;
  std::vector<std::pair<std::string, std::string>> collective_not_run_;
  std::vector<std::string> warnings_;
  std::string stop_cause_;
};

MpiFleetSession::Agreement MpiFleetSession::boundary(const Report& mine, bool done) {
  const int me = world_.place().rank;
  const int sig = StopSignals::signal_number();
  const bool past =
      deadline_ &&
      std::chrono::system_clock::now() >=
          *deadline_ - std::chrono::duration_cast<SystemTime::duration>(
                           std::chrono::duration<double>(kBoundaryDeadlineMarginSeconds));
  const auto agreed = world_.allreduce_max(
      {sig != 0 ? (me + 1) * 64 + sig : 0, past ? 1 : 0, done ? 0 : 1}, "benchmark boundary");
  // Rank 0 gathers what changed since the last boundary.
  std::string json = to_json(mine).dump();
  const std::string send = json == last_sent_ ? std::string() : json;
  last_sent_ = json;
  const auto all = world_.gather_strings(send, "records to rank 0");
  for (std::size_t r = 0; r < all.size(); ++r) {
    if (all[r].empty()) continue;
    const std::string source = "MPI rank " + std::to_string(r);
    snapshots_[r] = report_from_json(JsonInput(nlohmann::json::parse(all[r]), source));
  }
  Agreement a;
  if (agreed[0] != 0) {
    a.stop_cause = std::string("interrupted by signal ") +
                   (agreed[0] % 64 == SIGTERM ? "SIGTERM" : "SIGINT") + " on MPI rank " +
                   std::to_string(agreed[0] / 64 - 1);
  } else if (agreed[1] != 0) {
    a.stop_cause = "time budget: the fleet's deadline " + iso8601_utc(*deadline_) + " is reached";
  }
  a.all_done = agreed[2] == 0;
  if (stop_cause_.empty()) stop_cause_ = a.stop_cause;
  if (me == 0) save_fleet("running");
  return a;
}

std::vector<std::string> MpiFleetSession::collective_targets() const {
  std::vector<std::string> hosts;
  for (const auto& h : world_.hostnames()) {
    if (std::find(hosts.begin(), hosts.end(), h) == hosts.end()) hosts.push_back(h);
  }
  for (auto& h : hosts) h = fleet_target_id(h, "cpu");
  return hosts;
}

Report MpiFleetSession::build_fleet(const std::string& status) const {
  FleetBuilder b(true);
  for (std::size_t r = 0; r < snapshots_.size(); ++r) {
    if (snapshots_[r]) b.add(*snapshots_[r], "MPI rank " + std::to_string(r), static_cast<int>(r));
  }
  Report f = b.report();
  // The host collectives run between the hosts' CPUs: each host has its "cpu" target.
  for (const auto& h : f.hosts) {
    const std::string id = fleet_target_id(h.id, "cpu");
    if (f.find_target(id) != nullptr) continue;
    Target t;
    t.id = id;
    t.kind = "cpu";
    t.name = h.cpu_model;
    t.memory_bytes = h.memory_bytes;
    t.host = h.id;
    t.attributes = {{"logical_cpus", h.logical_cpus}, {"note", "host collectives only"}};
    f.targets.push_back(std::move(t));
  }
  for (const auto& r : collective_records_) f.records.push_back(r);
  for (const auto& nr : collective_not_run_) f.not_run.push_back(nr);
  for (const auto& w : warnings_) f.warnings.push_back(w);
  nlohmann::json ranks = nlohmann::json::array();
  for (int r = 0; r < world_.place().size; ++r)
    ranks.push_back({{"rank", r}, {"hostname", world_.hostnames()[static_cast<std::size_t>(r)]}});
  f.settings["fleet"] = {{"how", "mpi"},
                         {"world_size", world_.place().size},
                         {"library", world_.library_version()},
                         {"ranks", ranks}};
  f.command_line = command_line_;
  f.status = status;
  if (status != "running") f.finished_at = now_iso8601_utc();
  return f;
}

void MpiFleetSession::save_fleet(const std::string& status) {
  save_report(build_fleet(status), fleet_out_);
}

RunResult MpiFleetSession::run(RunOptions o, Report report, TelemetryProvider* telemetry,
                               std::ostream& err) {
  const int me = world_.place().rank;
  if (o.list_only) return run_suite(o, std::move(report), telemetry, err);  // its own share
  if (o.resume) throw InputError("--resume: not supported for an MPI run yet (docs/multi-node.md)");
  fleet_out_ = o.out;
  command_line_ = o.command_line;
  snapshots_.resize(static_cast<std::size_t>(world_.place().size));
  // One end for every rank: rank 0's deadline and budget, as epoch milliseconds.
  long long end_ms = 0;
  if (me == 0) {
    std::optional<SystemTime> end = o.deadline;
    if (o.time_budget_seconds > 0) {
      const auto b = std::chrono::system_clock::now() +
                     std::chrono::duration_cast<SystemTime::duration>(
                         std::chrono::duration<double>(o.time_budget_seconds));
      end = end ? std::min(*end, b) : b;
    }
    if (end)
      end_ms =
          std::chrono::duration_cast<std::chrono::milliseconds>(end->time_since_epoch()).count();
  }
  world_.check(MPI_Bcast(&end_ms, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD), "MPI_Bcast (deadline)");
  if (end_ms > 0) {
    deadline_ = SystemTime(std::chrono::milliseconds(end_ms));
    world_.give_up_at =
        *deadline_ + std::chrono::seconds(static_cast<long long>(kGiveUpAfterDeadlineSeconds));
  }
  o.deadline = deadline_;
  o.time_budget_seconds = 0;
  o.out = std::filesystem::temp_directory_path() /
          ("gpusizer-rank" + std::to_string(me) + "-" + std::to_string(::getpid()) + ".json");
  if (me != 0) o.progress = 0;
  // No rank refuses a budget on its own (the others would wait for it at the first boundary):
  // what does not fit before the shared deadline is recorded as not run.
  o.check_budget = false;
  world_.on_signal = [this, me] {
    if (me != 0) return;
    warnings_.push_back(
        "a stop signal arrived while rank 0 waited for the other ranks; this "
        "report holds what they had sent");
    save_fleet("stopped");
  };
  o.after_case = [this](const Report& r) { return boundary(r, false).stop_cause; };

  // The caller's StopSignals (cli/run.cpp) covers the runner's cases and the collective phase.
  RunResult result;
  int exit_code = 0;
  try {
    result = run_suite(o, std::move(report), telemetry, err);
    exit_code = result.exit_code;
    // Wait for the ranks still measuring their devices (unless all agreed to stop already: every
    // rank must take part in the same boundaries).
    while (stop_cause_.empty()) {
      const Agreement a = boundary(result.report, true);
      if (!a.stop_cause.empty() || a.all_done) break;
    }
    const auto targets = collective_targets();
    const SamplingPolicy policy = host_collective_policy(o.suite, o.tiny);
    for (auto op : kHostCollectives) {
      for (std::size_t bytes : host_collective_sizes(o.suite, o.tiny)) {
        const int n = world_.place().size;
        const std::size_t s = logical_bytes(op, block_elements(op, bytes, n), n);
        BenchCase c;
        c.family = std::string(families::collectives);
        c.operation = kernels::to_string(op);
        c.targets = targets;
        c.id = make_id(
            c.family, c.operation, c.targets,
            {{"backend", "mpi"}, {"ranks", std::to_string(n)}, {"bytes", std::to_string(s)}});
        c.parameters = {{"bytes", s},
                        {"dtype", "f64"},
                        {"ranks", n},
                        {"hosts", targets.size()},
                        {"backend", "mpi"}};
        if (stop_cause_.empty()) boundary(result.report, true);
        if (!stop_cause_.empty()) {
          collective_not_run_.emplace_back(c.id, stop_cause_);
          continue;
        }
        CaseOutcome outcome = mpi::measure_host_collective(world_, op, bytes, policy);
        if (me == 0) {
          Record r = build_record(c, outcome, policy);
          if (r.status == "failed" || r.status == "error") exit_code = 1;
          collective_records_.push_back(std::move(r));
          save_fleet("running");
        }
      }
    }
    boundary(result.report, true);  // the last records of every rank
  } catch (const mpi::Abandoned& e) {
    world_.abandon();
    warnings_.push_back(std::string("fleet run abandoned: ") + e.what());
    if (stop_cause_.empty()) stop_cause_ = e.what();
    exit_code = 1;
  }
  std::error_code ignored;
  std::filesystem::remove(o.out, ignored);
  // Every rank ends with the cause the ranks agreed on (exit 3), else its own run's.
  std::string cause = !stop_cause_.empty() ? stop_cause_ : result.stop_cause;
  if (me != 0) {
    result.exit_code = exit_code;
    result.stop_cause = cause;
    return result;
  }
  if (!stop_cause_.empty()) warnings_.push_back("fleet run stopped: " + stop_cause_);
  Report fleet = build_fleet("complete");
  if (!stop_cause_.empty() || !fleet.not_run.empty()) fleet.status = "stopped";
  if (cause.empty() && !fleet.not_run.empty())
    cause = std::to_string(fleet.not_run.size()) + " benchmark(s) of the fleet not run";
  save_report(fleet, fleet_out_);
  return RunResult{std::move(fleet), exit_code, {}, cause};
}

}  // namespace

bool built_with_mpi() {
  return true;
}

std::unique_ptr<FleetSession> start_fleet_session() {
  if (!mpi_launch_from_environment([](const char* n) { return std::getenv(n); })) return nullptr;
  return std::make_unique<MpiFleetSession>();
}

}  // namespace gpusizer::bench
