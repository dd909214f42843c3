#include "numeric.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "gpusizer/error.hpp"

namespace gpusizer::kernels::cuda {
namespace {

// Splits a finite non-zero float into sign, unbiased exponent and 23-bit mantissa.
struct Parts {
  std::uint32_t sign;
  int exponent;
  std::uint32_t mantissa;
};
Parts split(float v) {
  const auto bits = std::bit_cast<std::uint32_t>(v);
  return {bits >> 31, static_cast<int>((bits >> 23) & 0xff) - 127, bits & 0x7fffff};
}

[[noreturn]] void not_exact(const char* format, float v) {
  throw RuntimeError(std::string("value ") + std::to_string(v) +
                     " is not exactly representable in " + format);
}

std::uint32_t encode_small(float v, int exp_bits, int man_bits, int bias, const char* format) {
  const std::uint32_t sign_shift = static_cast<std::uint32_t>(exp_bits + man_bits);
  if (v == 0) return std::signbit(v) ? (1u << sign_shift) : 0u;
  if (!std::isfinite(v)) not_exact(format, v);
  const Parts p = split(v);
  const int biased = p.exponent + bias;
  const int drop = 23 - man_bits;
  if (biased <= 0 || biased >= (1 << exp_bits) - 1 + (man_bits == 3 ? 1 : 0) ||
      (p.mantissa & ((1u << drop) - 1)) != 0)
    not_exact(format, v);
  return (p.sign << sign_shift) | (static_cast<std::uint32_t>(biased) << man_bits) |
         (p.mantissa >> drop);
}

float decode_small(std::uint32_t bits, int exp_bits, int man_bits, int bias) {
  const std::uint32_t man = bits & ((1u << man_bits) - 1);
  const int exp = static_cast<int>((bits >> man_bits) & ((1u << exp_bits) - 1));
  const bool negative = (bits >> (exp_bits + man_bits)) & 1u;
  double value = 0;
  if (exp == 0) {
    value = std::ldexp(static_cast<double>(man), 1 - bias - man_bits);
  } else {
    value = std::ldexp(static_cast<double>(man | (1u << man_bits)), exp - bias - man_bits);
  }
  return static_cast<float>(negative ? -value : value);
}

std::uint64_t xorshift64(std::uint64_t x) {
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return x;
}

// splitmix64's finalizer: every input bit affects every output bit.
std::uint64_t mix64(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

}  // namespace

std::uint16_t encode_fp16(float v) {
  return static_cast<std::uint16_t>(encode_small(v, 5, 10, 15, "fp16"));
}
std::uint16_t encode_bf16(float v) {
  const auto bits = std::bit_cast<std::uint32_t>(v);
  if ((bits & 0xffff) != 0 || !std::isfinite(v)) not_exact("bf16", v);
  return static_cast<std::uint16_t>(bits >> 16);
}
// e4m3 (OCP FP8): bias 7, exponent field 15 is a normal binade except S.1111.111 (NaN).
std::uint8_t encode_fp8_e4m3(float v) {
  const std::uint32_t e = encode_small(v, 4, 3, 7, "fp8 e4m3");
  if ((e & 0x7f) == 0x7f) not_exact("fp8 e4m3", v);
  return static_cast<std::uint8_t>(e);
}
float decode_fp16(std::uint16_t bits) {
  return decode_small(bits, 5, 10, 15);
}
float decode_bf16(std::uint16_t bits) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}
float decode_fp8_e4m3(std::uint8_t bits) {
  if ((bits & 0x7f) == 0x7f) return std::numeric_limits<float>::quiet_NaN();
  return decode_small(bits, 4, 3, 7);
}

// Byte i of the pattern: byte (i % 8) of xorshift64(mix64(seed) + golden x (i / 8 + 1)), so a
// region can be checked on its own and nearby seeds give unrelated patterns. One word per 8 bytes.
void fill_pattern(std::span<std::uint8_t> bytes, std::uint64_t seed, std::size_t offset) {
  const std::uint64_t base = mix64(seed);
  std::size_t i = 0;
  while (i < bytes.size()) {
    const std::size_t at = offset + i;
    const std::uint64_t w = xorshift64(base + 0x9E3779B97F4A7C15ULL * (at / 8 + 1));
    for (std::size_t b = at % 8; b < 8 && i < bytes.size(); ++b, ++i)
      bytes[i] = static_cast<std::uint8_t>(w >> (8 * b));
  }
}

PatternCheck check_pattern(std::span<const std::uint8_t> bytes, std::uint64_t seed,
                           std::size_t offset) {
  PatternCheck r;
  const std::uint64_t base = mix64(seed);
  std::size_t i = 0;
  while (i < bytes.size()) {
    const std::size_t at = offset + i;
    const std::uint64_t w = xorshift64(base + 0x9E3779B97F4A7C15ULL * (at / 8 + 1));
    for (std::size_t b = at % 8; b < 8 && i < bytes.size(); ++b, ++i) {
      if (bytes[i] != static_cast<std::uint8_t>(w >> (8 * b))) {
        if (r.wrong_bytes == 0) r.first_wrong = i;
        ++r.wrong_bytes;
      }
    }
  }
  return r;
}

double relative_error_by_norm(std::span<const double> got, std::span<const double> ref) {
  if (got.size() != ref.size()) throw RuntimeError("relative_error_by_norm: size mismatch");
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(got[i])) return std::numeric_limits<double>::infinity();
    diff += (got[i] - ref[i]) * (got[i] - ref[i]);
    norm += ref[i] * ref[i];
  }
  if (norm == 0) return diff == 0 ? 0 : std::numeric_limits<double>::infinity();
  return std::sqrt(diff / norm);
}

