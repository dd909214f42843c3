// Which GPUs of which MPI ranks form which NCCL group (nccl_groups.hpp).
#include "gpusizer/bench/nccl_groups.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace gpusizer::bench {
namespace {

// Every GPU of the job in NCCL order (MPI rank, then the rank's own order).
std::vector<NcclMember> all_gpus(const std::vector<RankGpus>& ranks) {
  std::vector<NcclMember> out;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    for (std::size_t i = 0; i < ranks[r].gpus.size(); ++i) {
      NcclMember m;
      m.mpi_rank = static_cast<int>(r);
      m.local_index = static_cast<int>(i);
      m.cuda_ordinal =
          i < ranks[r].cuda_ordinals.size() ? ranks[r].cuda_ordinals[i] : static_cast<int>(i);
      m.target = ranks[r].host + ":" + ranks[r].gpus[i];
      out.push_back(std::move(m));
    }
  }
  return out;
}

NcclGroupPlan make_group(const std::string& kind, const std::string& name,
                         std::vector<NcclMember> members, const std::vector<RankGpus>& ranks) {
  NcclGroupPlan g;
  g.kind = kind;
  g.name = name;
  std::set<std::string> hosts;
  for (std::size_t i = 0; i < members.size(); ++i) {
    members[i].nccl_rank = static_cast<int>(i);
    hosts.insert(ranks[static_cast<std::size_t>(members[i].mpi_rank)].host);
  }
  g.hosts = static_cast<int>(hosts.size());
  g.root_mpi_rank = members.empty() ? 0 : members.front().mpi_rank;
  g.members = std::move(members);
  return g;
}

std::set<int> ranks_of(const std::vector<NcclMember>& members) {
  std::set<int> out;
  for (const auto& m : members) out.insert(m.mpi_rank);
  return out;
}

}  // namespace

NcclPlan plan_nccl_groups(const std::vector<RankGpus>& ranks) {
  NcclPlan plan;
  const std::vector<NcclMember> world = all_gpus(ranks);
  std::vector<std::string> hosts;  // in order of first rank
  std::map<std::string, std::vector<NcclMember>> per_host;
  for (const auto& m : world) {
    const std::string& h = ranks[static_cast<std::size_t>(m.mpi_rank)].host;
    if (per_host.find(h) == per_host.end()) hosts.push_back(h);
    per_host[h].push_back(m);
  }
  if (world.size() < 2) {
    plan.skipped.push_back("world: " + std::to_string(world.size()) +
                           " GPU(s) in the job; collectives need at least 2");
  } else if (ranks_of(world).size() < 2) {
    plan.skipped.push_back(
        "world: every GPU is driven by one rank; its own collectives family measures them");
  } else {
    plan.groups.push_back(make_group("world", "world", world, ranks));
  }
  for (const auto& h : hosts) {
    const auto& members = per_host[h];
    const std::string name = "node:" + h;
    if (hosts.size() == 1) {
      if (!plan.groups.empty()) plan.skipped.push_back(name + ": the only host: the world group");
    } else if (members.size() < 2) {
      plan.skipped.push_back(name + ": 1 GPU");
    } else if (ranks_of(members).size() < 2) {
      plan.skipped.push_back(name +
                             ": its GPUs are driven by one rank; its own collectives family "
                             "measures them");
    } else {
      plan.groups.push_back(make_group("node", name, members, ranks));
    }
  }
  std::vector<NcclMember> ring;
  for (const auto& h : hosts) ring.push_back(per_host[h].front());
  if (ring.size() < 2) {
    plan.skipped.push_back("ring: " + std::to_string(ring.size()) +
                           " host(s) with GPUs; a ring between hosts needs at least 2");
  } else if (ring.size() == world.size()) {
    plan.skipped.push_back("ring: one GPU per host: the world group");
  } else {
    plan.groups.push_back(make_group("ring", "ring", ring, ranks));
  }
  return plan;
}

std::vector<NcclMember> members_on_rank(const NcclGroupPlan& group, int mpi_rank) {
  std::vector<NcclMember> out;
  for (const auto& m : group.members) {
    if (m.mpi_rank == mpi_rank) out.push_back(m);
  }
  return out;
}

std::vector<std::string> group_targets(const NcclGroupPlan& group) {
  std::vector<std::string> out;
  for (const auto& m : group.members) out.push_back(m.target);
  return out;
}

}  // namespace gpusizer::bench
