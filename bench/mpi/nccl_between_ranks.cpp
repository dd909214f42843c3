// NCCL collectives between MPI ranks (nccl_between_ranks.hpp).
#include "nccl_between_ranks.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

#include "gpusizer/bench/nccl_log.hpp"
#include "gpusizer/clock.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/stop_signals.hpp"
#include "lockstep.hpp"

extern char** environ;

namespace gpusizer::bench::mpi {
namespace {

int any_rank(World& world, bool mine, const char* what) {
  return world.allreduce_sum(mine ? 1 : 0, what) > 0 ? 1 : 0;
}

}  // namespace

std::filesystem::path route_nccl_log(int rank) {
  if (std::getenv("NCCL_DEBUG") != nullptr || std::getenv("NCCL_DEBUG_FILE") != nullptr) return {};
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() /
      ("gpusizer-nccl-rank" + std::to_string(rank) + "-" + std::to_string(::getpid()) + ".log");
  ::setenv("NCCL_DEBUG", "INFO", 1);
  ::setenv("NCCL_DEBUG_SUBSYS", "INIT,NET", 1);
  ::setenv("NCCL_DEBUG_FILE", file.c_str(), 1);
  return file;
}

std::vector<RankGpus> gather_rank_gpus(World& world, const Report& mine) {
  nlohmann::json gpus = nlohmann::json::array();
  for (const auto& t : mine.targets) {
    if (t.kind == TargetKind::gpu && t.index) gpus.push_back({{"id", t.id}, {"ordinal", *t.index}});
  }
  const auto all = world.gather_strings(gpus.dump(), "GPUs of every rank");
  nlohmann::json by_rank = nlohmann::json::array();
  for (const auto& s : all) by_rank.push_back(nlohmann::json::parse(s));
  const nlohmann::json shared =
      nlohmann::json::parse(world.broadcast_string(by_rank.dump(), 0, "GPUs of every rank"));
  std::vector<RankGpus> out;
  for (std::size_t r = 0; r < shared.size(); ++r) {
    RankGpus g;
    g.host = world.hostnames()[r];
    for (const auto& gpu : shared[r]) {
      g.gpus.push_back(gpu["id"].get<std::string>());
      g.cuda_ordinals.push_back(gpu["ordinal"].get<int>());
    }
    out.push_back(std::move(g));
  }
  return out;
}

nlohmann::json gather_nccl_facts(World& world, const std::filesystem::path& log_file) {
  nlohmann::json mine = {{"host", world.hostnames()[static_cast<std::size_t>(world.place().rank)]}};
  try {
    mine["version"] = kernels::nccl_version();
  } catch (const std::exception& e) {
    mine["version"] = std::string("unavailable: ") + e.what();
  }
  NcclNetwork n;
  if (log_file.empty()) {
    n.evidence = "not read: NCCL_DEBUG or NCCL_DEBUG_FILE was set by the user";
  } else {
    std::ifstream in(log_file);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    n = parse_nccl_network(text);
  }
  mine["network"] = n.name;
  mine["plugin"] = n.plugin;
  mine["provider"] = n.provider;
  mine["evidence"] = n.evidence;
  std::vector<std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) env.emplace_back(*e);
  mine["environment"] = nccl_environment(env);
  const auto all = world.gather_strings(mine.dump(), "NCCL facts");
  if (world.place().rank != 0) return nullptr;
  nlohmann::json hosts = nlohmann::json::array();
  std::vector<std::string> seen;
  for (const auto& s : all) {
    nlohmann::json h = nlohmann::json::parse(s);
    const std::string host = h["host"].get<std::string>();
    if (std::find(seen.begin(), seen.end(), host) != seen.end()) continue;
    seen.push_back(host);
    hosts.push_back(std::move(h));
  }
  return {{"version", hosts.empty() ? nlohmann::json("") : hosts[0]["version"]}, {"hosts", hosts}};
}

