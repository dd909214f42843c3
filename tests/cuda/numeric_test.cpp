#include "host/numeric.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "gpusizer/error.hpp"

namespace gpusizer::kernels::cuda {
namespace {

TEST(NarrowEncoding, Fp16KnownBitPatterns) {
  EXPECT_EQ(encode_fp16(1.0f), 0x3C00);
  EXPECT_EQ(encode_fp16(-2.0f), 0xC000);
  EXPECT_EQ(encode_fp16(0.25f), 0x3400);
  EXPECT_EQ(encode_fp16(0.75f), 0x3A00);
  EXPECT_EQ(encode_fp16(0.0f), 0x0000);
  EXPECT_FLOAT_EQ(decode_fp16(0x3A00), 0.75f);
  EXPECT_FLOAT_EQ(decode_fp16(0xC000), -2.0f);
  EXPECT_FLOAT_EQ(decode_fp16(0x0001), std::ldexp(1.0f, -24));  // smallest subnormal
  EXPECT_THROW(encode_fp16(0.1f), RuntimeError);                // not exact
  EXPECT_THROW(encode_fp16(70000.0f), RuntimeError);            // over 65504
}

TEST(NarrowEncoding, Bf16KnownBitPatterns) {
  EXPECT_EQ(encode_bf16(1.0f), 0x3F80);
  EXPECT_EQ(encode_bf16(-0.75f), 0xBF40);
  EXPECT_FLOAT_EQ(decode_bf16(0x4040), 3.0f);
  EXPECT_THROW(encode_bf16(0.1f), RuntimeError);
}

TEST(NarrowEncoding, Fp8E4m3KnownBitPatterns) {
  // e4m3: bias 7; 1.0 = 0 0111 000; 0.75 = 1.5 x 2^-1 = 0 0110 100; max normal 448 = 0 1111 110.
  EXPECT_EQ(encode_fp8_e4m3(1.0f), 0x38);
  EXPECT_EQ(encode_fp8_e4m3(-0.75f), 0xB4);
  EXPECT_EQ(encode_fp8_e4m3(448.0f), 0x7E);
  EXPECT_FLOAT_EQ(decode_fp8_e4m3(0x7E), 448.0f);
  EXPECT_FLOAT_EQ(decode_fp8_e4m3(0x34), 0.75f);
  EXPECT_TRUE(std::isnan(decode_fp8_e4m3(0x7F)));
  EXPECT_THROW(encode_fp8_e4m3(480.0f), RuntimeError);   // would be the NaN code
  EXPECT_THROW(encode_fp8_e4m3(1.0625f), RuntimeError);  // needs 4 mantissa bits
}

TEST(Pattern, FillThenCheckFindsNothing) {
  std::vector<std::uint8_t> buf(4099);
  fill_pattern(buf, 0xBAADF00D);
  const PatternCheck c = check_pattern(buf, 0xBAADF00D);
  EXPECT_EQ(c.wrong_bytes, 0u);
  EXPECT_EQ(c.first_wrong, SIZE_MAX);
}

TEST(Pattern, MatchesTheByteDefinition) {
  // Byte i = byte (i % 8) of xorshift64(splitmix64_finalizer(seed) + golden x (i / 8 + 1)).
  auto mix = [](std::uint64_t x) {
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
  };
  auto xs = [](std::uint64_t x) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  std::vector<std::uint8_t> buf(21);
  fill_pattern(buf, 99, 3);
  for (std::size_t i = 0; i < buf.size(); ++i) {
    const std::size_t at = i + 3;
    const std::uint64_t w = xs(mix(99) + 0x9E3779B97F4A7C15ULL * (at / 8 + 1));
    EXPECT_EQ(buf[i], static_cast<std::uint8_t>(w >> (8 * (at % 8)))) << i;
  }
}

TEST(Pattern, OneWrongByteIsFoundAtItsOffset) {
  std::vector<std::uint8_t> buf(1000);
  fill_pattern(buf, 7);
  buf[613] ^= 0x10;
  const PatternCheck c = check_pattern(buf, 7);
  EXPECT_EQ(c.wrong_bytes, 1u);
  EXPECT_EQ(c.first_wrong, 613u);
}

TEST(Pattern, RegionsAreConsistentAndSeedsDiffer) {
  std::vector<std::uint8_t> whole(256), tail(100), other(256);
  fill_pattern(whole, 42);
  fill_pattern(tail, 42, 156);
  EXPECT_TRUE(std::equal(tail.begin(), tail.end(), whole.begin() + 156));
  fill_pattern(other, 43);
  EXPECT_GT(check_pattern(other, 42).wrong_bytes, 200u);  // ~255/256 of bytes differ
  // Not constant: a zero-filled or constant buffer must fail.
  std::vector<std::uint8_t> zeros(256, 0);
  EXPECT_GT(check_pattern(zeros, 42).wrong_bytes, 200u);
}

TEST(Verification, RelativeErrorByNorm) {
  const std::vector<double> got{1, 2, 2}, ref{1, 2, 3};
  EXPECT_NEAR(relative_error_by_norm(got, ref), std::sqrt(1.0 / 14.0), 1e-15);
  EXPECT_EQ(relative_error_by_norm(ref, ref), 0);
  const std::vector<double> nan{1, std::numeric_limits<double>::quiet_NaN(), 3};
  EXPECT_TRUE(std::isinf(relative_error_by_norm(nan, ref)));
  EXPECT_THROW(relative_error_by_norm(std::vector<double>{1}, ref), RuntimeError);
}

TEST(Verification, PlantedCorruptionInAHostGemmOutput) {
  // A 4x4 product computed by hand, then one entry changed: the norm error exceeds bf16's 1e-2.
  std::vector<double> ref(16), got(16);
  for (int i = 0; i < 16; ++i)
    ref[static_cast<std::size_t>(i)] = got[static_cast<std::size_t>(i)] = 1.0 + i;
  EXPECT_EQ(relative_error_by_norm(got, ref), 0);
  got[5] = 7.5;  // 6 -> 7.5
  EXPECT_GT(relative_error_by_norm(got, ref), 1e-2);
}

TEST(Verification, ExactCountsTreatNanAsWrong) {
  const std::vector<float> want{1, 2, 3, 4};
  std::vector<float> got{1, 2, 3, 4};
  EXPECT_EQ(count_mismatches(got, want), 0u);
  got[1] = std::numeric_limits<float>::quiet_NaN();
  got[3] = 5;
  EXPECT_EQ(count_mismatches(got, want), 2u);
}

TEST(Verification, PoisonLeftOnlyWhenAllOnesAndWrong) {
  const std::uint8_t ones4[4] = {0xff, 0xff, 0xff, 0xff};
  const std::uint8_t minus2[4] = {0xfe, 0xff, 0xff, 0xff};
  // int8 GEMM: int32 -1 is all-ones bytes; it is a correct result when the reference is -1.
  EXPECT_FALSE(still_poisoned(ones4, -1.0, -1.0));
  EXPECT_TRUE(still_poisoned(ones4, -1.0, 37.0));
  EXPECT_FALSE(still_poisoned(minus2, -2.0, 37.0));  // written (wrong, but written)
  // fp32 / bf16: all-ones bytes decode to NaN, never equal to the reference.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(still_poisoned(ones4, nan, 1.5));
  const std::uint8_t ones2[2] = {0xff, 0xff};
  EXPECT_TRUE(still_poisoned(ones2, nan, -0.25));
  EXPECT_FALSE(still_poisoned(std::span<const std::uint8_t>(), 0.0, 1.0));
}

TEST(Verification, StreamTolerance) {
  const double eps = 2.220446049250313e-16;
  const std::vector<double> ok{0.22, 0.22 * (1 + 10 * eps)}, bad{0.22, 0.23};
  EXPECT_EQ(count_outside(ok, 0.22, 100 * eps), 0u);
  EXPECT_EQ(count_outside(bad, 0.22, 100 * eps), 1u);
}

TEST(Bandwidth, TheoreticalMemoryBandwidthA100) {
  // A100 40 GB: 1215 MHz memory clock, 5120-bit bus -> 1.5552e12 B/s (datasheet 1.555 TB/s).
  EXPECT_NEAR(theoretical_memory_bandwidth(1215e6, 5120), 1.5552e12, 1e6);
}

TEST(Bandwidth, PcieFromSysfsStrings) {
  // Gen5 x16: 32 GT/s x 16 x 128/130 / 8 = 63.0 GB/s; Gen3 x16 = 15.75 GB/s; Gen2 x1 8b/10b = 0.5.
  EXPECT_NEAR(pcie_bandwidth_per_direction("32.0 GT/s PCIe", "16"), 63.015e9, 1e7);
  EXPECT_NEAR(pcie_bandwidth_per_direction("8.0 GT/s PCIe", "16"), 15.754e9, 1e7);
  EXPECT_NEAR(pcie_bandwidth_per_direction("5.0 GT/s PCIe", "1"), 0.5e9, 1e3);
  EXPECT_EQ(pcie_bandwidth_per_direction("Unknown", "16"), 0);
  EXPECT_EQ(pcie_bandwidth_per_direction("", ""), 0);
  EXPECT_EQ(pcie_generation("32.0 GT/s PCIe"), 5);
  EXPECT_EQ(pcie_generation("16.0 GT/s PCIe"), 4);
  EXPECT_EQ(pcie_generation("8.0 GT/s PCIe"), 3);
  EXPECT_EQ(pcie_generation("junk"), 0);
}

}  // namespace
TEST(Pcie, PeakUsesTheMaximumLinkNotTheIdleOne) {
  // Idle H200 on a Gen5 x16 slot: the link has dropped to Gen1 x16; the peak stays Gen5.
  const auto l =
      pcie_peak_link("32.0 GT/s PCIe", "16", "32.0 GT/s PCIe", "16", "2.5 GT/s PCIe", "16");
  EXPECT_EQ(l.speed, "32.0 GT/s PCIe");
  EXPECT_EQ(l.width, "16");
  EXPECT_EQ(l.source, "sysfs max_link_* of the GPU");
  EXPECT_NEAR(pcie_bandwidth_per_direction(l.speed, l.width), 63.015e9, 1e7);
}

TEST(Pcie, UpstreamPortCapsTheDevice) {
  // A Gen5 GPU in a Gen4 x8 slot trains to Gen4 x8.
  const auto l =
      pcie_peak_link("32.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "8", "16.0 GT/s PCIe", "8");
  EXPECT_EQ(pcie_generation(l.speed), 4);
  EXPECT_EQ(l.width, "8");
  EXPECT_NE(l.source.find("upstream port"), std::string::npos);
}

TEST(Pcie, FallsBackToTheCurrentLinkWithoutMaximum) {
  const auto l = pcie_peak_link("", "", "", "", "16.0 GT/s PCIe", "16");
  EXPECT_EQ(pcie_generation(l.speed), 4);
  EXPECT_EQ(l.source, "sysfs current_link_* (no max_link_*)");
  // An unreadable upstream port leaves the device's maximum alone.
  const auto m = pcie_peak_link("32.0 GT/s PCIe", "16", "Unknown", "", "2.5 GT/s PCIe", "1");
  EXPECT_EQ(pcie_generation(m.speed), 5);
  EXPECT_EQ(m.width, "16");
}

}  // namespace gpusizer::kernels::cuda
