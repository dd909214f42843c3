// print_comparison: lays out what compare_reports (comparison.hpp) computed.
#include <ostream>

#include "gpusizer/comparison.hpp"
#include "gpusizer/plausibility.hpp"
#include "gpusizer/printers.hpp"
#include "gpusizer/text.hpp"

namespace gpusizer {
namespace {

const char* verdict_key(NoiseVerdict v) {
  switch (v) {
    case NoiseVerdict::same_within_noise:
      return "same_within_noise";
    case NoiseVerdict::faster:
      return "faster";
    case NoiseVerdict::slower:
      return "slower";
    case NoiseVerdict::too_few_samples:
      break;
  }
  return "too_few_samples";
}

nlohmann::json comparison_json(const std::vector<NamedReport>& reports,
                               const std::vector<std::string>& names,
                               const std::vector<ComparisonRow>& rows) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& row : rows) {
    nlohmann::json j{
        {"id", row.first->id}, {"noisy", row.noisy}, {"values", nlohmann::json::array()}};
    for (std::size_t i = 0; i < reports.size(); ++i) {
      const ComparedValue& v = row.values[i];
      nlohmann::json e{{"report", reports[i].name}, {"name", names[i]}};
      if (v.value) {
        const Metric& m = v.record->metrics.front();
        e.update({{"metric", m.name},
                  {"value", m.value},
                  {"unit", m.unit},
                  {"status", v.record->status},
                  {"implausible", is_implausible(*v.record)},
                  {"samples", v.record->timing ? v.record->timing->samples_seconds.size() : 0}});
      } else {
        e["value"] = nullptr;
      }
      if (v.ratio_to_first) e["ratio_to_first"] = *v.ratio_to_first;
      if (v.noise) {
        e["verdict"] = verdict_key(v.noise->verdict);
        e["p_value"] = v.noise->p_value ? nlohmann::json(*v.noise->p_value) : nlohmann::json();
      }
      if (v.record && v.record->load_average) {
        e["load_average"] = {{"start", v.record->load_average->start},
                             {"end", v.record->load_average->end}};
      }
      j["values"].push_back(e);
    }
    list.push_back(j);
  }
  return list;
}

std::string row_label(const Record& first) {
  return std::string(to_string(first.family)) + "/" + first.operation + " " +
         join_target_ids(first.targets);
}

// "load: gemm/fp32 cpu m=1024: 1-minute load average a#1 0.12 -> 0.30, a#2 3.20 -> 3.41
// (2 logical CPUs)": the load during each record of a noisy row, when they carry it.
std::string load_note(const ComparisonRow& row, const std::vector<NamedReport>& reports,
                      const std::vector<std::string>& names) {
  std::string loads;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const Record* r = row.values[i].record;
    if (!r || !r->load_average) continue;
    loads += (loads.empty() ? "" : ", ") + names[i] + " " + fixed(r->load_average->start, 2) +
             " -> " + fixed(r->load_average->end, 2);
    const int cpus = reports[i].report.host.logical_cpus;
    if (cpus > 0) loads += " (" + std::to_string(cpus) + " logical CPUs)";
  }
  if (loads.empty()) return "";
  const std::string params = format_parameters(row.first->parameters);
  return "load: " + row_label(*row.first) + (params.empty() ? "" : " " + params) +
         ": 1-minute load average at start -> end: " + loads;
}

}  // namespace

void print_comparison(const std::vector<NamedReport>& reports, std::ostream& out, TextFormat format,
                      std::optional<std::size_t> columns) {
  const std::vector<ComparisonRow> rows = compare_reports(reports);
  const std::vector<std::string> names = report_short_names(reports);
  if (format == TextFormat::json) {
    out << json_for_terminal(comparison_json(reports, names, rows)) << "\n";
    return;
  }
  // CSV is for programs: its columns are headed by the file names, with no legend around it.
  const bool csv = format == TextFormat::csv;
  std::vector<std::string> headers{"benchmark", "parameters", "unit"};
  for (std::size_t i = 0; i < reports.size(); ++i) {
    headers.push_back(csv ? reports[i].name : names[i]);
    if (i > 0) {
      headers.push_back("ratio " + std::to_string(i + 1) + "/1");
      headers.push_back(std::to_string(i + 1) + " vs 1");
    }
  }
  Table table(headers);
  // Columns: benchmark, parameters, unit, the first report's value, then per later report i its
  // value (3i + 1), ratio (3i + 2) and verdict (3i + 3).
  table.right_align(3);
  for (std::size_t i = 1; i < reports.size(); ++i) {
    table.right_align(3 * i + 1);
    table.right_align(3 * i + 2);
  }
  table.shrinkable(0);
  table.shrinkable(1);
  table.fit_width(columns);
  bool rough = false;
  for (const auto& row : rows) {
    const Record& first = *row.first;
    std::vector<std::string> cells{row_label(first), format_parameters(first.parameters), row.unit};
    for (std::size_t i = 0; i < reports.size(); ++i) {
      const ComparedValue& v = row.values[i];
      std::string cell = "-";
      if (v.value) {
        cell = format_value(*v.value, v.record->metrics.front().unit);
        if (v.record->status == RecordStatus::failed) cell += " (FAILED)";
        if (is_implausible(*v.record)) cell += " (IMPLAUSIBLE)";
      } else if (v.record) {
        cell = to_string(v.record->status);
      }
      cells.push_back(cell);
      if (i == 0) continue;
      cells.push_back(v.ratio_to_first ? fixed(*v.ratio_to_first, 3) : "-");
      std::string verdict = v.noise ? verdict_text(*v.noise) : "-";
      if (v.noise && v.noise->p_value && v.noise->rough()) {
        verdict += " *";
        rough = true;
      }
      cells.push_back(verdict);
    }
    table.add_row(cells);
  }
  std::vector<std::string> notes;
  if (rough) {
    notes.push_back("* fewer than " + std::to_string(kRecommendedSamples) +
                    " samples on a side: a rough p-value (Google Benchmark's compare.py asks "
                    "for 9 or more)");
  }
  for (const auto& row : rows) {
    if (!row.noisy) continue;
    if (std::string note = load_note(row, reports, names); !note.empty()) notes.push_back(note);
  }
  std::vector<std::string> legend;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    legend.push_back("report " + std::to_string(i + 1) + ", " + names[i] + ": " + reports[i].name);
  }
  const auto lines = [&](const std::vector<std::string>& text) {
    for (const auto& line : text) {
      if (format == TextFormat::md) {
        out << "- " << escape_control(line) << "\n";
      } else if (format == TextFormat::html) {
        out << "<p>" << html_escape(line) << "</p>\n";
      } else if (!csv) {
        out << escape_control(line) << "\n";
      }
    }
    if (format == TextFormat::md && !text.empty()) out << "\n";
  };
  lines(legend);
  table.render(out, format);
  if (format == TextFormat::md && !notes.empty()) out << "\n";
  lines(notes);
}

}  // namespace gpusizer