NcclGroupRun::NcclGroupRun(World& world, const NcclGroupPlan& plan, double timeout_seconds)
    : world_(world), plan_(plan), mine_(members_on_rank(plan, world.place().rank)) {
  const int me = world.place().rank;
  // The id: made by the root, sent to every rank (a root that cannot make one sends why).
  std::string message;
  if (me == plan.root_mpi_rank) {
    try {
      const kernels::NcclUniqueId id = kernels::nccl_unique_id();
      message = "I" + std::string(id.begin(), id.end());
    } catch (const std::exception& e) {
      message = std::string("E") + e.what();
    }
  }
  message = world.broadcast_string(message, plan.root_mpi_rank, "NCCL unique id");
  std::string mine_failed;
  if (message.empty() || message[0] != 'I') {
    mine_failed = message.empty() ? "no unique id" : message.substr(1);
  } else if (!mine_.empty()) {
    kernels::RankGroupSetup s;
    std::copy(message.begin() + 1, message.end(), s.id.begin());
    s.ranks = static_cast<int>(plan.members.size());
    for (const auto& m : mine_) {
      s.nccl_ranks.push_back(m.nccl_rank);
      s.cuda_ordinals.push_back(m.cuda_ordinal);
    }
    s.timeout_seconds = timeout_seconds;
    s.give_up = [] { return StopSignals::requested().load(); };
    try {
      group_ = kernels::join_rank_group(s);
    } catch (const std::exception& e) {
      mine_failed = e.what();
    }
  }
  // Every rank learns whether every member joined, and the first reason (by rank).
  if (any_rank(world, !mine_failed.empty(), "NCCL group set-up") != 0) {
    std::string first;
    for (const auto& why : world.gather_strings(mine_failed, "NCCL group set-up failure")) {
      if (first.empty()) first = why;
    }
    failure_ = "NCCL group " + plan.name +
               " not formed: " + world.broadcast_string(first, 0, "NCCL group set-up failure");
    group_.reset();
  }
}

CaseOutcome NcclGroupRun::measure(kernels::Collective op, std::size_t bytes,
                                  const SamplingPolicy& policy, const std::string& network) {
  CaseOutcome out;
  out.started_at = now_iso8601_utc();
  if (!failure_.empty()) {
    out.skipped_reason = failure_;
    return out;
  }
  std::unique_ptr<kernels::RankCollective> work;
  std::string error;
  if (group_) {
    try {
      work = group_->collective({op, bytes, kernels::Dtype::f32});
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  if (any_rank(world_, !error.empty(), "NCCL collective set-up") != 0) {
    out.skipped_reason = error.empty() ? "a member could not prepare the collective" : error;
    return out;
  }
  auto my_seconds = [&](std::size_t repeats) -> double {
    if (!work) return 0;
    try {
      return work->run(repeats);
    } catch (const std::exception& e) {
      error = e.what();
      return -1;
    }
  };
  try {
    out.repetitions.push_back(lockstep_samples(world_, my_seconds, policy));
  } catch (const RuntimeError& e) {
    failure_ = "NCCL group " + plan_.name + " failed: " + (error.empty() ? e.what() : error);
    group_.reset();  // its communicators were aborted
    out.error = failure_;
    return out;
  }
  long long wrong = 0, checked = 0;
  if (work) {
    wrong = static_cast<long long>(work->wrong_elements());
    checked = static_cast<long long>(work->checked_elements());
    out.work = work->work_per_op();
  }
  const long long all_wrong = world_.allreduce_sum(wrong, "NCCL verification");
  const long long all_checked = world_.allreduce_sum(checked, "NCCL verification");
  out.verification.status =
      all_wrong == 0 ? VerificationStatus::passed : VerificationStatus::failed;
  out.verification.method =
      "every received element on every member compared exactly with its value (integer-valued "
      "fp32 inputs: sums are exact), as nccl-tests counts #wrong";
  out.verification.detail = std::to_string(all_wrong) + " wrong of " + std::to_string(all_checked) +
                            " elements over " + std::to_string(plan_.members.size()) + " GPUs";
  // S and the factor as rank 0 computes them for the group (every member computes the same).
  const double s = world_.allreduce_max(out.work.bytes, "NCCL bytes");
  out.work.bytes = s;
  out.work.rule = "bytes = S as nccl-tests defines it for " + kernels::to_string(op) +
                  "; algbw = S/t, t the slowest rank's";
  out.work.rate_metric = RateMetric::bandwidth;
  out.work.bus_bandwidth_factor = kernels::busbw_factor(op, static_cast<int>(plan_.members.size()));
  out.timer = Timer::cuda_events;
  out.mode = CacheMode::hot;
  std::string version;
  try {
    version = kernels::nccl_version();
  } catch (const std::exception&) {
    version = "unknown";
  }
  out.details = {{"backend", "NCCL " + version + " between MPI ranks"},
                 {"group", plan_.name},
                 {"network", network.empty() ? "not known (settings.fleet.nccl)" : network},
                 {"time",
                  "per sample: the slowest rank's CUDA-event time, all ranks released by an MPI "
                  "barrier"}};
  TelemetryWindow w;
  w.source = TelemetrySource::unavailable;
  w.scope = "GPUs of several ranks";
  w.unavailable_reason = "power is not combined across MPI ranks for collectives between ranks";
  out.windows.push_back(w);
  out.duration_seconds = out.repetitions.front().wall_seconds;
  return out;
}

}  // namespace gpusizer::bench::mpi
