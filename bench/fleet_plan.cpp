// Where an MPI rank stands and what it measures (fleet.hpp); pure, no MPI.
#include <cstdlib>
#include <string>

#include "gpusizer/bench/fleet.hpp"

namespace gpusizer::bench {
namespace {

std::optional<int> number(const EnvLookup& env, const char* name) {
  const char* v = env(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  if (*end != '\0' || n < 0 || n > 1000000) return std::nullopt;
  return static_cast<int>(n);
}

}  // namespace

std::optional<RankPlace> mpi_launch_from_environment(const EnvLookup& env) {
  RankPlace p;
  if (auto size = number(env, "OMPI_COMM_WORLD_SIZE")) {  // Open MPI's mpirun (also in MPIJobs)
    p.size = *size;
    p.rank = number(env, "OMPI_COMM_WORLD_RANK").value_or(0);
    p.local_rank = number(env, "OMPI_COMM_WORLD_LOCAL_RANK").value_or(0);
    p.local_size = number(env, "OMPI_COMM_WORLD_LOCAL_SIZE").value_or(1);
    return p;
  }
  if (auto rank = number(env, "PMIX_RANK")) {  // srun --mpi=pmix: no OMPI_COMM_WORLD_*
    p.rank = *rank;
    p.size = number(env, "SLURM_NTASKS").value_or(1);
    p.local_rank = number(env, "SLURM_LOCALID").value_or(0);
    return p;
  }
  if (auto size = number(env, "PMI_SIZE")) {  // MPICH-style PMI
    p.size = *size;
    p.rank = number(env, "PMI_RANK").value_or(0);
    return p;
  }
  return std::nullopt;
}

void share_local_devices(const RankPlace& place, RunOptions& options,
                         std::vector<int>& requested_gpus, std::size_t gpu_count) {
  if (place.local_rank != 0) options.cpu = false;
  if (!options.gpus || place.local_size <= 1 || !requested_gpus.empty()) return;
  for (std::size_t i = 0; i < gpu_count; ++i) {
    if (static_cast<int>(i % static_cast<std::size_t>(place.local_size)) == place.local_rank)
      requested_gpus.push_back(static_cast<int>(i));
  }
  if (requested_gpus.empty()) options.gpus = false;
}

}  // namespace gpusizer::bench
