// Printers: reports and targets as tables (text, Markdown, CSV) or JSON. They format records;
// they never measure.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "gpusizer/report.hpp"
#include "gpusizer/table.hpp"

namespace gpusizer {

// "1.234 TB/s", "812.5 TFLOP/s", "3.20 ms", "0.912", "41.3 J" — decimal prefixes (1 GB = 1e9 B).
std::string format_value(double value, const std::string& unit);

// Short "key=value" rendering of a record's parameters (bytes in KiB/MiB/GiB).
std::string format_parameters(const nlohmann::json& parameters);

// `columns`: the width the text table must fit (terminal_columns(), terminal.hpp); nullopt: any.
void print_targets(const std::vector<Target>& targets, std::ostream& out, TextFormat format,
                   std::optional<std::size_t> columns = std::nullopt);
void print_report(const Report& report, std::ostream& out, TextFormat format,
                  std::optional<std::size_t> columns = std::nullopt);

struct NamedReport {
  std::string name;  // file name as given
  Report report;
};
// One benchmark (record id) across reports: what `compare` shows, computed apart from printing.
struct ComparedValue {
  const Record* record = nullptr;  // nullptr: this report lacks the benchmark
  // The headline (first) metric, when the record is "ok" or "failed" and has one.
  std::optional<double> value;
  // value / the first report's value, for the later reports, when both exist and the first is > 0.
  std::optional<double> ratio_to_first;
};
struct ComparisonRow {
  const Record* first = nullptr;      // the record where the id was first seen
  std::string unit;                   // the headline unit, of the last report with a value
  std::vector<ComparedValue> values;  // one per report, in order
};
// Rows in first-seen order over all reports; the pointers point into `reports`.
std::vector<ComparisonRow> compare_reports(const std::vector<NamedReport>& reports);

// Same benchmark (record id) across reports, headline values side by side with the ratio of each
// to the first report.
void print_comparison(const std::vector<NamedReport>& reports, std::ostream& out,
                      TextFormat format);

}  // namespace gpusizer