bool still_poisoned(std::span<const std::uint8_t> raw, double got, double ref) {
  if (raw.empty()) return false;
  for (std::uint8_t b : raw)
    if (b != 0xff) return false;
  return !(got == ref);  // NaN (a float poison) is never equal
}

std::size_t count_mismatches(std::span<const float> got, std::span<const float> expected) {
  if (got.size() != expected.size()) throw RuntimeError("count_mismatches: size mismatch");
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!(got[i] == expected[i])) ++wrong;  // NaN counts as wrong
  return wrong;
}

std::size_t count_outside(std::span<const double> got, double expected, double rel_tol) {
  std::size_t wrong = 0;
  for (double v : got)
    if (!(std::fabs(v - expected) <= rel_tol * std::fabs(expected))) ++wrong;
  return wrong;
}

double theoretical_memory_bandwidth(double memory_clock_hz, int bus_width_bits) {
  return 2.0 * memory_clock_hz * bus_width_bits / 8.0;
}

int pcie_generation(const std::string& link_speed) {
  double gts = 0;
  try {
    gts = std::stod(link_speed);
  } catch (const std::exception&) {
    return 0;
  }
  if (gts >= 60) return 6;
  if (gts >= 30) return 5;
  if (gts >= 15) return 4;
  if (gts >= 7.5) return 3;
  if (gts >= 4.5) return 2;
  if (gts >= 2) return 1;
  return 0;
}

double pcie_bandwidth_per_direction(const std::string& link_speed, const std::string& link_width) {
  double gts = 0;
  int width = 0;
  try {
    gts = std::stod(link_speed);
    width = std::stoi(link_width);
  } catch (const std::exception&) {
    return 0;
  }
  if (gts <= 0 || width <= 0) return 0;
  const int gen = pcie_generation(link_speed);
  const double efficiency = gen >= 3 ? 128.0 / 130.0 : 8.0 / 10.0;
  // Gen6 uses PAM4 + FLIT encoding; its 64 GT/s x16 is quoted as 128 GB/s per direction.
  const double eff = gen >= 6 ? 1.0 : efficiency;
  return gts * 1e9 * width * eff / 8.0;
}

PcieLink pcie_peak_link(const std::string& dev_max_speed, const std::string& dev_max_width,
                        const std::string& port_max_speed, const std::string& port_max_width,
                        const std::string& cur_speed, const std::string& cur_width) {
  auto width_of = [](const std::string& w) {
    try {
      return w.empty() ? 0 : std::stoi(w);
    } catch (const std::exception&) {
      return 0;
    }
  };
  if (pcie_generation(dev_max_speed) <= 0 || width_of(dev_max_width) <= 0)
    return {cur_speed, cur_width, "sysfs current_link_* (no max_link_*)"};
  PcieLink link{dev_max_speed, dev_max_width, "sysfs max_link_* of the GPU"};
  const bool port_speed = pcie_generation(port_max_speed) > 0;
  const bool port_width = width_of(port_max_width) > 0;
  if (port_speed && pcie_generation(port_max_speed) < pcie_generation(link.speed)) {
    link.speed = port_max_speed;
    link.source = "sysfs max_link_* of the GPU, capped by its upstream port's";
  }
  if (port_width && width_of(port_max_width) < width_of(link.width)) {
    link.width = port_max_width;
    link.source = "sysfs max_link_* of the GPU, capped by its upstream port's";
  }
  return link;
}

}  // namespace gpusizer::kernels::cuda
