#include "gpusizer/printers.hpp"

#include <cmath>
#include <cstdio>
#include <map>

#include "gpusizer/fleet.hpp"
#include "gpusizer/report_io.hpp"

namespace gpusizer {
namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// Three significant digits, at least.
std::string sig3(double v) {
  double a = std::fabs(v);
  int digits = a >= 100 ? 1 : a >= 10 ? 2 : 3;
  return fixed(v, digits);
}

std::string bytes_human(std::uint64_t b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(b);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  return fixed(v, v == std::floor(v) ? 0 : 1) + " " + units[u];
}

std::string verification_mark(const Record& r) {
  if (r.status == "skipped") return "-";
  if (r.status == "error") return "error";
  return r.verification.status == "passed"   ? "passed"
         : r.verification.status == "failed" ? "FAILED"
                                             : "n/a";
}

// A self-contained page to attach to a capacity request: provenance first, then the results.
void print_report_html(const Report& report, const Table& table, std::ostream& out) {
  auto e = [](const std::string& t) { return html_escape(t); };
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>gpusizer "
         "report: "
      << e(report.host.hostname) << "</title>\n<style>body{font-family:sans-serif;margin:2em}"
      << "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px}"
      << "td.num{text-align:right;font-variant-numeric:tabular-nums}th{background:#f3f3f3}"
      << "</style>\n</head>\n<body>\n<h1>gpusizer report: " << e(report.host.hostname)
      << "</h1>\n<ul>\n";
  std::string instance = report.host.instance_type ? report.host.instance_type->value + " (" +
                                                         report.host.instance_type->source + ")"
                                                   : "not recorded";
  out << "<li>tool: "
      << e(report.tool.name + " " + report.tool.version + " (" + report.tool.git_revision + ")")
      << "</li>\n<li>suite: " << e(report.suite) << ", status: " << e(report.status)
      << "</li>\n<li>started " << e(report.started_at) << ", finished "
      << e(report.finished_at.empty() ? "(running)" : report.finished_at) << "</li>\n<li>host: "
      << e(report.host.cpu_model + ", " + report.host.os + ", kernel " + report.host.kernel)
      << "</li>\n<li>instance type: " << e(instance) << "</li>\n";
  out << "<li>units: 1 GB = 1e9 B; rates divide the stated work per op by the median time per op "
         "(CUDA events or steady clock); power is the scope named on each record, never wall "
         "power</li>\n</ul>\n<h2>Targets</h2>\n";
  Table targets({"id", "kind", "name", "memory bytes"});
  targets.right_align(3);
  for (const auto& t : report.targets) {
    targets.add_row({t.id, t.kind, t.name, std::to_string(t.memory_bytes)});
  }
  targets.render(out, TextFormat::html);
  out << "<h2>Results</h2>\n";
  table.render(out, TextFormat::html);
  if (!report.not_run.empty() || !report.warnings.empty()) {
    out << "<h2>Not run and warnings</h2>\n<ul>\n";
    for (const auto& [id, reason] : report.not_run) {
      out << "<li>not run: " << e(id) << " (" << e(reason) << ")</li>\n";
    }
    for (const auto& w : report.warnings) out << "<li>" << e(w) << "</li>\n";
    out << "</ul>\n";
  }
  out << "</body>\n</html>\n";
}

}  // namespace

std::string format_value(double value, const std::string& unit) {
  struct Scale {
    double factor;
    const char* prefix;
  };
  static const Scale kScales[] = {{1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
  if (unit == "B/s" || unit == "FLOP/s" || unit == "B/J" || unit == "FLOP/J") {
    for (const auto& s : kScales) {
      if (std::fabs(value) >= s.factor) return sig3(value / s.factor) + " " + s.prefix + unit;
    }
    return sig3(value) + " " + unit;
  }
  if (unit == "s") {
    if (value < 1e-3) return sig3(value * 1e6) + " us";
    if (value < 1) return sig3(value * 1e3) + " ms";
    return sig3(value) + " s";
  }
  if (unit == "1") return fixed(value, 3);
  return sig3(value) + " " + unit;
}

std::string format_parameters(const nlohmann::json& parameters) {
  std::string out;
  for (const auto& [key, value] : parameters.items()) {
    if (key == "directory" || key == "weight" || key == "element" || key == "busbw_factor")
      continue;
    std::string v;
    if (value.is_number_unsigned() || value.is_number_integer()) {
      bool bytes = key.find("bytes") != std::string::npos;
      v = bytes ? bytes_human(value.get<std::uint64_t>()) : std::to_string(value.get<long long>());
    } else if (value.is_string()) {
      v = value.get<std::string>();
    } else {
      v = value.dump();
    }
    out += (out.empty() ? "" : " ") + key + "=" + v;
  }
  return out;
}

void print_targets(const std::vector<Target>& targets, std::ostream& out, TextFormat format) {
  if (format == TextFormat::json) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& t : targets) j.push_back(to_json(t));
    out << j.dump(2) << "\n";
    return;
  }
  Table table({"id", "kind", "name", "memory", "details"});
  for (const auto& t : targets) {
    std::string details;
    const auto& a = t.attributes;
    auto add = [&](const std::string& label, const char* key) {
      if (a.contains(key) && !a[key].is_null()) {
        std::string v = a[key].is_string() ? a[key].get<std::string>() : a[key].dump();
        details += (details.empty() ? "" : ", ") + label + " " + v;
      }
    };
    if (t.kind == "cpu") {
      add("cores", "physical_cores");
      add("threads", "logical_cpus");
      add("NUMA nodes", "numa_nodes");
    } else {
      add("cc", "compute_capability");
      add("SMs", "sm_count");
      if (t.mig_profile) details += (details.empty() ? "" : ", ") + ("MIG " + *t.mig_profile);
      if (t.uuid) details += (details.empty() ? "" : ", ") + *t.uuid;
    }
    std::string id = t.parent ? "  " + t.id : t.id;  // MIG slices indented under their GPU
    table.add_row({id, t.kind, t.name, bytes_human(t.memory_bytes), details});
  }
  table.render(out, format);
}

