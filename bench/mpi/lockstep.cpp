// Lock-step sampling over every MPI rank (lockstep.hpp).
#include "lockstep.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "gpusizer/error.hpp"
#include "gpusizer/stats.hpp"

namespace gpusizer::bench::mpi {

SampleSet lockstep_samples(World& world, const std::function<double(std::size_t)>& my_seconds,
                           const SamplingPolicy& policy) {
  using clock = std::chrono::steady_clock;
  // One sample: all ranks start together; the sample is the slowest rank's time. A rank whose
  // part failed reports infinity, so every rank learns it from the same reduction.
  auto timed = [&](std::size_t repeats) {
    world.barrier("collective sample start");
    double mine = my_seconds(repeats);
    if (mine < 0) mine = std::numeric_limits<double>::infinity();
    const double slowest = world.allreduce_max(mine, "collective sample time");
    if (std::isinf(slowest))
      throw RuntimeError("the collective failed on at least one MPI rank (that rank says why)");
    return slowest;
  };
  const auto start = clock::now();
  timed(1);  // warm-up: connections, registration
  const double one = timed(1);
  std::size_t repeats = 1;
  if (one > 0 && one < policy.min_sample_seconds) {
    const double per_sample_cap =
        policy.time_cap_seconds / static_cast<double>(2 * policy.min_samples);
    repeats = std::clamp<std::size_t>(
        static_cast<std::size_t>(std::ceil(policy.min_sample_seconds / one)), 1,
        static_cast<std::size_t>(std::max(1.0, per_sample_cap / one)));
  }
  SampleSet set;
  set.ops_per_sample = repeats;
  set.total_ops = 2;
  std::vector<double> noise_history;
  while (true) {
    const double seconds = timed(repeats);
    set.total_ops += repeats;
    set.measured_seconds += seconds;
    set.seconds_per_op.push_back(seconds / static_cast<double>(repeats));
    if (set.seconds_per_op.size() >= 2) noise_history.push_back(summarize(set.seconds_per_op).cv);
    int stop = 0;
    if (world.place().rank == 0) {
      const double wall = std::chrono::duration<double>(clock::now() - start).count();
      set.stop = stop_reason(set.seconds_per_op, set.measured_seconds, wall, noise_history, policy);
      stop = set.stop == StopReason::none ? 0 : 1;
    }
    if (world.broadcast(stop, "collective stop") != 0) break;
  }
  set.wall_seconds = std::chrono::duration<double>(clock::now() - start).count();
  return set;
}

}  // namespace gpusizer::bench::mpi
