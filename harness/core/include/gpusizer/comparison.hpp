// `compare`: the same benchmark (record id) across reports, computed apart from printing
// (print_comparison in printers.hpp lays it out). Each later report is set against the first:
// the ratio of the headline figures, and whether the difference is more than noise (a
// Mann-Whitney U test of the two records' per-operation times, as Google Benchmark's compare.py
// tests repetitions).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "gpusizer/report.hpp"

namespace gpusizer {

struct NamedReport {
  std::string name;  // file name as given
  Report report;
};

// Significance level of the noise test (compare.py's alpha).
inline constexpr double kNoiseAlpha = 0.05;
// Fewer samples than this on a side make the p-value rough (compare.py's
// UTEST_OPTIMAL_REPETITIONS, "9+ repetitions recommended").
inline constexpr std::size_t kRecommendedSamples = 9;

enum class NoiseVerdict {
  same_within_noise,  // p >= alpha: the samples do not tell the two apart
  faster,             // p < alpha, and this record's per-op times are the lower ones
  slower,             // p < alpha, and they are the higher ones
  too_few_samples,    // a side has no samples, or so few that no p below alpha is possible
};

struct NoiseTest {
  NoiseVerdict verdict = NoiseVerdict::too_few_samples;
  std::optional<double> p_value;  // absent when there are too few samples
  std::size_t samples_first = 0;  // per-op time samples of the first report's record
  std::size_t samples = 0;        // and of this one
  // Tested on fewer than kRecommendedSamples samples on a side.
  bool rough() const;
};

// The Mann-Whitney U test (two-sided, asymptotic; stats.hpp) of `later`'s per-op time samples
// against `first`'s: p < kNoiseAlpha is a difference (faster or slower by the lower times),
// otherwise the same within noise. A side with no timing, or too few samples for any p-value
// below kNoiseAlpha (3 against 3), is too_few_samples.
NoiseTest noise_test(const Record& first, const Record& later);

// "same within noise", "faster (p = 0.003)", "slower (p < 0.001)", "too few samples".
std::string verdict_text(const NoiseTest& test);

// One benchmark (record id) across reports.
struct ComparedValue {
  const Record* record = nullptr;  // nullptr: this report lacks the benchmark
  // The headline (first) metric, when the record is "ok" or "failed" and has one.
  std::optional<double> value;
  // value / the first report's value, for the later reports, when both exist and the first is > 0.
  std::optional<double> ratio_to_first;
  // The noise test against the first report, for the later reports, when both have a value.
  std::optional<NoiseTest> noise;
};
struct ComparisonRow {
  const Record* first = nullptr;      // the record where the id was first seen
  std::string unit;                   // the headline unit, of the last report with a value
  std::vector<ComparedValue> values;  // one per report, in order
  // Worth explaining: a record of the row is flagged high_variance, or the test shows a
  // difference between two reports of the same machine name (report_machine_name), where none is
  // expected. compare prints the load average the records carry for such rows.
  bool noisy = false;
};
// Rows in first-seen order over all reports; the pointers point into `reports`.
std::vector<ComparisonRow> compare_reports(const std::vector<NamedReport>& reports);

// What a report's column is headed by: the instance type, else the host name, else "".
std::string report_machine_name(const Report& report);
// Short, distinct column names: report_machine_name (the file name when it is empty), with
// "#1", "#2", ... after each of the names that several reports share.
std::vector<std::string> report_short_names(const std::vector<NamedReport>& reports);

}  // namespace gpusizer
