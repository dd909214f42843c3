// Printers: reports and targets as tables (text, Markdown, CSV) or JSON. They format records;
// they never measure.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "gpusizer/comparison.hpp"
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

// Same benchmark (record id) across reports (compare_reports, comparison.hpp): headline values
// side by side under short report names, each later one with its ratio to the first and the
// noise test's verdict; a legend maps the names to files, and notes follow (rough p-values, the
// load average of noisy rows). CSV is the table alone, headed by the file names.
void print_comparison(const std::vector<NamedReport>& reports, std::ostream& out, TextFormat format,
                      std::optional<std::size_t> columns = std::nullopt);

}  // namespace gpusizer
