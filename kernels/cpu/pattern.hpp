// Deterministic byte pattern written into source buffers and files so that the destination can
// be checked byte for byte (nvbandwidth's memsetPattern idea: xorshift, fixed seed). The stream
// of 64-bit words never repeats within any size we use, so a shifted copy is caught too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace gpusizer::kernels::cpu {

inline constexpr std::uint64_t kSourceSeed = 0xBAADF00DULL;

class PatternGenerator {
 public:
  explicit PatternGenerator(std::uint64_t seed) : state_(seed == 0 ? 1 : seed) {}
  std::uint64_t next_word() {
    // xorshift64 (Marsaglia 2003).
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    return state_;
  }
  // Writes the next `bytes` bytes of the stream. Calls after the first must start on a word
  // boundary of the stream (pass sizes that are multiples of 8 except for the last call).
  void fill(void* dst, std::size_t bytes) {
    auto* out = static_cast<unsigned char*>(dst);
    std::size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
      const std::uint64_t w = next_word();
      std::memcpy(out + i, &w, 8);
    }
    if (i < bytes) {
      const std::uint64_t w = next_word();
      std::memcpy(out + i, &w, bytes - i);
    }
  }

 private:
  std::uint64_t state_;
};

}  // namespace gpusizer::kernels::cpu
