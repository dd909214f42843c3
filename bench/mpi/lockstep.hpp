// Sampling in lock-step over every MPI rank, for the collectives measured between ranks (host
// collectives over MPI, NCCL groups): each sample starts all ranks at a barrier and is the slowest
// rank's time; rank 0 applies the shared sampler rule (sampler.hpp) and tells the others when to
// stop. Ranks outside the measured group take part with a time of 0.
#pragma once

#include <cstddef>
#include <functional>

#include "gpusizer/bench/sampler.hpp"
#include "mpi_world.hpp"

namespace gpusizer::bench::mpi {

// `my_seconds(repeats)`: this rank's seconds for `repeats` operations (0 when it has no part; a
// negative value when its part failed: every rank then throws RuntimeError, none is left
// waiting). Starts with one warm-up operation and a one-operation probe that sets the operations
// per sample.
SampleSet lockstep_samples(World& world, const std::function<double(std::size_t)>& my_seconds,
                           const SamplingPolicy& policy);

}  // namespace gpusizer::bench::mpi
