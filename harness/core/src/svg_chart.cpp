#include "gpusizer/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "gpusizer/table.hpp"

namespace gpusizer {
namespace {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string tick_text(double v) {
  char buf[32];
  if (v == 0) return "0";
  std::snprintf(buf, sizeof buf, std::fabs(v) >= 100 ? "%.0f" : "%.3g", v);
  return buf;
}

// A "nice" axis maximum and step: 1, 2 or 5 x 10^k, about five ticks.
std::pair<double, double> nice_axis(double max) {
  if (!(max > 0)) return {1, 0.2};
  const double raw = max / 5;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / p;
  const double step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
  return {std::ceil(max / step) * step, step};
}

const char* kPalette[] = {"#1b6ac9", "#d9480f", "#2b8a3e", "#862e9c",
                          "#e67700", "#0b7285", "#c2255c", "#5c940d"};

}  // namespace

std::string svg_bar_chart(const std::string& title, const std::string& axis_unit,
                          const std::vector<ChartBar>& bars, const std::string& reference_label) {
  const double label_w = 290, bar_w = 330, value_w = 150, row = 24, top = 34, bottom = 34;
  const double width = label_w + bar_w + value_w;
  const double height = top + row * static_cast<double>(bars.size()) + bottom;
  double max = 0;
  bool any_reference = false;
  for (const auto& b : bars) {
    max = std::max(max, b.value);
    if (b.reference) {
      max = std::max(max, *b.reference);
      any_reference = true;
    }
  }
  const auto [axis_max, step] = nice_axis(max);
  auto x = [&](double v) { return label_w + bar_w * std::clamp(v / axis_max, 0.0, 1.0); };
  std::ostringstream s;
  s << "<figure class=\"chart\"><svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 "
    << num(width) << ' ' << num(height) << "\" role=\"img\" aria-label=\"" << html_escape(title)
    << "\"><title>" << html_escape(title) << "</title>\n";
  s << "<text class=\"chart-title\" x=\"0\" y=\"18\">" << html_escape(title) << "</text>\n";
  for (double t = 0; t <= axis_max + step / 2; t += step) {
    s << "<line class=\"grid\" x1=\"" << num(x(t)) << "\" y1=\"" << num(top - 4) << "\" x2=\""
      << num(x(t)) << "\" y2=\"" << num(height - bottom + 4) << "\"/><text class=\"tick\" x=\""
      << num(x(t)) << "\" y=\"" << num(height - bottom + 18) << "\" text-anchor=\"middle\">"
      << tick_text(t) << "</text>\n";
  }
  s << "<text class=\"axis-label\" x=\"" << num(label_w + bar_w / 2) << "\" y=\"" << num(height - 2)
    << "\" text-anchor=\"middle\">" << html_escape(axis_unit) << "</text>\n";
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const auto& b = bars[i];
    const double y = top + row * static_cast<double>(i);
    s << "<text class=\"bar-label\" x=\"" << num(label_w - 8) << "\" y=\"" << num(y + 16)
      << "\" text-anchor=\"end\">" << html_escape(b.label) << "</text>";
    s << "<rect class=\"bar" << (b.css_class.empty() ? "" : " " + html_escape(b.css_class))
      << "\" x=\"" << num(label_w) << "\" y=\"" << num(y + 4) << "\" width=\""
      << num(std::max(0.5, x(b.value) - label_w)) << "\" height=\"" << num(row - 8) << "\"><title>"
      << html_escape(b.tooltip.empty() ? b.label + ": " + b.value_text : b.tooltip)
      << "</title></rect>";
    if (b.reference)
      s << "<line class=\"peak\" x1=\"" << num(x(*b.reference)) << "\" y1=\"" << num(y + 1)
        << "\" x2=\"" << num(x(*b.reference)) << "\" y2=\"" << num(y + row - 1) << "\"><title>"
        << html_escape(reference_label) << "</title></line>";
    s << "<text class=\"bar-value\" x=\"" << num(label_w + bar_w + 8) << "\" y=\"" << num(y + 16)
      << "\">" << html_escape(b.value_text) << "</text>\n";
  }
  s << "</svg>";
  if (any_reference)
    s << "<figcaption><span class=\"key-peak\"></span> " << html_escape(reference_label)
      << "</figcaption>";
  s << "</figure>\n";
  return s.str();
}

