#include <gtest/gtest.h>

#include <vector>

#include "gpusizer/stats.hpp"

namespace gpusizer {
namespace {

TEST(Stats, MatchesHandComputedValues) {
  // Samples 1..5 shuffled. mean 3, median 3, sample variance = (4+1+0+1+4)/4 = 2.5,
  // stddev = 1.5811388, cv = 0.5270463; numpy linear percentiles: q1 = 2, q3 = 4.
  std::vector<double> v{4, 1, 5, 3, 2};
  Summary s = summarize(v);
  EXPECT_EQ(s.count, 5u);
  EXPECT_DOUBLE_EQ(s.mean, 3.0);
  EXPECT_DOUBLE_EQ(s.median, 3.0);
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 5.0);
  EXPECT_NEAR(s.stddev, 1.5811388300841898, 1e-12);
  EXPECT_NEAR(s.cv, 0.5270462766947299, 1e-12);
  EXPECT_DOUBLE_EQ(s.q1, 2.0);
  EXPECT_DOUBLE_EQ(s.q3, 4.0);
  EXPECT_DOUBLE_EQ(s.iqr, 2.0);
}

TEST(Stats, EvenCountInterpolates) {
  // numpy.percentile([10, 20, 30, 40], [25, 50, 75]) = [17.5, 25, 32.5]
  std::vector<double> v{40, 10, 30, 20};
  Summary s = summarize(v);
  EXPECT_DOUBLE_EQ(s.median, 25.0);
  EXPECT_DOUBLE_EQ(s.q1, 17.5);
  EXPECT_DOUBLE_EQ(s.q3, 32.5);
}

TEST(Stats, SingleAndEmpty) {
  std::vector<double> one{7};
  Summary s = summarize(one);
  EXPECT_EQ(s.stddev, 0.0);
  EXPECT_EQ(s.cv, 0.0);
  EXPECT_EQ(s.median, 7.0);
  EXPECT_EQ(summarize(std::vector<double>{}).count, 0u);
}

}  // namespace
}  // namespace gpusizer
