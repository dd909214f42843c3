// `mpirun -np N gpusizer run ...` (or srun, or an MPIJob): every rank measures its share of its
// host's devices, then all ranks measure collectives over MPI itself, and rank 0 writes one fleet
// report (gpusizer/fleet.hpp), checkpointed at every benchmark boundary. Ranks agree at each
// boundary whether to go on, so a budget, a deadline or SIGTERM on any rank stops them all at the
// same boundary. This header is free of MPI; without MPI (bench/fleet_absent.cpp) an MPI launch
// with several ranks is refused rather than run as N separate runs overwriting one report.
#pragma once

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpusizer/bench/runner.hpp"

namespace gpusizer::bench {

struct RankPlace {
  int rank = 0;
  int size = 1;
  int local_rank = 0;  // among the ranks on this host
  int local_size = 1;
};

// The launcher's view before MPI_Init: Open MPI's mpirun (OMPI_COMM_WORLD_*), PMIx (srun
// --mpi=pmix: PMIX_RANK with SLURM_NTASKS), or PMI (PMI_RANK/PMI_SIZE). nullopt: not an MPI launch.
// Local rank/size are filled where the launcher says (OMPI_COMM_WORLD_LOCAL_*, SLURM_LOCALID);
// after MPI_Init the session replaces them with MPI_Comm_split_type's answer.
using EnvLookup = std::function<const char*(const char*)>;
std::optional<RankPlace> mpi_launch_from_environment(const EnvLookup& getenv_fn);

// This rank's share of the host: local rank 0 measures the CPU; GPU i (NVML index) goes to the
// local rank i % local_size. A rank left with no GPU measures none. GPUs named with --gpus are
// left as given. `gpu_count`: GPUs the host has.
void share_local_devices(const RankPlace& place, RunOptions& options,
                         std::vector<int>& requested_gpus, std::size_t gpu_count);

class FleetSession {
 public:
  virtual ~FleetSession() = default;
  FleetSession() = default;
  FleetSession(const FleetSession&) = delete;
  FleetSession& operator=(const FleetSession&) = delete;
  virtual const RankPlace& place() const = 0;
  // --resume of a fleet run, before anything else reads the report: rank 0 reads `fleet_report`
  // and checks that it was written by an MPI run on these hosts with these ranks on each
  // (InputError on every rank otherwise), every rank receives it and writes its own part
  // (fleet_resume.hpp) to a file of its own, whose path it returns: the run resumes that part as
  // a plain run resumes a report, and rank 0 keeps the fleet's history and collectives.
  virtual std::filesystem::path resume_part(const std::filesystem::path& fleet_report) = 0;
  // Runs this rank's share into `report` (start_report, run_control.hpp), then the host
  // collectives; rank 0's result holds the fleet report (written to options.out), the other
  // ranks' their own part. The result's stop_cause is the one the ranks agreed on (exit 3). A
  // SIGINT/SIGTERM handled by a StopSignals the caller holds stops every rank at one boundary.
  virtual RunResult run(RunOptions options, Report report, TelemetryProvider* telemetry,
                        std::ostream& err) = 0;
};

bool built_with_mpi();

// Starts MPI when the process was launched by an MPI launcher (MPI_Init happens here, before any
// device is touched); nullptr otherwise. Without MPI built in, a launch with several ranks throws
// InputError (one rank runs as a plain run).
std::unique_ptr<FleetSession> start_fleet_session();

}  // namespace gpusizer::bench
