// `--resume` of an MPI fleet run: the fleet report is split back into the part each rank
// measured, so every rank resumes its own share with the ordinary runner (skipping what it
// recorded) and rank 0 merges the parts again with FleetBuilder. Pure: no MPI here.
#pragma once

#include <string>
#include <vector>

#include "gpusizer/report.hpp"

namespace gpusizer {

// Which local rank of a host measures a target under MPI (bench::share_local_devices' rule):
// GPU N ("gpuN", its NVML index) local rank N % local_size; the CPU and anything else local
// rank 0.
int owner_local_rank(const std::string& local_target_id, int local_size);

// True for the records and not-run ids of the collectives a fleet session measures between
// ranks itself (ids with a "/backend=" segment: host collectives over MPI, NCCL across ranks):
// they belong to no host's part.
bool is_fleet_collective(const std::string& id);

// InputError (one line naming `source`) unless `fleet` was written by an MPI run on exactly these
// hosts with exactly these ranks on each (`hostnames_by_rank[r]`: rank r's host), so that every
// rank finds its own share again.
void check_fleet_matches_ranks(const Report& fleet,
                               const std::vector<std::string>& hostnames_by_rank,
                               const std::string& source);

// What local rank `local_rank` (of `local_size`) on host `host_id` measured, as the plain report
// it sent rank 0: its host, its targets, records, not-run cases, idle telemetry and (local rank
// 0) the host's warnings, ids without the "<host>:" prefix; the history with only its records.
// The fleet's own collectives are left out (is_fleet_collective).
Report fleet_part_for_rank(const Report& fleet, const std::string& host_id, int local_rank,
                           int local_size);

}  // namespace gpusizer
