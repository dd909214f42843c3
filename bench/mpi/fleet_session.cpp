// An MPI fleet run (fleet.hpp): every rank measures its share of its host with the ordinary
// runner, ranks agree at each benchmark boundary whether to go on and send rank 0 their records,
// then all ranks measure the host collectives together; rank 0 writes the one fleet report after
// every boundary.
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <ostream>
#include <set>

#include "gpusizer/bench/case_id.hpp"
#include "gpusizer/bench/fleet.hpp"
#include "gpusizer/bench/host_collectives.hpp"
#include "gpusizer/bench/nccl_groups.hpp"
#include "gpusizer/bench/suite.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/fleet.hpp"
#include "gpusizer/fleet_resume.hpp"
#include "gpusizer/host_info.hpp"
#include "gpusizer/report_io.hpp"
#include "gpusizer/run_history.hpp"
#include "gpusizer/stop_signals.hpp"
#include "host_collectives_mpi.hpp"
#include "mpi_world.hpp"
#include "nccl_between_ranks.hpp"

namespace gpusizer::bench {
namespace {

constexpr double kBoundaryDeadlineMarginSeconds = 5;
// Beyond the shared deadline, how long a rank still waits for a missing one.
constexpr double kGiveUpAfterDeadlineSeconds = 120;
// How long the members of an NCCL group wait for each other to set it up (and for each sample).
constexpr double kNcclSetupSeconds = 120;

SamplingPolicy host_collective_policy(Suite suite, bool tiny) {
  SamplingPolicy p = sampling_policy(suite, tiny);
  p.min_window_seconds = 0;  // no power telemetry over the network
  return p;
}

class MpiFleetSession final : public FleetSession {
 public:
  const RankPlace& place() const override { return world_.place(); }
  std::filesystem::path resume_part(const std::filesystem::path& fleet_report) override;
  RunResult run(RunOptions o, Report report, TelemetryProvider* telemetry,
                std::ostream& err) override;

