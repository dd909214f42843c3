// Built without MPI (no libopenmpi-dev at configure time): a launch with several ranks is refused,
// never run as N separate runs that overwrite one report.
#include "gpusizer/bench/fleet.hpp"
#include "gpusizer/error.hpp"

namespace gpusizer::bench {

bool built_with_mpi() {
  return false;
}

std::unique_ptr<FleetSession> start_fleet_session() {
  auto place = mpi_launch_from_environment([](const char* n) { return std::getenv(n); });
  if (place && place->size > 1) {
    throw InputError("launched by an MPI launcher with " + std::to_string(place->size) +
                     " ranks, but this gpusizer was built without MPI (install libopenmpi-dev "
                     "and configure again; docs/multi-node.md)");
  }
  return nullptr;
}

}  // namespace gpusizer::bench
