// `gpusizer show report.json --format html`: one self-contained page to attach to a capacity
// request — a summary an approver reads first, a chart per family drawn as inline SVG
// (svg_chart.hpp), then the tables with humanised units, every blank cell explained and flags
// as words with a legend. No script, no network, nothing outside the file.
#pragma once

#include <ostream>
#include <string>

#include "gpusizer/report.hpp"

namespace gpusizer {

struct ReportPageSource {
  std::string file;    // as given on the command line ("" when not from a file)
  std::string sha256;  // of the file's bytes
};

void print_report_page(const Report& report, const ReportPageSource& source, std::ostream& out);

// A record flag in words, for tables and legends ("throttled" -> "throttled: thermal or
// hardware slowdown held the clocks back"); unknown flags are returned as they are.
std::string flag_in_words(const std::string& flag);

}  // namespace gpusizer
