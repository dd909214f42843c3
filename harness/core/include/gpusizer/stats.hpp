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

}  // namespace gpusizer
