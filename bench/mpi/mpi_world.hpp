// The MPI world of a fleet run: initialisation, where this rank stands, and waiting without
// hanging. Every wait outside the timed collectives is a non-blocking request polled here, so a
// stop signal is noticed while a rank waits for the others, and a rank that never arrives (dead,
// or its host gone) is given up after a grace period instead of hanging the run.
#pragma once

// The C API only: Open MPI's and MPICH's deprecated C++ bindings need libmpi_cxx.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <array>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpusizer/bench/fleet.hpp"
#include "gpusizer/clock.hpp"

namespace gpusizer::bench::mpi {

// A wait was given up: the caller keeps what it has and stops.
struct Abandoned : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// After a stop signal, how long a rank still waits for the others to reach the boundary (they
// finish the case in flight first).
inline constexpr double kSignalGraceSeconds = 60;

class World {
 public:
  World();
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  const RankPlace& place() const { return place_; }
  const std::vector<std::string>& hostnames() const { return hostnames_; }  // by rank
  const std::string& library_version() const { return library_version_; }

  // Polls `request` until it completes. Throws Abandoned when a stop signal arrived more than
  // kSignalGraceSeconds ago, or `give_up_at` has passed; calls on_signal once when a signal
  // arrives while waiting.
  void wait(MPI_Request& request, const char* what);
  void check(int rc, const char* what) const;  // throws RuntimeError with MPI's message

  std::array<int, 3> allreduce_max(std::array<int, 3> mine, const char* what);
  double allreduce_max(double mine, const char* what);
  long long allreduce_sum(long long mine, const char* what);
  void barrier(const char* what);
  int broadcast(int value_at_root, const char* what);
  // Every rank gets `root`'s string (`value` is ignored elsewhere).
  std::string broadcast_string(const std::string& value, int root, const char* what);
  // Every rank gets `root`'s bytes (`bytes` holds as many on every rank).
  void broadcast_bytes(void* bytes, int count, int root, const char* what);
  // Rank 0 gets every rank's string (by rank); the others get an empty list.
  std::vector<std::string> gather_strings(const std::string& mine, const char* what);

  std::function<void()> on_signal;
  std::optional<SystemTime> give_up_at;
  void abandon() { abandoned_ = true; }  // then no MPI_Finalize (it would wait for the lost rank)

 private:
  RankPlace place_;
  std::vector<std::string> hostnames_;
  std::string library_version_;
  bool abandoned_ = false;
  bool signalled_ = false;
};

}  // namespace gpusizer::bench::mpi
