// The host collectives family: all_reduce, all_gather and all_to_all over MPI between ranks (the
// CPU backend of collectives: it measures the instance network). Pure parts here, unit-tested
// without MPI: sizes, the nccl-tests byte count S and bus-bandwidth factor, and the exact data
// pattern (small integers in doubles: every sum is exact, so verification compares for equality).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "gpusizer/bench/suite.hpp"
#include "gpusizer/kernels/collectives.hpp"

namespace gpusizer::bench {

inline constexpr kernels::Collective kHostCollectives[] = {kernels::Collective::all_reduce,
                                                           kernels::Collective::all_gather,
                                                           kernels::Collective::all_to_all};

// S values (bytes of the logical array, nccl-tests' definition) measured per collective.
std::vector<std::size_t> host_collective_sizes(Suite suite, bool tiny);

// Elements (8-byte doubles) per block: all_reduce has one block of S/8; all_gather and
// all_to_all have one block per rank of S/(8 n). At least 1.
std::size_t block_elements(kernels::Collective op, std::size_t bytes, int ranks);
// S for that block size: all_reduce 8 c; all_gather and all_to_all 8 c n.
std::size_t logical_bytes(kernels::Collective op, std::size_t block_elements, int ranks);
// Blocks in the send and receive buffers: all_reduce 1/1, all_gather 1/n, all_to_all n/n.
std::size_t send_blocks(kernels::Collective op, int ranks);
std::size_t recv_blocks(kernels::Collective op, int ranks);

// Element i of send block `block` on `rank`.
double send_value(kernels::Collective op, int rank, int ranks, std::size_t block, std::size_t i);
// What element i of receive block `block` must hold on `rank` afterwards.
double expected_value(kernels::Collective op, int rank, int ranks, std::size_t block,
                      std::size_t i);

}  // namespace gpusizer::bench
