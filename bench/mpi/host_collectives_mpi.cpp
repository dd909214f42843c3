// Host collectives over MPI (host_collectives_mpi.hpp); byte counts and the data pattern are in
// bench/host_collectives.cpp, the nccl-tests bus-bandwidth factor in kernels (busbw_factor).
#include "host_collectives_mpi.hpp"

#include <chrono>

#include "gpusizer/bench/host_collectives.hpp"
#include "gpusizer/clock.hpp"
#include "lockstep.hpp"

namespace gpusizer::bench::mpi {
namespace {

using kernels::Collective;

std::string rule_for(Collective op) {
  switch (op) {
    case Collective::all_reduce:
      return "S = count x 8 B (nccl-tests AllReduce); busbw = algbw x 2(n-1)/n";
    case Collective::all_gather:
      return "S = sendcount x 8 B x n (nccl-tests AllGather); busbw = algbw x (n-1)/n";
    default:
      return "S = count x n x 8 B (nccl-tests AlltoAll); busbw = algbw x (n-1)/n";
  }
}

}  // namespace

CaseOutcome measure_host_collective(World& world, Collective op, std::size_t bytes,
                                    const SamplingPolicy& policy) {
  const int n = world.place().size;
  const int rank = world.place().rank;
  const std::size_t c = block_elements(op, bytes, n);
  std::vector<double> send(c * send_blocks(op, n));
  std::vector<double> recv(c * recv_blocks(op, n));
  for (std::size_t b = 0; b < send_blocks(op, n); ++b) {
    for (std::size_t i = 0; i < c; ++i) send[b * c + i] = send_value(op, rank, n, b, i);
  }
  const int count = static_cast<int>(c);
  auto once = [&] {
    int rc = MPI_SUCCESS;
    if (op == Collective::all_reduce) {
      rc = MPI_Allreduce(send.data(), recv.data(), count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    } else if (op == Collective::all_gather) {
      rc = MPI_Allgather(send.data(), count, MPI_DOUBLE, recv.data(), count, MPI_DOUBLE,
                         MPI_COMM_WORLD);
    } else {
      rc = MPI_Alltoall(send.data(), count, MPI_DOUBLE, recv.data(), count, MPI_DOUBLE,
                        MPI_COMM_WORLD);
    }
    world.check(rc, "host collective");
  };
  CaseOutcome out;
  out.started_at = now_iso8601_utc();
  auto mine = [&](std::size_t repeats) {
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t k = 0; k < repeats; ++k) once();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  const SampleSet set = lockstep_samples(world, mine, policy);
  out.repetitions.push_back(set);

  // Exact verification of the last result on every rank; the wrong elements are summed.
  long long wrong = 0;
  for (std::size_t b = 0; b < recv_blocks(op, n); ++b) {
    for (std::size_t i = 0; i < c; ++i) {
      if (recv[b * c + i] != expected_value(op, rank, n, b, i)) ++wrong;
    }
  }
  const long long all_wrong = world.allreduce_sum(wrong, "host collective verification");
  out.verification.status =
      all_wrong == 0 ? VerificationStatus::passed : VerificationStatus::failed;
  out.verification.method =
      "every received element on every rank compared exactly with the value the pattern predicts "
      "(small integers in doubles: sums are exact), as nccl-tests counts #wrong";
  out.verification.detail = std::to_string(all_wrong) + " wrong of " +
                            std::to_string(c * recv_blocks(op, n) * static_cast<std::size_t>(n)) +
                            " elements over " + std::to_string(n) + " ranks";
  out.work.bytes = static_cast<double>(logical_bytes(op, c, n));
  out.work.rule = rule_for(op);
  out.work.rate_metric = RateMetric::bandwidth;
  out.work.bus_bandwidth_factor = kernels::busbw_factor(op, n);
  out.timer = Timer::steady_clock;
  out.mode = CacheMode::hot;
  out.details = {{"backend", "MPI (" + world.library_version() + ")"},
                 {"time",
                  "per sample: the slowest rank's steady-clock time, all ranks released "
                  "by a barrier"},
                 {"busbw_factor", std::to_string(kernels::busbw_factor(op, n))}};
  TelemetryWindow w;
  w.source = TelemetrySource::unavailable;
  w.scope = "network (MPI between hosts)";
  w.unavailable_reason =
      "no power telemetry for the network; CPU and GPU power are not measured "
      "during host collectives";
  out.windows.push_back(w);
  out.duration_seconds = set.wall_seconds;
  return out;
}

}  // namespace gpusizer::bench::mpi
