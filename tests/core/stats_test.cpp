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

// Expected p-values: scipy 1.17.1, scipy.stats.mannwhitneyu(a, b, alternative="two-sided",
// method="asymptotic"), printed with repr(); U is scipy's statistic (the first sample's U).
TEST(MannWhitney, SeparatedSamplesByHand) {
  // a = 1..5, b = 6..10: no pair with a > b, so U_a = 0, U_b = 25. By hand: mu = 25/2 = 12.5,
  // sigma = sqrt(5*5/12 * (10 + 1)) = sqrt(22.9167) = 4.78714, z = (25 - 12.5 - 0.5) / sigma =
  // 2.50671, p = 2 * (1 - Phi(2.50671)) = 0.0121858. scipy: 0.012185780355344813.
  const std::vector<double> a{1, 2, 3, 4, 5}, b{6, 7, 8, 9, 10};
  const MannWhitney m = mann_whitney_u(a, b);
  EXPECT_DOUBLE_EQ(m.u_a, 0.0);
  EXPECT_DOUBLE_EQ(m.u_b, 25.0);
  EXPECT_NEAR(m.p_value, 0.012185780355344813, 1e-12);
  // Symmetric: swapping the sides swaps U and keeps p.
  const MannWhitney back = mann_whitney_u(b, a);
  EXPECT_DOUBLE_EQ(back.u_a, 25.0);
  EXPECT_NEAR(back.p_value, m.p_value, 1e-15);
}

TEST(MannWhitney, TiesShareRanksAndCorrectTheVariance) {
  // Ties across the samples (2, 3, 5) and within them (4, 7). scipy: U = 12.5,
  // p = 0.0795647345931905.
  const std::vector<double> a{1, 2, 2, 3, 4, 4, 5}, b{2, 3, 3, 5, 6, 7, 7, 8};
  const MannWhitney m = mann_whitney_u(a, b);
  EXPECT_DOUBLE_EQ(m.u_a, 12.5);
  EXPECT_DOUBLE_EQ(m.u_b, 7 * 8 - 12.5);
  EXPECT_NEAR(m.p_value, 0.0795647345931905, 1e-12);
}

TEST(MannWhitney, OverlappingAndShiftedTimes) {
  // Two runs of the same work: overlapping samples. scipy: U = 33, p = 0.8075669579611612.
  const std::vector<double> a{1.00, 1.02, 0.99, 1.01, 1.03, 0.98, 1.00, 1.02, 1.01};
  const std::vector<double> b{1.01, 0.99, 1.04, 1.00, 1.02, 0.97, 1.03, 1.01};
  const MannWhitney same = mann_whitney_u(a, b);
  EXPECT_DOUBLE_EQ(same.u_a, 33.0);
  EXPECT_NEAR(same.p_value, 0.8075669579611612, 1e-12);
  // The same spread, twice as slow. scipy: U = 0, p = 0.0001806347208075351.
  const std::vector<double> c{10.0, 10.4, 9.8, 10.1, 10.3, 9.9, 10.2, 10.0, 10.5, 9.7};
  const std::vector<double> d{20.0, 20.8, 19.6, 20.2, 20.6, 19.8, 20.4, 20.0, 21.0, 19.4};
  const MannWhitney shifted = mann_whitney_u(c, d);
  EXPECT_DOUBLE_EQ(shifted.u_a, 0.0);
  EXPECT_NEAR(shifted.p_value, 0.0001806347208075351, 1e-15);
}

TEST(MannWhitney, DegenerateSamples) {
  // Every value equal: sigma = 0; scipy gives z = -inf, p = 1 (clipped from 2).
  const std::vector<double> a{3, 3, 3}, b{3, 3};
  EXPECT_EQ(mann_whitney_u(a, b).p_value, 1.0);
  EXPECT_DOUBLE_EQ(mann_whitney_u(a, b).u_a, 3.0);
  // One against one: scipy p = 1.0 (z = (1 - 0.5 - 0.5) / sigma = 0).
  const std::vector<double> one{1}, two{2};
  EXPECT_EQ(mann_whitney_u(one, two).p_value, 1.0);
  // Nothing on one side: nothing to test.
  EXPECT_EQ(mann_whitney_u(a, std::vector<double>{}).p_value, 1.0);
}

TEST(MannWhitney, SmallestPossibleP) {
  // Perfectly separated samples of these sizes, scipy: 3 vs 3: 0.08085559837005224 (never below
  // 0.05), 4 vs 4: 0.03038282197657749, 5 vs 5: 0.012185780355344813 (as above).
  EXPECT_NEAR(mann_whitney_min_p_value(3, 3), 0.08085559837005224, 1e-12);
  EXPECT_NEAR(mann_whitney_min_p_value(4, 4), 0.03038282197657749, 1e-12);
  EXPECT_NEAR(mann_whitney_min_p_value(5, 5), 0.012185780355344813, 1e-12);
  EXPECT_EQ(mann_whitney_min_p_value(0, 5), 1.0);
}

}  // namespace
}  // namespace gpusizer
