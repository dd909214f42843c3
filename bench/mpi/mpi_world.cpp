// MPI world of a fleet run (mpi_world.hpp).
#include "mpi_world.hpp"

#include <unistd.h>

#include <chrono>
#include <thread>

#include "gpusizer/error.hpp"
#include "gpusizer/stop_signals.hpp"

namespace gpusizer::bench::mpi {

World::World() {
  int provided = 0;
  check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  // Errors come back as codes (and become exceptions), never abort the job behind our back.
  check(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  check(MPI_Comm_rank(MPI_COMM_WORLD, &place_.rank), "MPI_Comm_rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &place_.size), "MPI_Comm_size");
  // Local rank and size from MPI itself, the same under mpirun and srun.
  MPI_Comm node = MPI_COMM_NULL;
  check(
      MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, place_.rank, MPI_INFO_NULL, &node),
      "MPI_Comm_split_type");
  check(MPI_Comm_rank(node, &place_.local_rank), "MPI_Comm_rank (node)");
  check(MPI_Comm_size(node, &place_.local_size), "MPI_Comm_size (node)");
  MPI_Comm_free(&node);
  char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  MPI_Get_library_version(version, &len);
  library_version_ = std::string(version, static_cast<std::size_t>(len));
  if (auto nl = library_version_.find_first_of(",\n"); nl != std::string::npos)
    library_version_.resize(nl);
  // Host names, by rank: they group ranks into hosts in the fleet report.
  constexpr int kName = 256;
  char mine[kName] = {};
  ::gethostname(mine, kName - 1);
  std::vector<char> all(static_cast<std::size_t>(kName * place_.size));
  check(MPI_Allgather(mine, kName, MPI_CHAR, all.data(), kName, MPI_CHAR, MPI_COMM_WORLD),
        "MPI_Allgather (host names)");
  for (int r = 0; r < place_.size; ++r)
    hostnames_.emplace_back(all.data() + static_cast<std::ptrdiff_t>(r) * kName);
}

World::~World() {
  if (!abandoned_) MPI_Finalize();
}

void World::check(int rc, const char* what) const {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw RuntimeError(std::string("MPI rank ") + std::to_string(place_.rank) + ": " + what + ": " +
                     std::string(text, static_cast<std::size_t>(len)));
}

void World::wait(MPI_Request& request, const char* what) {
  using clock = std::chrono::steady_clock;
  std::optional<clock::time_point> signal_at;
  while (true) {
    int done = 0;
    check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), what);
    if (done != 0) return;
    if (StopSignals::requested()) {
      if (!signal_at) signal_at = clock::now();
      if (!signalled_) {
        signalled_ = true;
        if (on_signal) on_signal();
      }
      if (std::chrono::duration<double>(clock::now() - *signal_at).count() > kSignalGraceSeconds)
        throw Abandoned(std::string(what) + ": stop signal, and not every rank arrived within " +
                        std::to_string(static_cast<int>(kSignalGraceSeconds)) + " s");
    }
    if (give_up_at && std::chrono::system_clock::now() > *give_up_at)
      throw Abandoned(std::string(what) + ": not every rank arrived before " +
                      iso8601_utc(*give_up_at));
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

std::array<int, 3> World::allreduce_max(std::array<int, 3> mine, const char* what) {
  std::array<int, 3> out{};
  MPI_Request req = MPI_REQUEST_NULL;
  check(MPI_Iallreduce(mine.data(), out.data(), 3, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &req), what);
  wait(req, what);
  return out;
}

double World::allreduce_max(double mine, const char* what) {
  double out = 0;
  MPI_Request req = MPI_REQUEST_NULL;
  check(MPI_Iallreduce(&mine, &out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &req), what);
  wait(req, what);
  return out;
}

long long World::allreduce_sum(long long mine, const char* what) {
  long long out = 0;
  MPI_Request req = MPI_REQUEST_NULL;
  check(MPI_Iallreduce(&mine, &out, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD, &req), what);
  wait(req, what);
  return out;
}

void World::barrier(const char* what) {
  MPI_Request req = MPI_REQUEST_NULL;
  check(MPI_Ibarrier(MPI_COMM_WORLD, &req), what);
  wait(req, what);
}

int World::broadcast(int value, const char* what) {
  MPI_Request req = MPI_REQUEST_NULL;
  check(MPI_Ibcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD, &req), what);
  wait(req, what);
  return value;
}

void World::broadcast_bytes(void* bytes, int count, int root, const char* what) {
  MPI_Request req = MPI_REQUEST_NULL;
  check(MPI_Ibcast(bytes, count, MPI_BYTE, root, MPI_COMM_WORLD, &req), what);
  wait(req, what);
}

std::string World::broadcast_string(const std::string& value, int root, const char* what) {
  long long len = place_.rank == root ? static_cast<long long>(value.size()) : 0;
  MPI_Request req = MPI_REQUEST_NULL;
  check(MPI_Ibcast(&len, 1, MPI_LONG_LONG, root, MPI_COMM_WORLD, &req), what);
  wait(req, what);
  std::string out = place_.rank == root ? value : std::string(static_cast<std::size_t>(len), '\0');
  if (len > 0) broadcast_bytes(out.data(), static_cast<int>(len), root, what);
  return out;
}

std::vector<std::string> World::gather_strings(const std::string& mine, const char* what) {
  const int n = place_.size;
  int len = static_cast<int>(mine.size());
  std::vector<int> lens(place_.rank == 0 ? static_cast<std::size_t>(n) : 0);
  MPI_Request req = MPI_REQUEST_NULL;
  check(MPI_Igather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, MPI_COMM_WORLD, &req), what);
  wait(req, what);
  std::vector<int> displs(lens.size());
  int total = 0;
  for (std::size_t r = 0; r < lens.size(); ++r) {
    displs[r] = total;
    total += lens[r];
  }
  std::vector<char> all(static_cast<std::size_t>(total) + 1);
  check(MPI_Igatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), displs.data(), MPI_CHAR,
                     0, MPI_COMM_WORLD, &req),
        what);
  wait(req, what);
  std::vector<std::string> out;
  for (std::size_t r = 0; r < lens.size(); ++r)
    out.emplace_back(all.data() + displs[r], static_cast<std::size_t>(lens[r]));
  return out;
}

}  // namespace gpusizer::bench::mpi
