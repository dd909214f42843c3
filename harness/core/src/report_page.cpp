#include "gpusizer/report_page.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "gpusizer/printers.hpp"
#include "gpusizer/svg_chart.hpp"
#include "gpusizer/table.hpp"
#include "gpusizer/text.hpp"

namespace gpusizer {
namespace {

std::string e(const std::string& t) {
  return html_escape(t);
}

std::string gib(std::uint64_t bytes) {
  const double g = static_cast<double>(bytes) / 1073741824.0;
  return fixed(g, g >= 100 ? 0 : 1) + " GiB";
}

// Chart unit for a record's headline unit: the scale readers know (TFLOP/s, GB/s).
struct Scale {
  double factor;
  std::string unit;
};
Scale chart_scale(const std::string& unit, double max) {
  if (unit == "FLOP/s") return max >= 1e12 ? Scale{1e12, "TFLOP/s"} : Scale{1e9, "GFLOP/s"};
  if (unit == "B/s") return max >= 1e12 ? Scale{1e12, "TB/s"} : Scale{1e9, "GB/s"};
  return {1, unit};
}

std::string gemm_label(const Record& r) {
  const auto& p = r.parameters;
  std::string size;
  if (p.contains("m") && p.contains("n") && p.contains("k")) {
    const auto m = p["m"].get<long long>(), n = p["n"].get<long long>(),
               k = p["k"].get<long long>();
    size = (m == n && n == k)
               ? std::to_string(m) + "³"
               : std::to_string(m) + "×" + std::to_string(n) + "×" + std::to_string(k);
  }
  return r.operation + " " + size;
}

std::string size_label(const Record& r) {
  for (const char* key : {"bytes", "array_bytes", "file_bytes", "message_bytes"}) {
    if (r.parameters.contains(key) && r.parameters[key].is_number()) {
      const double b = r.parameters[key].get<double>();
      if (b >= 1073741824.0) return fixed(b / 1073741824.0, 0) + " GiB";
      if (b >= 1048576.0) return fixed(b / 1048576.0, 0) + " MiB";
      return fixed(b / 1024.0, 0) + " KiB";
    }
  }
  return "";
}

std::string record_label(const Record& r, bool several_targets) {
  std::string label = r.family == Family::gemm ? gemm_label(r) : r.operation + " " + size_label(r);
  if (several_targets) label = join_target_ids(r.targets) + " " + label;
  if (r.concurrency != Concurrency::not_stated)
    label += " (" + std::string(to_string(r.concurrency)) + ")";
  return label;
}

// Datasheet or link peak the record was measured against: value / fraction_of_peak.
std::optional<double> peak_of(const Record& r) {
  const Metric* f = r.metric("fraction_of_peak");
  if (!f || !(f->value > 0) || r.metrics.empty()) return std::nullopt;
  return r.metrics.front().value / f->value;
}

bool measured(const Record& r) {
  return (r.status == RecordStatus::ok || r.status == RecordStatus::failed) && !r.metrics.empty();
}

// Host-link copies (PCIe, GB/s) and device-memory kernels (HBM, TB/s) are charted apart: on one
// axis the first would be slivers.
bool host_link(const Record& r) {
  return r.operation.find("h2d") != std::string::npos ||
         r.operation.find("d2h") != std::string::npos ||
         r.operation.find("bidirectional") != std::string::npos;
}

// `link`: the memory family's host <-> GPU copies, charted apart.
const char* family_title(Family family, bool link = false) {
  if (link) return "Host ↔ GPU copies (host link)";
  switch (family) {
    case Family::gemm:
      return "Matrix multiply (GEMM)";
    case Family::memory:
      return "Memory: copies and STREAM kernels";
    case Family::io:
      return "Storage → host → GPU";
    case Family::p2p:
      return "GPU to GPU (P2P)";
    case Family::collectives:
      return "Collectives (NCCL)";
  }
  return "Other";
}

std::string family_chart(Family family, bool link, const std::vector<const Record*>& records,
                         bool several_targets) {
  // Several sizes of one operation on one target: throughput against size, per operation.
  std::map<std::string, std::vector<const Record*>> by_op;
  for (const auto* r : records)
    by_op[r->operation + "@" + join_target_ids(r->targets)].push_back(r);
  // GEMM shapes differ in more than one dimension: bars, one per shape, against the peak.
  bool sweep = family == Family::collectives;
  for (const auto& [op, rs] : by_op) sweep = sweep || (family != Family::gemm && rs.size() >= 3);
  double max = 0;
  std::string unit = records.front()->metrics.front().unit;
  for (const auto* r : records) max = std::max(max, r->metrics.front().value);
  const Scale scale = chart_scale(unit, max);
  if (sweep) {
    std::vector<ChartSeries> series;
    for (const auto& [op, rs] : by_op) {
      ChartSeries s;
      s.name =
          op.substr(0, op.find('@')) + (several_targets ? " " + op.substr(op.find('@') + 1) : "");
      for (const auto* r : rs) {
        double x = 0;
        for (const char* key : {"bytes", "array_bytes", "message_bytes", "file_bytes", "m"})
          if (r->parameters.contains(key) && r->parameters[key].is_number()) {
            x = r->parameters[key].get<double>();
            break;
          }
        if (x > 0) s.points.emplace_back(x, r->metrics.front().value / scale.factor);
      }
      std::sort(s.points.begin(), s.points.end());
      if (!s.points.empty()) series.push_back(std::move(s));
    }
    std::vector<ChartMarker> markers;
    if (auto peak = peak_of(*records.front()))
      markers.push_back({false, *peak / scale.factor, "peak " + format_value(*peak, unit)});
    const bool bytes = family != Family::gemm;
    return svg_line_chart(
        std::string(family_title(family, link)) + ": " +
            (family == Family::collectives ? "bus bandwidth" : "throughput") + " against size",
        bytes ? "bytes (log scale)" : "m = n = k (log scale)", scale.unit, series, markers, true);
  }
  std::vector<ChartBar> bars;
  bool any_peak = false;
  // Bars of one operation (dtype) together, in the order operations first appear.
  std::vector<const Record*> ordered = records;
  std::map<std::string, std::size_t> first_seen;
  for (std::size_t i = 0; i < records.size(); ++i) first_seen.emplace(records[i]->operation, i);
  std::stable_sort(ordered.begin(), ordered.end(), [&](const Record* a, const Record* b) {
    return first_seen[a->operation] < first_seen[b->operation];
  });
  for (const auto* r : ordered) {
    ChartBar b;
    b.label = record_label(*r, several_targets);
    b.value = r->metrics.front().value / scale.factor;
    b.value_text = format_value(r->metrics.front().value, unit);
    if (auto peak = peak_of(*r)) {
      b.reference = *peak / scale.factor;
      b.value_text += " (" + fixed(100 * r->metrics.front().value / *peak, 0) + " %)";
      any_peak = true;
    }
    if (r->status == RecordStatus::failed) b.css_class = "failed";
    bars.push_back(std::move(b));
  }
  return svg_bar_chart(family_title(family, link), scale.unit, bars,
                       any_peak ? "peak the figure is measured against (datasheet, or the "
                                  "trained link); % = fraction of it"
                                : "");
}

// Board power of each benchmark that has it: mean, with the p5-p95 spread in the label.
std::string power_chart(const std::vector<const Record*>& records, bool several_targets) {
  std::vector<ChartBar> bars;
  for (const auto* r : records) {
    if (!r->telemetry || !r->telemetry->power_mean_watts) continue;
    const auto& t = *r->telemetry;
    ChartBar b;
    b.label = record_label(*r, several_targets);
    b.value = *t.power_mean_watts;
    b.value_text = fixed(*t.power_mean_watts, 0) + " W";
    if (t.power_p5_watts && t.power_p95_watts)
      b.value_text += " (" + fixed(*t.power_p5_watts, 0) + "–" + fixed(*t.power_p95_watts, 0) + ")";
    if (t.sm_clock_mean_mhz)
      b.tooltip =
          b.label + ": " + b.value_text + ", SM clock " + fixed(*t.sm_clock_mean_mhz, 0) + " MHz";
    bars.push_back(std::move(b));
  }
  if (bars.empty()) return "";
  return svg_bar_chart("Board power during each benchmark (NVML; mean, p5–p95 in brackets)", "W",
                       bars, "");
}

}  // namespace

std::string flag_in_words(const std::string& flag) {
  static const std::map<std::string, std::string> kWords = {
      {"throttled", "throttled: heat or a hardware slowdown held the clocks back"},
      {"power_capped",
       "at the power cap: the board ran at its power limit (by design on "
       "heavy GEMMs; not throttling)"},
      {"energy_counter_disagrees",
       "energy uncertain: the energy counter and integrated power "
       "disagree beyond the stated margin"},
      {"ecc_errors_during_run", "ECC errors: the GPU counted ECC errors during this benchmark"},
      {"memory_errors_during_run",
       "memory errors during the run (ECC, row remapping or retired "
       "pages)"},
      {"high_variance", "high variance: the spread of the samples is above 5 %"},
      {"noise_target_not_reached",
       "noisy: the spread did not fall below the target before the "
       "time cap; read the figure with its spread"},
      {"verification_failed",
       "verification FAILED: the result is wrong; the figure is not "
       "usable"},
      {"io_directory_in_memory", "I/O directory in memory (tmpfs): not a storage figure"},
      {"implausible", "implausible: above a physical ceiling the report itself records"},
  };
  const auto it = kWords.find(flag);
  return it == kWords.end() ? flag : it->second;
}

void print_report_page(const Report& report, const ReportPageSource& source, std::ostream& out) {
  std::set<std::string> targets_seen;
  for (const auto& r : report.records) targets_seen.insert(join_target_ids(r.targets));
  const bool several_targets = targets_seen.size() > 1;
  std::size_t ok = 0, verified = 0, failed = 0, skipped = 0, errors = 0;
  for (const auto& r : report.records) {
    ok += r.status == RecordStatus::ok;
    verified += r.verification.status == VerificationStatus::passed;
    failed += r.status == RecordStatus::failed;
    skipped += r.status == RecordStatus::skipped;
    errors += r.status == RecordStatus::error;
  }
  std::map<std::string, int> gpus;
  for (const auto& t : report.targets)
    if (t.kind == TargetKind::gpu && !t.parent) ++gpus[t.name];
  std::string gpu_text;
  for (const auto& [name, n] : gpus)
    gpu_text += (gpu_text.empty() ? "" : ", ") + std::to_string(n) + " × " + name;
  const std::string instance =
      report.host.instance_type ? report.host.instance_type->value : "not recorded";
  const std::string headline = report.host.instance_type ? instance : report.host.hostname;

  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<title>gpusizer report: "
      << e(headline) << "</title>\n<style>\n"
      << "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0 auto;"
         "max-width:980px;padding:1em;color:#1a1a1a;line-height:1.45}\n"
         "h1{font-size:1.6em;margin:.2em 0}h2{margin-top:1.6em;border-bottom:2px solid #e5e5e5}\n"
         ".summary{display:grid;grid-template-columns:max-content 1fr;gap:.25em 1em;"
         "background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:.8em 1em}\n"
         ".summary dt{font-weight:600}.summary dd{margin:0;overflow-wrap:anywhere}\n"
         ".status-complete{color:#1a7f37}.status-stopped,.status-running{color:#9a6700}"
         ".status-failed{color:#cf222e}\n"
         ".chart svg{width:100%;height:auto}.chart{margin:1em 0}\n"
         ".chart-title{font-weight:600;font-size:14px}.tick,.axis-label,.legend,.marker-label{"
         "font-size:11px;fill:#555}.bar-label,.bar-value{font-size:12px}\n"
         ".grid{stroke:#e5e5e5}.bar{fill:#1b6ac9}.bar.failed{fill:#cf222e}"
         ".bar.estimated{fill:#9ec5f0}.peak{stroke:#d9480f;stroke-width:2}"
         ".marker{stroke:#555;stroke-dasharray:4 3}\n"
         "figcaption{font-size:12px;color:#555}.key-peak{display:inline-block;width:2px;"
         "height:12px;background:#d9480f;vertical-align:middle}\n"
         ".table-wrap{overflow-x:auto}table{border-collapse:collapse;font-size:13px}"
         "td,th{border:1px solid #d0d7de;padding:3px 7px;vertical-align:top}"
         "th{background:#f6f8fa;text-align:left}td.num{text-align:right;"
         "font-variant-numeric:tabular-nums;white-space:nowrap}\n"
         ".why{color:#6e7781;font-size:12px}.flag{white-space:nowrap}"
         "details{margin:.4em 0}code{overflow-wrap:anywhere}\n"
         "@media print{body{max-width:none}.chart{break-inside:avoid}h2{break-after:avoid}}\n"
         "</style>\n</head>\n<body>\n";
  out << "<h1>gpusizer report: " << e(headline) << "</h1>\n<dl class=\"summary\">\n";
  auto row = [&](const std::string& k, const std::string& v_html) {
    out << "<dt>" << e(k) << "</dt><dd>" << v_html << "</dd>\n";
  };
  const std::string status(to_string(report.status));
  row("Status", "<span class=\"status-" + status + "\">" + status + "</span> — suite <b>" +
                    e(report.suite) + "</b>, " + std::to_string(report.records.size()) +
                    " benchmarks: " + std::to_string(ok) + " measured, " +
                    std::to_string(verified) + " verified correct, " + std::to_string(failed) +
                    " failed verification, " + std::to_string(skipped) + " skipped, " +
                    std::to_string(errors) + " errors");
  row("Instance type", e(instance) + (report.host.instance_type
                                          ? " <span class=\"why\">(" +
                                                e(report.host.instance_type->source) + ")</span>"
                                          : ""));
  row("GPUs", gpu_text.empty() ? "none measured" : e(gpu_text));
  row("Machine", e(report.host.hostname + " — " + report.host.cpu_model + ", " +
                   std::to_string(report.host.logical_cpus) + " logical CPUs, " +
                   gib(report.host.memory_bytes) + " memory; " + report.host.os + ", kernel " +
                   report.host.kernel));
  row("When", e(report.started_at + " → " +
                (report.finished_at.empty() ? "(still running)" : report.finished_at)));
  row("Not run", report.not_run.empty()
                     ? "nothing: every planned benchmark ran"
                     : e(std::to_string(report.not_run.size()) + " benchmark(s), listed below"));
  row("Report file", source.file.empty() ? "(not from a file)"
                                         : "<code>" + e(source.file) + "</code><br>SHA-256 <code>" +
                                               e(source.sha256) + "</code>");
  row("Tool",
      e(report.tool.name + " " + report.tool.version + " (" + report.tool.git_revision + ")"));
  out << "</dl>\n<p class=\"why\">Units: 1 GB = 10⁹ bytes, 1 GiB = 2³⁰. A rate divides the work "
         "of one operation (bytes or FLOP, stated per benchmark) by the median time per "
         "operation (CUDA events on GPUs, the steady clock on the CPU). Power is the scope named "
         "on each benchmark (GPU board power from NVML, CPU package from RAPL), never wall "
         "power. Bars show the median; the orange tick is the peak it is measured against.</p>\n";

  // Charts, one family at a time, in the report's order of families.
  std::vector<Family> families;
  std::map<Family, std::vector<const Record*>> by_family;
  for (const auto& r : report.records) {
    if (!measured(r)) continue;
    if (!by_family.count(r.family)) families.push_back(r.family);
    by_family[r.family].push_back(&r);
  }
  if (!families.empty()) out << "<h2>Results</h2>\n";
  for (const auto& f : families) {
    // One chart per headline unit (a family may mix GB/s and FLOP/s).
    std::map<std::string, std::vector<const Record*>> by_unit;
    for (const auto* r : by_family[f]) {
      const bool link =
          f == Family::memory && host_link(*r) && join_target_ids(r->targets) != "cpu";
      by_unit[r->metrics.front().unit + (link ? "#link" : "")].push_back(r);
    }
    for (const auto& [unit, rs] : by_unit)
      out << family_chart(f, unit.size() > 5 && unit.substr(unit.size() - 5) == "#link", rs,
                          several_targets);
  }
  std::vector<const Record*> all;
  for (const auto& f : families)
    for (const auto* r : by_family[f]) all.push_back(r);
  out << power_chart(all, several_targets);

  // Tables per family, every blank explained.
  std::set<std::string> flags_seen;
  std::map<std::string, int> no_power_reasons;
  out << "<h2>Every benchmark</h2>\n";
  std::vector<Family> table_families;
  for (const auto& r : report.records)
    if (std::find(table_families.begin(), table_families.end(), r.family) == table_families.end())
      table_families.push_back(r.family);
  for (const auto& f : table_families) {
    out << "<h3>" << e(family_title(f)) << "</h3>\n<div class=\"table-wrap\"><table>\n<tr>"
        << "<th>target</th><th>benchmark</th><th>parameters</th><th>result</th>"
        << "<th>spread (CV)</th><th>verified</th><th>power</th><th>energy / op</th>"
        << "<th>flags</th></tr>\n";
    for (const auto& r : report.records) {
      if (r.family != f) continue;
      std::string result, cv, power, energy, verified_text;
      if (r.status == RecordStatus::skipped || r.status == RecordStatus::error) {
        result = "<span class=\"why\">" + e(std::string(to_string(r.status)) + ": " + r.reason) +
                 "</span>";
      } else if (!r.metrics.empty()) {
        result = e(format_value(r.metrics.front().value, r.metrics.front().unit));
      }
      if (r.timing) cv = fixed(r.timing->seconds_per_op.cv * 100, 2) + " %";
      if (r.telemetry && r.telemetry->power_mean_watts) {
        power = fixed(*r.telemetry->power_mean_watts, 1) + " W";
      } else if (r.status == RecordStatus::ok || r.status == RecordStatus::failed) {
        std::string why = !r.telemetry ? "no telemetry for this target"
                          : !r.telemetry->unavailable_reason.empty()
                              ? r.telemetry->unavailable_reason
                              : "no power reading in this window";
        ++no_power_reasons[why];
        power = "<span class=\"why\" title=\"" + e(why) + "\">— *</span>";
      }
      if (const Metric* m = r.metric("energy_per_op")) {
        energy = e(format_value(m->value, "J"));
      } else if (const Metric* b = r.metric("board_energy_per_op")) {
        energy = e(format_value(b->value, "J")) + " <span class=\"why\">(whole board)</span>";
      } else if (r.status == RecordStatus::ok || r.status == RecordStatus::failed) {
        energy = "<span class=\"why\">—</span>";
      }
      verified_text = r.verification.status == VerificationStatus::passed   ? "✓ passed"
                      : r.verification.status == VerificationStatus::failed ? "✗ FAILED"
                      : r.status == RecordStatus::skipped                   ? "—"
                                                                            : "n/a";
      std::string flags;
      for (const auto& fl : r.flags) {
        flags_seen.insert(fl);
        flags += (flags.empty() ? "" : "<br>") + std::string("<span class=\"flag\" title=\"") +
                 e(flag_in_words(fl)) + "\">" +
                 e(flag_in_words(fl).substr(0, flag_in_words(fl).find(':'))) + "</span>";
      }
      out << "<tr><td>" << e(join_target_ids(r.targets)) << "</td><td>"
          << e(std::string(to_string(r.family)) + "/" + r.operation)
          << (r.concurrency == Concurrency::not_stated
                  ? ""
                  : " (" + std::string(to_string(r.concurrency)) + ")")
          << "</td><td>" << e(format_parameters(r.parameters)) << "</td><td class=\"num\">"
          << result << "</td><td class=\"num\">" << cv << "</td><td>" << verified_text
          << "</td><td class=\"num\">" << power << "</td><td class=\"num\">" << energy
          << "</td><td>" << flags << "</td></tr>\n";
    }
    out << "</table></div>\n";
  }
  if (!no_power_reasons.empty()) {
    out << "<p class=\"why\">* No power figure: ";
    bool first = true;
    for (const auto& [why, n] : no_power_reasons) {
      out << (first ? "" : "; ") << e(why) << " (" << n << " benchmark" << (n == 1 ? "" : "s")
          << ")";
      first = false;
    }
    out << ".</p>\n";
  }
  if (!flags_seen.empty()) {
    out << "<h3>Flags</h3>\n<dl>\n";
    for (const auto& fl : flags_seen) {
      const std::string w = flag_in_words(fl);
      const auto colon = w.find(':');
      out << "<dt><b>" << e(w.substr(0, colon)) << "</b> <code>" << e(fl) << "</code></dt><dd>"
          << e(colon == std::string::npos ? w : w.substr(colon + 2)) << "</dd>\n";
    }
    out << "</dl>\n";
  }
  // Targets.
  out << "<h2>Devices</h2>\n<div class=\"table-wrap\"><table>\n<tr><th>id</th><th>kind</th>"
         "<th>name</th><th>memory</th></tr>\n";
  for (const auto& t : report.targets)
    out << "<tr><td>" << e(t.parent ? "↳ " + t.id : t.id) << "</td><td>" << to_string(t.kind)
        << "</td><td>" << e(t.name) << (t.mig_profile ? " (MIG " + e(*t.mig_profile) + ")" : "")
        << "</td><td class=\"num\">" << e(gib(t.memory_bytes)) << "</td></tr>\n";
  out << "</table></div>\n";
  // Not run, then warnings folded: the same text once, with how often it was said.
  if (!report.not_run.empty()) {
    out << "<h2>Not run</h2>\n<ul>\n";
    for (const auto& [id, reason] : report.not_run)
      out << "<li><code>" << e(id) << "</code> — " << e(reason) << "</li>\n";
    out << "</ul>\n";
  }
  if (!report.warnings.empty()) {
    std::vector<std::pair<std::string, int>> folded;
    for (const auto& w : report.warnings) {
      auto it =
          std::find_if(folded.begin(), folded.end(), [&](const auto& p) { return p.first == w; });
      if (it == folded.end())
        folded.emplace_back(w, 1);
      else
        ++it->second;
    }
    out << "<h2>Warnings</h2>\n<ul>\n";
    for (const auto& [w, n] : folded)
      out << "<li>" << e(w)
          << (n > 1 ? " <span class=\"why\">(×" + std::to_string(n) + ")</span>" : "") << "</li>\n";
    out << "</ul>\n";
  }
  out << "</body>\n</html>\n";
}

}  // namespace gpusizer
