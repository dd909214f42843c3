// Summary statistics of a sample set (per-operation times, power readings, ...).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace gpusizer {

struct Summary {
  std::size_t count = 0;
  double mean = 0;
  double median = 0;
  double min = 0;
  double max = 0;
  double stddev = 0;  // unbiased (n - 1); 0 for fewer than 2 samples
  double cv = 0;      // stddev / mean; 0 when mean is 0
  double q1 = 0;      // 25th percentile (linear interpolation between closest ranks)
  double q3 = 0;      // 75th percentile
  double iqr = 0;     // q3 - q1
};

// Percentile p in [0, 1] of sorted data, linear interpolation (numpy's default "linear").
double percentile_sorted(std::span<const double> sorted, double p);

Summary summarize(std::span<const double> samples);

// Mann-Whitney U test of two independent samples (are values of one side larger than the
// other's more often than chance allows?), two-sided, normal approximation with the tie
// correction and the continuity correction: scipy.stats.mannwhitneyu(a, b,
// alternative="two-sided", method="asymptotic"), the test Google Benchmark's compare.py runs on
// repetitions. Needs no normal distribution, only independent samples.
struct MannWhitney {
  double u_a = 0;      // U of `a`: the pairs (x of a, y of b) with x > y, a tie counting 1/2
  double u_b = 0;      // n_a * n_b - u_a
  double p_value = 1;  // two-sided; 1 when a side is empty or every value is equal
};
MannWhitney mann_whitney_u(std::span<const double> a, std::span<const double> b);

// The smallest two-sided p-value mann_whitney_u can give for samples of these sizes (the two
// sides apart, no ties): when it is not below a test's alpha, no difference can be shown with
// so few samples (3 against 3 gives 0.081 at best). 1 when a side is empty.
double mann_whitney_min_p_value(std::size_t n_a, std::size_t n_b);

}  // namespace gpusizer
