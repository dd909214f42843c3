// Suites are data: each family keeps a table of the sizes it sweeps per suite (quick, standard,
// full, and the tiny smoke sizes used by tests); this header holds the shared pieces.
#pragma once

#include <cstddef>
#include <vector>

#include "gpusizer/bench/case.hpp"
#include "gpusizer/bench/sampler.hpp"

namespace gpusizer::bench {

// Values per suite; `tiny` is used when SuiteContext::tiny is set (tests, CI smoke runs).
template <typename T>
struct PerSuite {
  std::vector<T> tiny, quick, standard, full;
  const std::vector<T>& pick(const SuiteContext& ctx) const {
    if (ctx.tiny) return tiny;
    switch (ctx.suite) {
      case Suite::quick:
        return quick;
      case Suite::standard:
        return standard;
      case Suite::full:
        return full;
    }
    return quick;
  }
};

SamplingPolicy sampling_policy(Suite suite, bool tiny);

constexpr std::size_t KiB = 1024;
constexpr std::size_t MiB = 1024 * KiB;
constexpr std::size_t GiB = 1024 * MiB;

}  // namespace gpusizer::bench
