// The CPU I/O pipeline's pattern file (created with the shared gpusizer::kernels::IoTestFile) and
// the position-dependent checksum both ends of the pipeline agree on.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "gpusizer/kernels/io_file.hpp"

namespace gpusizer::kernels::cpu {

// Sum over the 64-bit little-endian words w_j of (w_j XOR j * 0x9E3779B97F4A7C15), mod 2^64,
// where j is the word's index in the file (so a chunk read from the wrong offset changes the
// sum). `first_word` = offset / 8; `bytes` is a multiple of 8 except at the end of the file,
// where the last partial word is zero-padded.
std::uint64_t checksum_words(const void* data, std::size_t bytes, std::uint64_t first_word);

// A file of `bytes` bytes filled with the xorshift pattern under `directory` (see IoTestFile:
// unlinked at once, page cache dropped), with the checksum of its content.
struct PatternFile {
  PatternFile(const std::string& directory, std::size_t bytes, const IoFileOptions& options = {});
  std::uint64_t checksum = 0;  // declared first: the fill adds to it while `file` is built
  IoTestFile file;
};

}  // namespace gpusizer::kernels::cpu
