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
      EXPECT_EQ(
          std::string(e.what()),
          std::string("--benchmark_repetitions: expected a whole number from 1 to 1000000000, "
                      "got \"") +
              bad + "\"");
    }
  }
}

std::string error_of(const std::vector<std::string>& args) {
  try {
    parse_benchmark_flags(args);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(GbenchFlags, NumericFlagsAreCheckedNamingTheFlag) {
  // Google Benchmark took these and failed later: "vector::reserve", or a WARNING and then
  // "unrecognized flag".
  const std::string reps =
      "--benchmark_repetitions: expected a whole number from 1 to 1000000000, got ";
  EXPECT_EQ(error_of({"--benchmark_repetitions=-3"}), reps + "\"-3\"");
  EXPECT_EQ(error_of({"--benchmark_repetitions=0"}), reps + "\"0\"");
  EXPECT_EQ(error_of({"--benchmark_repetitions=99999999999"}), reps + "\"99999999999\"");
  EXPECT_EQ(error_of({"--benchmark_repetitions=3x"}), reps + "\"3x\"");
  EXPECT_EQ(error_of({"--benchmark_repetitions="}), reps + "\"\"");
  EXPECT_EQ(error_of({"--benchmark_repetitions"}),
            "--benchmark_repetitions: expected --benchmark_repetitions=<value>");
  // Applied by gpusizer itself (capped by the time left), not passed to Google Benchmark.
  const BenchmarkFlags many = parse_benchmark_flags({"--benchmark_repetitions=10000"});
  EXPECT_TRUE(many.passthrough.empty());
  ASSERT_TRUE(many.repetitions.has_value());
  EXPECT_EQ(*many.repetitions, 10000);
  const std::string min_time =
      "--benchmark_min_time: expected a positive number of seconds, at most 86400, got ";
  EXPECT_EQ(error_of({"--benchmark_min_time=inf"}), min_time + "\"inf\"");
  EXPECT_EQ(error_of({"--benchmark_min_time=1e400"}), min_time + "\"1e400\"");
  EXPECT_EQ(error_of({"--benchmark_min_time=-1"}), min_time + "\"-1\"");
  EXPECT_EQ(error_of({"--benchmark_min_time=0"}), min_time + "\"0\"");
  EXPECT_EQ(error_of({"--benchmark_min_warmup_time=nan"}),
            "--benchmark_min_warmup_time: expected a non-negative number of seconds, at most "
            "86400, got \"nan\"");
  EXPECT_EQ(parse_benchmark_flags({"--benchmark_min_warmup_time=0"}).passthrough.size(), 1u);
}

}  // namespace
}  // namespace gpusizer::bench
