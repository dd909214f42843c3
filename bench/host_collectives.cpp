// Host collectives: sizes, byte counts and the exact data pattern (host_collectives.hpp).
#include "gpusizer/bench/host_collectives.hpp"

#include <algorithm>

namespace gpusizer::bench {
namespace {

using kernels::Collective;

double cell(std::size_t i) {
  return static_cast<double>(i % 1024 + 1);
}

}  // namespace

std::vector<std::size_t> host_collective_sizes(Suite suite, bool tiny) {
  if (tiny) return {4096, 262144};
  if (suite == Suite::quick) return {1u << 20, 16u << 20};
  return {64u << 10, 1u << 20, 16u << 20, 128u << 20};
}

std::size_t block_elements(Collective op, std::size_t bytes, int ranks) {
  const std::size_t per = op == Collective::all_reduce ? 8 : 8 * static_cast<std::size_t>(ranks);
  return std::max<std::size_t>(1, bytes / per);
}

std::size_t logical_bytes(Collective op, std::size_t block_elements, int ranks) {
  return op == Collective::all_reduce ? 8 * block_elements
                                      : 8 * block_elements * static_cast<std::size_t>(ranks);
}

std::size_t send_blocks(Collective op, int ranks) {
  return op == Collective::all_to_all ? static_cast<std::size_t>(ranks) : 1;
}

std::size_t recv_blocks(Collective op, int ranks) {
  return op == Collective::all_reduce ? 1 : static_cast<std::size_t>(ranks);
}

// all_reduce: rank r sends (r + 1) x cell(i); the sum is cell(i) x n(n+1)/2.
// all_gather: rank r sends r x 1024 + cell(i); block b of the result is rank b's.
// all_to_all: rank r sends block d = (r n + d) x 1024 + cell(i) to rank d, which finds it in
// its block r.
double send_value(Collective op, int rank, int ranks, std::size_t block, std::size_t i) {
  switch (op) {
    case Collective::all_reduce:
      return (rank + 1) * cell(i);
    case Collective::all_gather:
      return rank * 1024.0 + cell(i);
    default:
      return (static_cast<double>(rank) * ranks + static_cast<double>(block)) * 1024.0 + cell(i);
  }
}

double expected_value(Collective op, int rank, int ranks, std::size_t block, std::size_t i) {
  switch (op) {
    case Collective::all_reduce:
      return cell(i) * (static_cast<double>(ranks) * (ranks + 1) / 2);
    case Collective::all_gather:
      return static_cast<double>(block) * 1024.0 + cell(i);
    default:
      return (static_cast<double>(block) * ranks + rank) * 1024.0 + cell(i);
  }
}

}  // namespace gpusizer::bench