std::string svg_line_chart(const std::string& title, const std::string& x_unit,
                           const std::string& y_unit, const std::vector<ChartSeries>& series,
                           const std::vector<ChartMarker>& markers, bool log_x) {
  const double left = 60, right = 20, top = 34, bottom = 46, plot_w = 600, plot_h = 260;
  const double width = left + plot_w + right, height = top + plot_h + bottom;
  double x_min = 0, x_max = 1, y_max = 0;
  bool first = true;
  for (const auto& sr : series)
    for (const auto& [px, py] : sr.points) {
      const double vx = log_x ? std::log2(px) : px;
      x_min = first ? vx : std::min(x_min, vx);
      x_max = first ? vx : std::max(x_max, vx);
      y_max = std::max(y_max, py);
      first = false;
    }
  for (const auto& m : markers)
    if (!m.vertical) y_max = std::max(y_max, m.at);
  if (x_max <= x_min) x_max = x_min + 1;
  const auto [axis_max, step] = nice_axis(y_max);
  auto X = [&](double v) {
    const double vx = log_x ? std::log2(v) : v;
    return left + plot_w * (vx - x_min) / (x_max - x_min);
  };
  auto Y = [&](double v) { return top + plot_h * (1 - std::clamp(v / axis_max, 0.0, 1.0)); };
  std::ostringstream s;
  s << "<figure class=\"chart\"><svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 "
    << num(width) << ' ' << num(height) << "\" role=\"img\" aria-label=\"" << html_escape(title)
    << "\"><title>" << html_escape(title) << "</title>\n";
  s << "<text class=\"chart-title\" x=\"0\" y=\"18\">" << html_escape(title) << "</text>\n";
  for (double t = 0; t <= axis_max + step / 2; t += step)
    s << "<line class=\"grid\" x1=\"" << num(left) << "\" y1=\"" << num(Y(t)) << "\" x2=\""
      << num(left + plot_w) << "\" y2=\"" << num(Y(t)) << "\"/><text class=\"tick\" x=\""
      << num(left - 6) << "\" y=\"" << num(Y(t) + 4) << "\" text-anchor=\"end\">" << tick_text(t)
      << "</text>\n";
  // x ticks at the data's own x values (sizes), labelled by the caller's unit.
  std::vector<double> xs;
  for (const auto& sr : series)
    for (const auto& p : sr.points) xs.push_back(p.first);
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  const std::size_t every = std::max<std::size_t>(1, xs.size() / 8);
  for (std::size_t i = 0; i < xs.size(); i += every)
    s << "<text class=\"tick\" x=\"" << num(X(xs[i])) << "\" y=\"" << num(top + plot_h + 16)
      << "\" text-anchor=\"middle\">" << tick_text(xs[i]) << "</text>";
  s << "<text class=\"axis-label\" x=\"" << num(left + plot_w / 2) << "\" y=\"" << num(height - 6)
    << "\" text-anchor=\"middle\">" << html_escape(x_unit) << "</text>"
    << "<text class=\"axis-label\" x=\"12\" y=\"" << num(top + plot_h / 2)
    << "\" text-anchor=\"middle\" transform=\"rotate(-90 12 " << num(top + plot_h / 2) << ")\">"
    << html_escape(y_unit) << "</text>\n";
  for (std::size_t mi = 0; mi < markers.size(); ++mi) {
    const auto& m = markers[mi];
    // Labels of vertical rules one under the other, and left of rules near the right edge.
    const bool flip = X(m.at) > left + plot_w * 0.7;
    if (m.vertical)
      s << "<line class=\"marker\" x1=\"" << num(X(m.at)) << "\" y1=\"" << num(top) << "\" x2=\""
        << num(X(m.at)) << "\" y2=\"" << num(top + plot_h)
        << "\"/><text class=\"marker-label\" x=\"" << num(X(m.at) + (flip ? -4 : 4)) << "\" y=\""
        << num(top + 12 + 14 * static_cast<double>(mi)) << "\""
        << (flip ? " text-anchor=\"end\"" : "") << ">" << html_escape(m.label) << "</text>\n";
    else
      s << "<line class=\"peak\" x1=\"" << num(left) << "\" y1=\"" << num(Y(m.at)) << "\" x2=\""
        << num(left + plot_w) << "\" y2=\"" << num(Y(m.at))
        << "\"/><text class=\"marker-label\" x=\"" << num(left + plot_w - 4) << "\" y=\""
        << num(Y(m.at) - 4) << "\" text-anchor=\"end\">" << html_escape(m.label) << "</text>\n";
  }
  for (std::size_t i = 0; i < series.size(); ++i) {
    const auto& sr = series[i];
    const char* colour = kPalette[i % (sizeof kPalette / sizeof kPalette[0])];
    std::string path;
    for (const auto& [px, py] : sr.points)
      path += (path.empty() ? "M" : " L") + num(X(px)) + "," + num(Y(py));
    s << "<path class=\"line " << html_escape(sr.css_class) << "\" d=\"" << path
      << "\" fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"2\"/>";
    for (const auto& [px, py] : sr.points)
      s << "<circle class=\"point\" cx=\"" << num(X(px)) << "\" cy=\"" << num(Y(py))
        << "\" r=\"3\" fill=\"" << colour << "\"><title>" << html_escape(sr.name) << ": "
        << tick_text(px) << " " << html_escape(x_unit) << " → " << tick_text(py) << " "
        << html_escape(y_unit) << "</title></circle>";
    s << "<text class=\"legend\" x=\"" << num(left + 8) << "\" y=\""
      << num(top + 14 + 14 * static_cast<double>(i)) << "\" fill=\"" << colour << "\">"
      << html_escape(sr.name) << "</text>\n";
  }
  s << "</svg></figure>\n";
  return s.str();
}

}  // namespace gpusizer
