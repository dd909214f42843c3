// Printers: reports and targets as tables (text, Markdown, CSV) or JSON. They format records;
// they never measure.
#pragma once

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

void print_targets(const std::vector<Target>& targets, std::ostream& out, TextFormat format);
void print_report(const Report& report, std::ostream& out, TextFormat format);

struct NamedReport {
  std::string name;  // file name as given
  Report report;
};
// Same benchmark (record id) across reports, headline values side by side with the ratio of each
// to the first report.
void print_comparison(const std::vector<NamedReport>& reports, std::ostream& out,
                      TextFormat format);

}  // namespace gpusizer
