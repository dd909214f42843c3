#include <gtest/gtest.h>

#include "gpusizer/bench/gbench_bridge.hpp"
#include "gpusizer/error.hpp"

namespace gpusizer::bench {
namespace {

TEST(GbenchFlags, SplitsWhatGpusizerHandlesFromPassthrough) {
  BenchmarkFlags f =
      parse_benchmark_flags({"--benchmark_repetitions=3", "--benchmark_out=gb.json",
                             "--benchmark_min_time=0.25", "--benchmark_filter=gemm"});
  EXPECT_EQ(f.passthrough, std::vector<std::string>{"--benchmark_repetitions=3"});
  EXPECT_EQ(f.out->string(), "gb.json");
  EXPECT_DOUBLE_EQ(*f.min_time_seconds, 0.25);
  EXPECT_EQ(*f.filter, "gemm");
}

TEST(GbenchFlags, RejectsForeignOptionsAndBadValues) {
  EXPECT_THROW(parse_benchmark_flags({"--sutie=quick"}), InputError);
  EXPECT_THROW(parse_benchmark_flags({"--benchmark_min_time=fast"}), InputError);
  EXPECT_THROW(parse_benchmark_flags({"--benchmark_out_format=csv"}), InputError);
}

}  // namespace
}  // namespace gpusizer::bench
