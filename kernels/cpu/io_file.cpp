#include "io_file.hpp"

#include <cstring>

#include "pattern.hpp"

namespace gpusizer::kernels::cpu {
namespace {
constexpr std::uint64_t kPositionMix = 0x9E3779B97F4A7C15ULL;

// The content (xorshift from kSourceSeed, written in order) and its checksum, in one pass.
IoTestFile::Fill pattern_fill(std::uint64_t& checksum) {
  auto gen = std::make_shared<PatternGenerator>(kSourceSeed);
  return [gen, &checksum](unsigned char* data, std::size_t bytes, std::size_t offset) {
    gen->fill(data, bytes);
    checksum += checksum_words(data, bytes, offset / 8);
  };
}
}  // namespace

std::uint64_t checksum_words(const void* data, std::size_t bytes, std::uint64_t first_word) {
  const auto* p = static_cast<const unsigned char*>(data);
  const std::size_t words = bytes / 8;
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < words; ++i) {
    std::uint64_t w;
    std::memcpy(&w, p + 8 * i, 8);
    sum += w ^ ((first_word + i) * kPositionMix);
  }
  if (const std::size_t tail = bytes % 8; tail != 0) {
    std::uint64_t w = 0;
    std::memcpy(&w, p + 8 * words, tail);
    sum += w ^ ((first_word + words) * kPositionMix);
  }
  return sum;
}

PatternFile::PatternFile(const std::string& directory, std::size_t bytes,
                         const IoFileOptions& options)
    : file(directory, bytes, pattern_fill(checksum), options) {}

}  // namespace gpusizer::kernels::cpu
