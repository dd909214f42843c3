// Inline SVG charts drawn by gpusizer for its self-contained HTML pages: no script, no font or
// image to fetch, readable printed and on a phone (the SVG scales to the page width). Every mark
// carries a class (`bar`, `peak`, `point`, `line`) so a browser test can count what was drawn.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gpusizer {

struct ChartBar {
  std::string label;                // left of the bar
  double value = 0;                 // in the chart's unit
  std::string value_text;           // right of the bar ("681.6 TFLOP/s")
  std::optional<double> reference;  // a tick on the bar's row (a datasheet peak), same unit
  std::string css_class;            // extra class on the bar ("estimated", "excluded"...)
  std::string tooltip;              // <title> of the bar
};

// Horizontal bars, one row each, on a linear axis from 0; `reference_label` names the ticks.
std::string svg_bar_chart(const std::string& title, const std::string& axis_unit,
                          const std::vector<ChartBar>& bars, const std::string& reference_label);

struct ChartSeries {
  std::string name;
  std::vector<std::pair<double, double>> points;  // (x, y), x > 0 (log2 axis)
  std::string css_class;
};

struct ChartMarker {  // a vertical or horizontal rule with its label
  bool vertical = false;
  double at = 0;
  std::string label;
};

// Lines with points; x on a log2 axis (sizes) when `log_x`, y linear from 0.
std::string svg_line_chart(const std::string& title, const std::string& x_unit,
                           const std::string& y_unit, const std::vector<ChartSeries>& series,
                           const std::vector<ChartMarker>& markers, bool log_x);

}  // namespace gpusizer
