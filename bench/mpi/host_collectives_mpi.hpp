// One host collective (all_reduce, all_gather, all_to_all of doubles) measured over MPI by every
// rank in lock-step: each sample is the slowest rank's time, rank 0 decides when to stop (the
// shared sampler rule) and tells the others, and the result is checked exactly on every rank.
#pragma once

#include "gpusizer/bench/record_builder.hpp"
#include "gpusizer/bench/sampler.hpp"
#include "gpusizer/kernels/collectives.hpp"
#include "mpi_world.hpp"

namespace gpusizer::bench::mpi {

CaseOutcome measure_host_collective(World& world, kernels::Collective op, std::size_t bytes,
                                    const SamplingPolicy& policy);

}  // namespace gpusizer::bench::mpi
