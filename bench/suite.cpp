#include <algorithm>

#include "gpusizer/bench/suite.hpp"
#include "gpusizer/error.hpp"

namespace gpusizer::bench {

std::string to_string(Suite s) {
  switch (s) {
    case Suite::quick:
      return "quick";
    case Suite::standard:
      return "standard";
    case Suite::full:
      return "full";
  }
  return "quick";
}

Suite suite_from_string(const std::string& s) {
  if (s == "quick") return Suite::quick;
  if (s == "standard") return Suite::standard;
  if (s == "full") return Suite::full;
  throw InputError("--suite: expected quick, standard or full, got \"" + s + "\"");
}

SamplingPolicy sampling_policy(Suite suite, bool tiny) {
  SamplingPolicy p;
  if (tiny) {
    p.min_samples = 3;
    p.min_time_seconds = 0.005;
    p.max_noise = 0.05;
    p.time_cap_seconds = 0.5;
    p.min_sample_seconds = 0.0005;
    return p;
  }
  switch (suite) {
    case Suite::quick:  // about a minute per device: few samples, 1 % noise target
      p.min_samples = 5;
      p.min_time_seconds = 0.1;
      p.max_noise = 0.01;
      p.time_cap_seconds = 3;
      break;
    case Suite::standard:  // nvbench's defaults
      p.min_samples = 10;
      p.min_time_seconds = 0.5;
      p.max_noise = 0.005;
      p.time_cap_seconds = 15;
      break;
    case Suite::full:
      p.min_samples = 20;
      p.min_time_seconds = 1.0;
      p.max_noise = 0.005;
      p.time_cap_seconds = 30;
      break;
  }
  return p;
}

CaseList plan_cases(const SuiteContext& ctx) {
  CaseList cases;
  add_gemm_cases(ctx, cases);
  add_memory_cases(ctx, cases);
  add_p2p_cases(ctx, cases);
  add_collective_cases(ctx, cases);
  add_io_cases(ctx, cases);
  // Most important first (headline figures), families interleaved within a priority level in the
  // order above; stable so sizes stay ascending.
  std::stable_sort(cases.begin(), cases.end(),
                   [](const BenchCase& a, const BenchCase& b) { return a.priority < b.priority; });
  return cases;
}

}  // namespace gpusizer::bench
