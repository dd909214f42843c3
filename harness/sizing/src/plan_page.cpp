#include "gpusizer/sizing/plan_page.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "gpusizer/printers.hpp"
#include "gpusizer/sizing/plan_print.hpp"
#include "gpusizer/svg_chart.hpp"
#include "gpusizer/table.hpp"
#include "gpusizer/text.hpp"
#include "uncertainty.hpp"

namespace gpusizer::sizing {
namespace {

std::string e(const std::string& t) {
  return html_escape(t);
}

std::string option_name(const PlanRow& r) {
  std::string s = std::to_string(r.cost.instances) + " × " + r.instance_type;
  if (r.mig_profile) s += " (MIG " + *r.mig_profile + ")";
  return s + " " + r.cost.option;
}

// Measurement spread (docs/sizing.md step 11): a figure's range at the p5 and p95 of the samples,
// in grey under the figure; the ranks an option cannot be told apart from.
const char* const kRangeTitle = "at the p5 and p95 of the samples";

std::string range_under(const std::string& text) {
  return std::string("<span class=\"range\" title=\"") + kRangeTitle + "\">" + e(text) + "</span>";
}

std::string tie_mark(const MeasurementSpread& s) {
  if (s.indistinguishable_from.empty()) return "";
  const std::string ranks = detail::rank_list(s.indistinguishable_from);
  return "<span class=\"tie\" title=\"indistinguishable within the measurement from " + e(ranks) +
         ": which costs less can change within the p5-p95 ranges\">≈ " + e(ranks) + "</span>";
}

// The top option's spread in the answer: p5-p95, the samples behind it, its ties (by name).
std::string spread_item(const Plan& p, const PlanRow& top) {
  const MeasurementSpread& s = top.spread;
  if (!s.available) return "<span class=\"why\">no measured spread (" + e(s.why_not) + ")</span>";
  std::string out =
      "p5-p95 of the samples, " +
      (s.min_samples > 0 ? "&ge; " + std::to_string(s.min_samples) + " samples per rate"
                         : std::string("a rate without samples counted as exact"));
  if (!s.binding_at_low.empty()) out += ", binding at p5: " + e(s.binding_at_low);
  if (!s.indistinguishable_from.empty()) {
    std::string others;
    for (int rank : s.indistinguishable_from)
      others += (others.empty() ? "#" : ", #") + std::to_string(rank) + " " +
                option_name(p.rows[static_cast<std::size_t>(rank - 1)]);
    out += "; <b class=\"warn\">indistinguishable within the measurement</b> from " + e(others) +
           " (which costs less can change within the ranges)";
  }
  return out;
}

void answer(const Plan& p, std::ostream& out) {
  if (p.rows.empty()) {
    out << "<p class=\"answer none\">No option can serve this workload from the catalog and "
           "reports given; see the excluded options below.</p>\n";
    return;
  }
  const PlanRow& top = p.rows.front();
  out << "<div class=\"answer\"><div class=\"big\">" << e(option_name(top)) << "</div>\n<dl>";
  auto item = [&](const std::string& k, const std::string& v) {
    out << "<dt>" << e(k) << "</dt><dd>" << v << "</dd>";
  };
  const MeasurementSpread& s = top.spread;
  // "(low-high at p5-p95)" after a figure of the top option when it has a measured spread.
  auto range = [&](const std::string& text) {
    return s.available ? " <span class=\"why\">(" + e(text) + " at p5-p95)</span>" : std::string();
  };
  item("Cost",
       e(format_usd(top.cost.usd_per_hour)) + "/h, " + e(format_usd(top.cost.usd_per_month)) +
           "/month" + range(detail::usd_range(s.usd_per_month)) +
           (top.cost.window_usd ? ", " + e(format_usd(*top.cost.window_usd)) + " for the " +
                                      std::to_string(*p.window_days) + "-day window" +
                                      (s.window_usd ? range(detail::usd_range(*s.window_usd)) : "")
                                : ""));
  if (!s.count_note.empty()) item("Count", e(s.count_note));
  item("Serves", e(short_number(top.units_per_second_per_instance * top.cost.instances) + " " +
                   p.unit + "/s at full load (target " + short_number(p.target_rate) + " " +
                   p.unit + "/s at " + fixed(100 * p.utilization_target, 0) + " % utilization)") +
                     range("per instance " + detail::number_range(s.units_per_second_per_instance) +
                           " " + p.unit + "/s"));
  item("Per dollar", e(short_number(top.cost.units_per_dollar) + " " + p.unit + "/$") +
                         range(detail::number_range(s.units_per_dollar)));
  item("Measured spread", spread_item(p, top));
  item("Per joule", top.units_per_joule
                        ? e(short_number(*top.units_per_joule) + " " + p.unit + "/J") +
                              " <span class=\"why\">(" + e(top.power_note) + ")</span>"
                        : "<span class=\"why\">" + e(top.power_note) + "</span>");
  item("Binding resource", e(top.binding));
  item("Basis", "<span class=\"label-" + std::string(to_string(top.label)) + "\">" +
                    std::string(to_string(top.label)) + "</span> — " + e(top.basis));
  item("Price", e(format_usd(top.cost.price.usd_per_hour) + "/h per instance, " +
                  top.cost.price.source + ", as of " + top.cost.price.as_of) +
                    (top.cost.price_stale ? " <b class=\"warn\">STALE</b>" : "") +
                    (top.cost.price.illustrative ? " <b class=\"warn\">ILLUSTRATIVE</b>" : ""));
  if (top.cost.spare_accelerators > 0)
    item("Spare", e(std::to_string(top.cost.spare_accelerators) + " " +
                    std::string(to_string(top.cost.spare_unit)) + ", " +
                    format_usd(top.cost.spare_usd_per_hour) + "/h"));
  out << "</dl></div>\n";
}

std::string perf_per_dollar_chart(const Plan& p) {
  std::vector<ChartBar> bars;
  for (std::size_t i = 0; i < p.rows.size() && bars.size() < 20; ++i) {
    const PlanRow& r = p.rows[i];
    ChartBar b;
    b.label = "#" + std::to_string(i + 1) + " " + option_name(r);
    b.value = r.cost.units_per_dollar;
    b.value_text =
        short_number(r.cost.units_per_dollar) +
        (r.label == PlanLabel::measured ? "" : " (" + std::string(to_string(r.label)) + ")");
    b.css_class = r.label == PlanLabel::measured ? "" : "estimated";
    b.tooltip = b.label + ": " + format_usd(r.cost.usd_per_hour) + "/h, " + r.basis +
                (r.spread.available ? "; " + detail::number_range(r.spread.units_per_dollar) + " " +
                                          p.unit + "/$ " + kRangeTitle
                                    : "");
    bars.push_back(std::move(b));
  }
  if (bars.empty()) return "";
  return svg_bar_chart("Throughput per dollar of the ranked options (pale: estimated or scaled)",
                       p.unit + " per $", bars, "");
}

// On-demand cost grows with the busy fraction; a reservation costs the same whatever it is.
std::string break_even_chart(const Plan& p) {
  const PlanRow* reserved = nullptr;
  for (const auto& r : p.rows)
    if (r.cost.break_even_busy_fraction && r.cost.window_usd && r.cost.on_demand_window_usd) {
      reserved = &r;
      break;
    }
  if (!reserved || !p.window_busy_fraction || !(*p.window_busy_fraction > 0)) return "";
  const double per_busy = *reserved->cost.on_demand_window_usd / *p.window_busy_fraction;
  ChartSeries on_demand{"on-demand (same instances)", {}, "on-demand"};
  ChartSeries reservation{reserved->cost.option + " (paid for the whole window)", {}, "reserved"};
  for (int i = 1; i <= 10; ++i) {
    const double f = i / 10.0;
    on_demand.points.emplace_back(f * 100, per_busy * f);
    reservation.points.emplace_back(f * 100, *reserved->cost.window_usd);
  }
  std::vector<ChartMarker> markers{
      {true, *reserved->cost.break_even_busy_fraction * 100,
       "break-even " + fixed(100 * *reserved->cost.break_even_busy_fraction, 0) + " % busy"},
      {true, *p.window_busy_fraction * 100,
       "this workload: " + fixed(100 * *p.window_busy_fraction, 0) + " %"}};
  return svg_line_chart("Cost over the " + std::to_string(*p.window_days) +
                            "-day window: " + option_name(*reserved) + " against on-demand",
                        "busy fraction of the window (%)", "US$", {on_demand, reservation}, markers,
                        false);
}

// Each GPU as 8 memory slices; each GPU instance a block at its start slot.
std::string mig_drawing(const PlanRow& r) {
  if (!r.mig || r.mig->gpus.empty()) return "";
  const double cell = 60, row = 34, left = 70;
  const double height = 24 + row * static_cast<double>(r.mig->gpus.size());
  std::ostringstream s;
  s << "<figure class=\"chart\"><svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 "
    << fixed(left + 8 * cell + 10, 0) << ' ' << fixed(height, 0)
    << "\" role=\"img\" aria-label=\"MIG "
    << "layout\"><text class=\"chart-title\" x=\"0\" y=\"16\">MIG layout: " << e(r.instance_type)
    << " (" << r.mig->gpus.size() << " GPU" << (r.mig->gpus.size() == 1 ? "" : "s") << ")</text>\n";
  for (std::size_t g = 0; g < r.mig->gpus.size(); ++g) {
    const double y = 24 + row * static_cast<double>(g);
    s << "<text class=\"bar-label\" x=\"0\" y=\"" << fixed(y + 20, 0) << "\">GPU " << g
      << "</text>";
    for (int k = 0; k < 8; ++k)
      s << "<rect class=\"slot\" x=\"" << fixed(left + k * cell, 0) << "\" y=\"" << fixed(y, 0)
        << "\" width=\"" << fixed(cell, 0) << "\" height=\"" << fixed(row - 6, 0) << "\"/>";
    for (const auto& pl : r.mig->gpus[g].placements)
      s << "<rect class=\"slice\" x=\"" << fixed(left + pl.start * cell + 1, 0) << "\" y=\""
        << fixed(y + 1, 0) << "\" width=\"" << fixed(pl.memory_slices * cell - 2, 0)
        << "\" height=\"" << fixed(row - 8, 0) << "\"><title>" << e(pl.profile) << " at slot "
        << pl.start << "</title></rect><text class=\"slice-label\" x=\""
        << fixed(left + (pl.start + pl.memory_slices / 2.0) * cell, 0) << "\" y=\""
        << fixed(y + 19, 0) << "\" text-anchor=\"middle\">" << e(pl.profile) << "</text>";
    s << "\n";
  }
  s << "</svg></figure>\n";
  return s.str();
}

// Under the ranked table: what the grey ranges and the ties are, then every option's spread as
// the text plan gives it (folded).
void spread_notes(const Plan& p, std::ostream& out) {
  const bool any = std::any_of(p.rows.begin(), p.rows.end(),
                               [](const PlanRow& r) { return r.spread.available; });
  if (any)
    out << "<p class=\"why\">Grey ranges: the figure " << kRangeTitle
        << " (each measured rate at its 5th and 95th percentile; docs/sizing.md step 11); ≈ #n: "
           "indistinguishable within the measurement from option #n, as which costs less can "
           "change within the ranges.</p>\n";
  const std::vector<std::string> lines = detail::spread_lines(p);
  if (lines.empty()) return;
  out << "<details class=\"spread\"><summary>Measurement spread (p5-p95 of the samples)</summary>"
         "<ul>\n";
  for (const auto& line : lines) out << "<li>" << e(line) << "</li>\n";
  out << "</ul></details>\n";
}

void plan_section(const Plan& p, std::ostream& out) {
  out << "<h2>" << e(p.workload_name.empty() ? "Workload" : p.workload_name) << "</h2>\n";
  out << "<p class=\"why\">Target " << e(short_number(p.target_rate) + " " + p.unit) << "/s at "
      << fixed(100 * p.utilization_target, 0) << " % utilization, redundancy " << p.redundancy
      << " " << to_string(p.redundancy_unit)
      << (p.window_days ? ", reservation window " + std::to_string(*p.window_days) + " days" +
                              (p.window_busy_fraction
                                   ? " busy " + fixed(100 * *p.window_busy_fraction, 0) + " %"
                                   : "")
                        : "")
      << "; prices aged to " << e(p.prices_checked_on) << ", catalog " << e(p.catalog_region)
      << ".</p>\n";
  answer(p, out);
  if (!p.summary.empty()) {
    out << "<ul class=\"summary-list\">\n";
    for (const auto& s : p.summary) out << "<li>" << e(s) << "</li>\n";
    out << "</ul>\n";
  }
  out << perf_per_dollar_chart(p) << break_even_chart(p);
  if (const auto window = window_lines(p); !window.empty()) {
    out << "<h3>Reservation window</h3>\n<ul class=\"window-list\">\n";
    for (const auto& line : window) out << "<li>" << e(line) << "</li>\n";
    out << "</ul>\n";
  }
  for (const auto& r : p.rows) {
    if (r.mig) {
      out << mig_drawing(r);
      break;  // the best MIG option's layout
    }
  }
  // Ranked options.
  out << "<h3>Ranked options</h3>\n<div class=\"table-wrap\"><table>\n<tr><th>#</th>"
         "<th>option</th><th>basis</th><th>$/h</th><th>$/month</th>"
      << (p.window_days ? "<th>window $</th><th>break-even busy</th>" : "") << "<th>" << e(p.unit)
      << "/$</th><th>" << e(p.unit)
      << "/J</th><th>binding</th><th>price (source, as of)</th></tr>\n";
  for (std::size_t i = 0; i < p.rows.size(); ++i) {
    const PlanRow& r = p.rows[i];
    const MeasurementSpread& s = r.spread;
    out << "<tr" << (r.label == PlanLabel::measured ? "" : " class=\"estimated\"") << "><td>"
        << i + 1 << tie_mark(s) << "</td><td>" << e(option_name(r))
        << (s.available ? range_under(detail::count_at_ends(s)) : "")
        << "</td><td><span class=\"label-" << to_string(r.label) << "\">" << to_string(r.label)
        << "</span>"
        << (s.available
                ? ""
                : "<span class=\"range\" title=\"" + e(s.why_not) + "\">no measured spread</span>")
        << "</td><td class=\"num\">" << e(format_usd(r.cost.usd_per_hour))
        << "</td><td class=\"num\">" << e(format_usd(r.cost.usd_per_month))
        << (s.available ? range_under(detail::usd_range(s.usd_per_month)) : "") << "</td>";
    if (p.window_days)
      out << "<td class=\"num\">"
          << (r.cost.window_usd
                  ? e(format_usd(*r.cost.window_usd)) +
                        (s.window_usd ? range_under(detail::usd_range(*s.window_usd)) : "")
                  : "<span class=\"why\">—</span>")
          << "</td><td class=\"num\">"
          << (r.cost.break_even_busy_fraction
                  ? fixed(100 * *r.cost.break_even_busy_fraction, 1) + " %"
                  : "<span class=\"why\" title=\"paid per hour used\">—</span>")
          << "</td>";
    out << "<td class=\"num\">" << e(short_number(r.cost.units_per_dollar))
        << (s.available ? range_under(detail::number_range(s.units_per_dollar)) : "")
        << "</td><td class=\"num\">"
        << (r.units_per_joule ? e(short_number(*r.units_per_joule))
                              : "<span class=\"why\" title=\"" + e(r.power_note) + "\">—</span>")
        << "</td><td>" << e(r.binding) << "</td><td>"
        << e(format_usd(r.cost.price.usd_per_hour) + ", " + r.cost.price.source + ", " +
             r.cost.price.as_of)
        << (r.cost.price_stale ? " <b class=\"warn\">stale</b>" : "")
        << (r.cost.price.illustrative ? " <b class=\"warn\">illustrative</b>" : "")
        << "</td></tr>\n";
  }
  out << "</table></div>\n";
  spread_notes(p, out);
  // Evidence.
  out << "<h3>Evidence</h3>\n<ul>\n";
  for (const auto& rep : p.reports)
    out << "<li>report <code>" << e(rep.file) << "</code>, SHA-256 <code>" << e(rep.sha256)
        << "</code>, gpusizer " << e(rep.tool_version) << ", "
        << (rep.verified ? std::string("verified")
                         : "<b class=\"warn\">not verified</b>: " + e(rep.verification))
        << "</li>\n";
  if (!p.rows.empty())
    for (const auto& ev : p.rows.front().evidence)
      out << "<li>top option: record <code>" << e(ev.record_id) << "</code> on " << e(ev.target_id)
          << ", " << e(ev.metric) << " = " << e(format_value(ev.value, ev.unit)) << "</li>\n";
  out << "<li>catalog <code>" << e(p.catalog_file) << "</code>";
  for (const auto& o : p.overlays) out << ", overlay <code>" << e(o) << "</code>";
  out << "</li>\n</ul>\n";
  // Excluded, folded by family: one line per family, option and reason.
  if (!p.excluded.empty()) {
    const std::vector<ExcludedGroup> groups = excluded_groups(p);
    out << "<h3>Excluded (" << p.excluded.size() << ")</h3>\n";
    for (std::size_t i = 0; i < groups.size();) {
      std::size_t end = i, n = 0;
      for (; end < groups.size() && groups[end].family == groups[i].family; ++end)
        n += groups[end].instance_types.size();
      out << "<details><summary><b>" << e(groups[i].family) << "</b> — " << n << " option"
          << (n == 1 ? "" : "s") << "</summary><ul>\n";
      for (; i < end; ++i) out << "<li>" << e(describe(groups[i])) << "</li>\n";
      out << "</ul></details>\n";
    }
  }
  if (!p.warnings.empty() || !p.assumptions.empty()) {
    out << "<h3>Warnings and assumptions</h3>\n<ul>\n";
    for (const auto& w : p.warnings) out << "<li><b class=\"warn\">" << e(w) << "</b></li>\n";
    for (const auto& a : p.assumptions) out << "<li>" << e(a) << "</li>\n";
    out << "</ul>\n";
  }
}

}  // namespace

void print_plan_page(const std::vector<Plan>& plans, std::ostream& out) {
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<title>gpusizer plan</title>\n<style>\n"
         "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0 auto;"
         "max-width:980px;padding:1em;color:#1a1a1a;line-height:1.45}\n"
         "h2{margin-top:1.6em;border-bottom:2px solid #e5e5e5}\n"
         ".answer{background:#f6f8fa;border:1px solid #d0d7de;border-left:6px solid #1a7f37;"
         "border-radius:6px;padding:.8em 1em}.answer .big{font-size:1.5em;font-weight:700}\n"
         ".answer dl{display:grid;grid-template-columns:max-content 1fr;gap:.2em 1em;margin:.5em 0 "
         "0}"
         ".answer dt{font-weight:600}.answer dd{margin:0}\n"
         ".chart svg{width:100%;height:auto}.chart{margin:1em 0}"
         ".chart-title{font-weight:600;font-size:14px}.tick,.axis-label,.legend,.marker-label{"
         "font-size:11px;fill:#555}.bar-label,.bar-value,.slice-label{font-size:12px}"
         ".grid{stroke:#e5e5e5}.bar{fill:#1a7f37}.bar.estimated{fill:#b7dfc0}"
         ".marker{stroke:#555;stroke-dasharray:4 3}.peak{stroke:#d9480f;stroke-width:2}"
         ".slot{fill:#f6f8fa;stroke:#d0d7de}.slice{fill:#9ec5f0;stroke:#1b6ac9}\n"
         ".table-wrap{overflow-x:auto}table{border-collapse:collapse;font-size:13px}"
         "td,th{border:1px solid #d0d7de;padding:3px 7px;vertical-align:top}"
         "th{background:#f6f8fa;text-align:left}td.num{text-align:right;white-space:nowrap;"
         "font-variant-numeric:tabular-nums}tr.estimated td{color:#57606a}\n"
         ".why{color:#6e7781;font-size:12px}.warn{color:#9a6700}"
         ".label-measured{color:#1a7f37;font-weight:600}.label-estimated,.label-scaled{"
         "color:#9a6700}\ncode{overflow-wrap:anywhere}details{margin:.3em 0}\n"
         ".range{display:block;color:#6e7781;font-size:11px}.tie{display:block;color:#9a6700;"
         "font-weight:600;font-size:11px;white-space:nowrap}\n"
         "@media print{body{max-width:none}.chart{break-inside:avoid}details{display:block}}\n"
         "</style>\n</head>\n<body>\n<h1>gpusizer plan</h1>\n";
  for (const auto& p : plans) plan_section(p, out);
  out << "<p class=\"why\">Throughput per dollar is at full load of one instance; per joule "
         "divides by accelerator board power (NVML), not wall power. Estimated and scaled rows "
         "come from datasheet peaks or another machine's CPU: measure them before buying.</p>\n"
         "</body>\n</html>\n";
}

}  // namespace gpusizer::sizing
