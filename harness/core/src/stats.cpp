#include "gpusizer/stats.hpp"

#include <algorithm>
#include <cmath>

namespace gpusizer {

double percentile_sorted(std::span<const double> sorted, double p) {
  if (sorted.empty()) return 0;
  if (p <= 0) return sorted.front();
  if (p >= 1) return sorted.back();
  double rank = p * static_cast<double>(sorted.size() - 1);
  auto lo = static_cast<std::size_t>(std::floor(rank));
  std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  double frac = rank - static_cast<double>(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

Summary summarize(std::span<const double> samples) {
  Summary s;
  s.count = samples.size();
  if (samples.empty()) return s;
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  double sum = 0;
  for (double v : sorted) sum += v;
  s.mean = sum / static_cast<double>(s.count);
  s.min = sorted.front();
  s.max = sorted.back();
  s.median = percentile_sorted(sorted, 0.5);
  s.q1 = percentile_sorted(sorted, 0.25);
  s.q3 = percentile_sorted(sorted, 0.75);
  s.iqr = s.q3 - s.q1;
  if (s.count > 1) {
    double ss = 0;
    for (double v : sorted) ss += (v - s.mean) * (v - s.mean);
    s.stddev = std::sqrt(ss / static_cast<double>(s.count - 1));
  }
  s.cv = s.mean != 0 ? s.stddev / s.mean : 0;
  return s;
}

namespace {

// The normal approximation of U: z with the continuity correction, and the two-sided p-value.
// tie_term is sum(t^3 - t) over the groups of t equal values.
double two_sided_p(double u_max, double n_a, double n_b, double tie_term) {
  const double n = n_a + n_b;
  const double mu = n_a * n_b / 2;
  const double sigma = std::sqrt(n_a * n_b / 12 * ((n + 1) - tie_term / (n * (n - 1))));
  if (!(sigma > 0)) return 1;  // every value equal: no evidence either way (scipy: z = -inf)
  const double z = (u_max - mu - 0.5) / sigma;
  const double p = 2 * (0.5 * std::erfc(z / std::sqrt(2.0)));  // 2 * normal survival(z)
  return std::clamp(p, 0.0, 1.0);
}

}  // namespace

MannWhitney mann_whitney_u(std::span<const double> a, std::span<const double> b) {
  MannWhitney m;
  if (a.empty() || b.empty()) return m;
  // Rank both samples together; equal values share the mean of their ranks.
  std::vector<std::pair<double, bool>> all;  // value, from a
  all.reserve(a.size() + b.size());
  for (double v : a) all.emplace_back(v, true);
  for (double v : b) all.emplace_back(v, false);
  std::sort(all.begin(), all.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  double rank_sum_a = 0;
  double tie_term = 0;
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i;
    while (j < all.size() && all[j].first == all[i].first) ++j;
    const double t = static_cast<double>(j - i);
    const double mean_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
    for (std::size_t k = i; k < j; ++k) {
      if (all[k].second) rank_sum_a += mean_rank;
    }
    tie_term += t * t * t - t;
    i = j;
  }
  const double n_a = static_cast<double>(a.size());
  const double n_b = static_cast<double>(b.size());
  m.u_a = rank_sum_a - n_a * (n_a + 1) / 2;
  m.u_b = n_a * n_b - m.u_a;
  m.p_value = two_sided_p(std::max(m.u_a, m.u_b), n_a, n_b, tie_term);
  return m;
}

double mann_whitney_min_p_value(std::size_t n_a, std::size_t n_b) {
  if (n_a == 0 || n_b == 0) return 1;
  const double a = static_cast<double>(n_a);
  const double b = static_cast<double>(n_b);
  return two_sided_p(a * b, a, b, 0);
}

}  // namespace gpusizer
