#include <gtest/gtest.h>

#include "gpusizer/bench/gbench_bridge.hpp"
#include "gpusizer/error.hpp"

namespace gpusizer::bench {
namespace {

TEST(GbenchFlags, SplitsWhatGpusizerHandlesFromPassthrough) {
  BenchmarkFlags f = parse_benchmark_flags({"--benchmark_repetitions=3", "--benchmark_out=gb.json",
                                            "--benchmark_min_time=0.25", "--benchmark_filter=gemm",
                                            "--benchmark_display_aggregates_only=true"});
  // Repetitions are applied per case by the runner (capped by the time left), not by the flag.
  EXPECT_EQ(f.passthrough, std::vector<std::string>{"--benchmark_display_aggregates_only=true"});
  EXPECT_EQ(f.repetitions, 3);
  EXPECT_EQ(f.out->string(), "gb.json");
  EXPECT_DOUBLE_EQ(*f.min_time_seconds, 0.25);
  EXPECT_EQ(*f.filter, "gemm");
}

TEST(GbenchFlags, RejectsForeignOptionsAndBadValues) {
  EXPECT_THROW(parse_benchmark_flags({"--sutie=quick"}), InputError);
  EXPECT_THROW(parse_benchmark_flags({"--benchmark_min_time=fast"}), InputError);
  EXPECT_THROW(parse_benchmark_flags({"--benchmark_out_format=csv"}), InputError);
  for (const char* bad : {"-3", "0", "x", "", "1e3", "99999999999999999999"}) {
    SCOPED_TRACE(bad);
    try {
      parse_benchmark_flags({std::string("--benchmark_repetitions=") + bad});
      FAIL() << "accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()),
                std::string("--benchmark_repetitions: expected a whole number >= 1, got \"") + bad +
                    "\"");
    }
  }
}

}  // namespace
}  // namespace gpusizer::bench