 private:
  struct Agreement {
    std::string stop_cause;
    bool all_done = false;
  };
  Agreement boundary(const Report& mine, bool done);
  Report build_fleet(ReportStatus status) const;
  void save_fleet(ReportStatus status);
  std::vector<std::string> collective_targets() const;
  void start_history(const RunOptions& o);
  // One collective measured between ranks: skipped when measured before (--resume), not run once
  // the ranks agreed to stop, else measured by every rank and recorded by rank 0.
  void fleet_case(const BenchCase& c, const Report& mine, const SamplingPolicy& policy,
                  int& exit_code, const std::function<CaseOutcome()>& measure);
  void nccl_between_ranks(const Report& mine, const RunOptions& o, int& exit_code);

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
  std::optional<Report> resumed_;           // rank 0, --resume: the fleet report as it was
  Report history_;                          // rank 0: the fleet's history, this run's entry last
  std::filesystem::path part_file_;         // --resume: this rank's part (removed at the end)
  std::set<std::string> collectives_done_;  // --resume: the fleet's collectives measured before
  std::filesystem::path nccl_log_;          // this rank's NCCL_DEBUG_FILE ("" when the user's)
  nlohmann::json nccl_facts_;               // rank 0: NCCL version, network, environment per host
};

std::filesystem::path MpiFleetSession::resume_part(const std::filesystem::path& fleet_report) {
  const int me = world_.place().rank;
  std::string message;  // rank 0: 'R' + the report's JSON, or 'E' + why it is refused
  if (me == 0) {
    try {
      Report fleet = load_report(fleet_report);
      check_fleet_matches_ranks(fleet, world_.hostnames(), fleet_report.string());
      message = "R" + to_json(fleet).dump();
    } catch (const InputError& e) {
      message = std::string("E") + e.what();
    }
  }
  message = world_.broadcast_string(message, 0, "--resume: the fleet report");
  if (message.empty() || message[0] != 'R') throw InputError(message.substr(1));
  Report fleet = report_from_json(
      JsonInput(nlohmann::json::parse(message.begin() + 1, message.end()), fleet_report.string()));
  const RankPlace& p = world_.place();
  Report part = fleet_part_for_rank(fleet, world_.hostnames()[static_cast<std::size_t>(p.rank)],
                                    p.local_rank, p.local_size);
  part_file_ =
      std::filesystem::temp_directory_path() /
      ("gpusizer-resume-rank" + std::to_string(me) + "-" + std::to_string(::getpid()) + ".json");
  save_report(part, part_file_);
  for (const auto& r : fleet.records) {
    if (is_fleet_collective(r.id) &&
        std::find(r.flags.begin(), r.flags.end(), kCutShortFlag) == r.flags.end())
      collectives_done_.insert(r.id);
  }
  if (me == 0) resumed_ = std::move(fleet);
  return part_file_;
}

// The fleet's history (run_history.hpp): the resumed fleet's runs, then this one, whose entry
// lists the fleet's records that no earlier run lists. The fleet's own collectives measured before
// are kept and not measured again.
void MpiFleetSession::start_history(const RunOptions& o) {
  if (resumed_) {
    history_ = *resumed_;
    for (const auto& r : resumed_->records) {
      if (collectives_done_.count(r.id) != 0) collective_records_.push_back(r);
    }
  }
  const std::string suite = to_string(o.suite) + (o.tiny ? "-tiny" : "");
  const Provenance here{current_tool(), world_.hostnames().front(), suite, std::nullopt};
  open_session(history_, here, iso8601_utc(o.start), "");
}

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
  if (me == 0) save_fleet(ReportStatus::running);
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

Report MpiFleetSession::build_fleet(ReportStatus status) const {
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
    t.kind = TargetKind::cpu;
    t.name = h.cpu_model;
    t.memory_bytes = h.memory_bytes;
    t.host = h.id;
    t.attributes = {{"logical_cpus", h.logical_cpus}, {"note", "host collectives only"}};
    f.targets.push_back(std::move(t));
  }
  for (const auto& r : collective_records_) f.records.push_back(r);
  for (const auto& nr : collective_not_run_) f.not_run.push_back(nr);
  // A case an earlier run did not reach and a rank measured now is no longer "not run".
  std::erase_if(f.not_run, [&](const auto& nr) { return f.find_record(nr.first) != nullptr; });
  for (const auto& w : warnings_) f.warnings.push_back(w);
  nlohmann::json ranks = nlohmann::json::array();
  for (int r = 0; r < world_.place().size; ++r)
    ranks.push_back({{"rank", r}, {"hostname", world_.hostnames()[static_cast<std::size_t>(r)]}});
  f.settings["fleet"] = {{"how", "mpi"},
                         {"world_size", world_.place().size},
                         {"library", world_.library_version()},
                         {"ranks", ranks}};
  if (!nccl_facts_.is_null()) f.settings["fleet"]["nccl"] = nccl_facts_;
  f.command_line = command_line_;
  f.status = status;
  if (status != ReportStatus::running) f.finished_at = now_iso8601_utc();
  f.history = history_.history;
  update_session(f, status, status == ReportStatus::running ? "" : stop_cause_, f.finished_at);
  return f;
}

void MpiFleetSession::save_fleet(ReportStatus status) {
  save_report(build_fleet(status), fleet_out_);
}

void MpiFleetSession::fleet_case(const BenchCase& c, const Report& mine,
                                 const SamplingPolicy& policy, int& exit_code,
                                 const std::function<CaseOutcome()>& measure) {
  if (collectives_done_.count(c.id) != 0) return;
  if (stop_cause_.empty()) boundary(mine, true);
  if (!stop_cause_.empty()) {
    collective_not_run_.emplace_back(c.id, stop_cause_);
    return;
  }
  const CaseOutcome outcome = measure();
  if (world_.place().rank != 0) return;
  Record r = build_record(c, outcome, policy);
  if (r.status == RecordStatus::failed || r.status == RecordStatus::error) exit_code = 1;
  collective_records_.push_back(std::move(r));
  save_fleet(ReportStatus::running);
}

// NCCL between ranks (nccl_between_ranks.hpp): every planned group, each collective of the
// single-process family over its sizes.
void MpiFleetSession::nccl_between_ranks(const Report& mine, const RunOptions& o, int& exit_code) {
  const std::vector<RankGpus> gpus = mpi::gather_rank_gpus(world_, mine);
  const NcclPlan plan = plan_nccl_groups(gpus);
  const bool any_gpu =
      std::any_of(gpus.begin(), gpus.end(), [](const RankGpus& g) { return !g.gpus.empty(); });
  if (!any_gpu) return;  // a CPU fleet: nothing to say
  for (const auto& why : plan.skipped) warnings_.push_back("NCCL between ranks: " + why);
  if (plan.groups.empty()) return;
  const nlohmann::json facts = mpi::gather_nccl_facts(world_, nccl_log_);
  std::string network;  // rank 0: what NCCL chose, per host when they differ
  if (world_.place().rank == 0) {
    nccl_facts_ = facts;
    std::set<std::string> names;
    for (const auto& h : facts["hosts"]) {
      const std::string name = h["network"].get<std::string>();
      const std::string plugin = h["plugin"].get<std::string>();
      const std::string provider = h["provider"].get<std::string>();
      if (!name.empty())
        names.insert(name + (plugin.empty() ? ""
                                            : " (" + plugin +
                                                  (provider.empty() ? "" : ", " + provider) + ")"));
    }
    for (const auto& n : names) network += (network.empty() ? "" : "; ") + n;
  }
  const SamplingPolicy policy = host_collective_policy(o.suite, o.tiny);
  const SuiteContext ctx{o.suite, nullptr, "", o.tiny};
  using kernels::Collective;
  for (const auto& g : plan.groups) {
    std::vector<std::pair<BenchCase, Collective>> cases;
    for (Collective op :
         {Collective::all_reduce, Collective::all_gather, Collective::reduce_scatter,
          Collective::broadcast, Collective::all_to_all}) {
      for (std::size_t bytes : collective_message_bytes(ctx)) {
        BenchCase c;
        c.family = Family::collectives;
        c.operation = kernels::to_string(op);
        c.targets = group_targets(g);
        c.id = make_id(to_string(c.family), c.operation, c.targets,
                       {{"backend", "nccl"}, {"group", g.kind}, {"bytes", std::to_string(bytes)}});
        c.parameters = {
            {"bytes", bytes},
            {"dtype", "fp32"},
            {"ranks", g.members.size()},
            {"hosts", g.hosts},
            {"group", g.kind},
            {"backend", "nccl"},
            {"busbw_factor", kernels::busbw_factor(op, static_cast<int>(g.members.size()))}};
        cases.emplace_back(std::move(c), op);
      }
    }
    const bool left = std::any_of(cases.begin(), cases.end(), [&](const auto& c) {
      return collectives_done_.count(c.first.id) == 0;
    });
    if (!left) continue;
    std::unique_ptr<mpi::NcclGroupRun> run;
    if (stop_cause_.empty())
      run = std::make_unique<mpi::NcclGroupRun>(world_, g, kNcclSetupSeconds);
    for (const auto& [c, op] : cases) {
      const std::size_t bytes = c.parameters["bytes"].get<std::size_t>();
      fleet_case(c, mine, policy, exit_code,
                 [&] { return run->measure(op, bytes, policy, network); });
    }
  }
}

RunResult MpiFleetSession::run(RunOptions o, Report report, TelemetryProvider* telemetry,
                               std::ostream& err) {
  const int me = world_.place().rank;
  if (o.list_only) return run_suite(o, std::move(report), telemetry, err);  // its own share
  fleet_out_ = o.out;
  if (me == 0) start_history(o);
  nccl_log_ = mpi::route_nccl_log(me);  // before the first NCCL call of this process
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
    save_fleet(ReportStatus::stopped);
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
        c.family = Family::collectives;
        c.operation = kernels::to_string(op);
        c.targets = targets;
        c.id = make_id(
            to_string(c.family), c.operation, c.targets,
            {{"backend", "mpi"}, {"ranks", std::to_string(n)}, {"bytes", std::to_string(s)}});
        c.parameters = {{"bytes", s},
                        {"dtype", "f64"},
                        {"ranks", n},
                        {"hosts", targets.size()},
                        {"backend", "mpi"}};
        fleet_case(c, result.report, policy, exit_code,
                   [&] { return mpi::measure_host_collective(world_, op, bytes, policy); });
      }
    }
    nccl_between_ranks(result.report, o, exit_code);
    boundary(result.report, true);  // the last records of every rank
  } catch (const mpi::Abandoned& e) {
    world_.abandon();
    warnings_.push_back(std::string("fleet run abandoned: ") + e.what());
    if (stop_cause_.empty()) stop_cause_ = e.what();
    exit_code = 1;
  }
  std::error_code ignored;
  std::filesystem::remove(o.out, ignored);
  if (!part_file_.empty()) std::filesystem::remove(part_file_, ignored);
  if (!nccl_log_.empty()) std::filesystem::remove(nccl_log_, ignored);
  // Every rank ends with the cause the ranks agreed on (exit 3), else its own run's.
  std::string cause = !stop_cause_.empty() ? stop_cause_ : result.stop_cause;
  if (me != 0) {
    result.exit_code = exit_code;
    result.stop_cause = cause;
    return result;
  }
  if (!stop_cause_.empty()) warnings_.push_back("fleet run stopped: " + stop_cause_);
  Report fleet = build_fleet(ReportStatus::complete);
  if (!stop_cause_.empty() || !fleet.not_run.empty()) fleet.status = ReportStatus::stopped;
  update_session(fleet, fleet.status, stop_cause_, fleet.finished_at);
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
