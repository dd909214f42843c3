// Pure C++ helpers of the CUDA backend, unit-tested without a GPU: narrow float encodings, the
// xorshift fill pattern, verification by norm and by exact comparison, and bandwidth formulas.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace gpusizer::kernels::cuda {

// Encodings of values exactly representable in the target format (GEMM inputs are drawn from
// such values, so the host reference sees the same numbers the device multiplies). Throws
// RuntimeError for a value that is not exactly representable as a normal number (or zero).
std::uint16_t encode_fp16(float v);
std::uint16_t encode_bf16(float v);
std::uint8_t encode_fp8_e4m3(float v);
float decode_fp16(std::uint16_t bits);
float decode_bf16(std::uint16_t bits);
float decode_fp8_e4m3(std::uint8_t bits);

// xorshift64 byte pattern, as nvbandwidth verifies copies: byte i of a buffer filled with seed s
// is a pure function of (s, i), so any region can be checked on its own.
void fill_pattern(std::span<std::uint8_t> bytes, std::uint64_t seed, std::size_t offset = 0);
// Number of bytes that differ from the pattern, and the first wrong offset (or SIZE_MAX).
struct PatternCheck {
  std::size_t wrong_bytes = 0;
  std::size_t first_wrong = SIZE_MAX;
};
PatternCheck check_pattern(std::span<const std::uint8_t> bytes, std::uint64_t seed,
                           std::size_t offset = 0);

// ||got - ref|| / ||ref|| (2-norms); NaN in got gives +inf.
double relative_error_by_norm(std::span<const double> got, std::span<const double> ref);

// True when a sampled output entry still holds the 0xFF poison written before the run: every byte
// 0xFF and the value is not the expected one. An int32 output (int8 GEMM) of all-ones bytes is -1,
// which can be a correct result, so the comparison with the reference keeps it from counting.
bool still_poisoned(std::span<const std::uint8_t> raw, double got, double ref);

// Count of entries not equal to the expected value, for exact checks (collectives, int8 GEMM).
std::size_t count_mismatches(std::span<const float> got, std::span<const float> expected);

// STREAM check: every element within rel_tol of `expected` (BabelStream: 100 eps for kernels).
std::size_t count_outside(std::span<const double> got, double expected, double rel_tol);

// Theoretical DRAM bandwidth, B/s: 2 x memory clock x bus width / 8 (nvbench; ml-engineering).
double theoretical_memory_bandwidth(double memory_clock_hz, int bus_width_bits);

// PCIe payload bandwidth per direction after line encoding, B/s, from sysfs's
// current_link_speed ("32.0 GT/s PCIe") and current_link_width ("16"); 0 if unreadable.
// Gen1/2 use 8b/10b, Gen3+ 128b/130b.
double pcie_bandwidth_per_direction(const std::string& link_speed, const std::string& link_width);
// The link a host-link peak is computed from. A GPU's current link drops speed (and width) when
// idle, so the peak uses the maximum the link trains to: the smaller of the device's max_link_*
// and its upstream port's (a Gen5 GPU in a Gen4 slot runs at Gen4), falling back to the current
// link when no maximum is readable. `source` says which sysfs files it came from.
struct PcieLink {
  std::string speed, width, source;
};
PcieLink pcie_peak_link(const std::string& dev_max_speed, const std::string& dev_max_width,
                        const std::string& port_max_speed, const std::string& port_max_width,
                        const std::string& cur_speed, const std::string& cur_width);

// PCIe generation from the link speed string (2.5 -> 1, 5 -> 2, 8 -> 3, 16 -> 4, 32 -> 5, 64 -> 6).
int pcie_generation(const std::string& link_speed);

}  // namespace gpusizer::kernels::cuda
