#include "memcpy_cpu.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

#include "pattern.hpp"

namespace gpusizer::kernels::cpu {
namespace {
constexpr std::size_t kAlignBytes = 64;
constexpr unsigned char kPoison = 0xA5;
}  // namespace

MemcpyCpu::MemcpyCpu(const CopyCase& c) : bytes_(c.bytes) {
  if (bytes_ == 0) throw InputError("memcpy: bytes must be positive");
  src_ = AlignedBuffer(bytes_, kAlignBytes);
  dst_ = AlignedBuffer(bytes_, kAlignBytes);
  // First touch of both buffers happens here, on the thread that will copy, before any timing.
  PatternGenerator(kSourceSeed).fill(src_.as<void>(), bytes_);
  std::memset(dst_.as<void>(), kPoison, bytes_);
}

double MemcpyCpu::run(std::size_t repeats) {
  void* dst = dst_.as<void>();
  const void* src = src_.as<void>();
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t r = 0; r < repeats; ++r) std::memcpy(dst, src, bytes_);
  const auto stop = std::chrono::steady_clock::now();
  count_runs(repeats);
  return std::chrono::duration<double>(stop - start).count();
}

std::string MemcpyCpu::verification_method() const {
  return "destination compared byte for byte with the xorshift64 pattern (seed 0xBAADF00D) "
         "written into the source at set-up (nvbandwidth's approach)";
}

void MemcpyCpu::check_output(Verification& v) const {
  // Regenerate the pattern independently of src (which a faulty copy could also have damaged).
  constexpr std::size_t kBlock = 1 << 16;
  std::vector<unsigned char> expected(kBlock);
  PatternGenerator gen(kSourceSeed);
  const auto* dst = dst_.as<const unsigned char>();
  std::size_t wrong = 0;
  std::size_t first_wrong = 0;
  for (std::size_t off = 0; off < bytes_; off += kBlock) {
    const std::size_t len = std::min(kBlock, bytes_ - off);
    gen.fill(expected.data(), len);
    if (std::memcmp(expected.data(), dst + off, len) == 0) continue;
    for (std::size_t i = 0; i < len; ++i) {
      if (expected[i] != dst[off + i] && wrong++ == 0) first_wrong = off + i;
    }
  }
  if (wrong == 0) {
    v.status = VerificationStatus::passed;
    v.detail = std::to_string(bytes_) + " bytes match";
  } else {
    v.status = VerificationStatus::failed;
    v.detail = std::to_string(wrong) + " of " + std::to_string(bytes_) +
               " bytes differ; first at offset " + std::to_string(first_wrong);
  }
}

WorkAmount MemcpyCpu::work_per_op() const {
  WorkAmount w;
  w.bytes = static_cast<double>(bytes_);
  w.rule = "bytes = N = " + std::to_string(bytes_) +
           " (a copy of N bytes counts N, nvbandwidth's convention; memory traffic is 2N)";
  w.rate_metric = RateMetric::bandwidth;
  return w;
}

std::map<std::string, std::string> MemcpyCpu::details() const {
  return {{"threads", "1"},
          {"function", "std::memcpy"},
          {"alignment_bytes", std::to_string(kAlignBytes)},
          {"first_touch", "source pattern and destination poison written before timing"}};
}

void MemcpyCpu::corrupt_output_for_test() {
  dst_.as<unsigned char>()[bytes_ / 2] ^= 0x01;
}

}  // namespace gpusizer::kernels::cpu