void print_report(const Report& report, std::ostream& out, TextFormat format) {
  if (format == TextFormat::json) {
    out << to_json(report).dump(2) << "\n";
    return;
  }
  Table table({"target", "benchmark", "parameters", "result", "cv", "verified", "power",
               "energy/op", "flags"});
  table.right_align(3);
  table.right_align(4);
  table.right_align(6);
  table.right_align(7);
  for (const auto& r : report.records) {
    std::string result, cv, power, energy;
    if (r.status == "skipped" || r.status == "error") {
      result = r.status + ": " + r.reason;
    } else if (!r.metrics.empty()) {
      result = format_value(r.metrics.front().value, r.metrics.front().unit);
    }
    if (r.timing) cv = fixed(r.timing->seconds_per_op.cv * 100, 2) + "%";
    if (r.telemetry && r.telemetry->power_mean_watts) {
      power = fixed(*r.telemetry->power_mean_watts, 1) + " W";
    }
    if (const Metric* e = r.metric("energy_per_op")) energy = format_value(e->value, "J");
    std::string flags;
    for (const auto& f : r.flags) flags += (flags.empty() ? "" : ",") + f;
    table.add_row({r.target, r.family + "/" + r.operation, format_parameters(r.parameters), result,
                   cv, verification_mark(r), power, energy, flags});
  }
  if (format == TextFormat::html) {
    print_report_html(report, table, out);
    return;
  }
  if (format == TextFormat::table) {
    out << "gpusizer report: " << report.host.hostname << ", suite " << report.suite << ", "
        << report.status << ", " << report.records.size() << " records\n";
    if (!report.hosts.empty()) out << fleet_summary(report) << "\n";
  }
  table.render(out, format);
  if (format == TextFormat::csv) return;
  for (const auto& [id, reason] : report.not_run) {
    out << "not run: " << id << " (" << reason << ")\n";
  }
  for (const auto& w : report.warnings) out << "warning: " << w << "\n";
}

void print_comparison(const std::vector<NamedReport>& reports, std::ostream& out,
                      TextFormat format) {
  std::vector<std::string> headers{"benchmark", "parameters", "unit"};
  for (std::size_t i = 0; i < reports.size(); ++i) {
    headers.push_back(reports[i].name);
    if (i > 0) headers.push_back("ratio " + std::to_string(i + 1) + "/1");
  }
  // Rows in first-seen order over all reports.
  std::vector<std::string> ids;
  std::map<std::string, const Record*> first_seen;
  for (const auto& nr : reports) {
    for (const auto& r : nr.report.records) {
      if (first_seen.emplace(r.id, &r).second) ids.push_back(r.id);
    }
  }
  if (format == TextFormat::json) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& id : ids) {
      nlohmann::json row{{"id", id}, {"values", nlohmann::json::array()}};
      for (const auto& nr : reports) {
        const Record* r = nr.report.find_record(id);
        if (r && r->status != "skipped" && r->status != "error" && !r->metrics.empty()) {
          row["values"].push_back({{"report", nr.name},
                                   {"metric", r->metrics.front().name},
                                   {"value", r->metrics.front().value},
                                   {"unit", r->metrics.front().unit},
                                   {"status", r->status}});
        } else {
          row["values"].push_back({{"report", nr.name}, {"value", nullptr}});
        }
      }
      rows.push_back(row);
    }
    out << rows.dump(2) << "\n";
    return;
  }
  Table table(headers);
  for (std::size_t c = 3; c < headers.size(); ++c) table.right_align(c);
  for (const auto& id : ids) {
    const Record* first = first_seen[id];
    std::vector<std::string> row{first->family + "/" + first->operation + " " + first->target,
                                 format_parameters(first->parameters), ""};
    std::optional<double> base;
    for (std::size_t i = 0; i < reports.size(); ++i) {
      const Record* r = reports[i].report.find_record(id);
      std::optional<double> v;
      std::string cell = "-";
      if (r && (r->status == "ok" || r->status == "failed") && !r->metrics.empty()) {
        v = r->metrics.front().value;
        row[2] = r->metrics.front().unit;
        cell = format_value(*v, r->metrics.front().unit);
        if (r->status == "failed") cell += " (FAILED)";
      } else if (r) {
        cell = r->status;
      }
      row.push_back(cell);
      if (i == 0) {
        base = v;
      } else {
        row.push_back(base && v && *base > 0 ? fixed(*v / *base, 3) : "-");
      }
    }
    table.add_row(row);
  }
  table.render(out, format);
}

}  // namespace gpusizer
