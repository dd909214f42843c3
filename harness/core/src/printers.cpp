#include "gpusizer/printers.hpp"

#include <cmath>
#include <cstdio>

#include "gpusizer/fleet.hpp"
#include "gpusizer/plausibility.hpp"
#include "gpusizer/report_io.hpp"
#include "gpusizer/report_page.hpp"
#include "gpusizer/text.hpp"

namespace gpusizer {
namespace {

std::string verification_mark(const Record& r) {
  if (r.status == RecordStatus::skipped) return "-";
  if (r.status == RecordStatus::error) return "error";
  switch (r.verification.status) {
    case VerificationStatus::passed:
      return "passed";
    case VerificationStatus::failed:
      return "FAILED";
    case VerificationStatus::not_applicable:
      break;
  }
  return "n/a";
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
      if (std::fabs(value) >= s.factor)
        return three_significant(value / s.factor) + " " + s.prefix + unit;
    }
    return three_significant(value) + " " + unit;
  }
  if (unit == "s") {
    if (value < 1e-3) return three_significant(value * 1e6) + " us";
    if (value < 1) return three_significant(value * 1e3) + " ms";
    return three_significant(value) + " s";
  }
  if (unit == "1") return fixed(value, 3);
  return three_significant(value) + " " + unit;
}

std::string format_parameters(const nlohmann::json& parameters) {
  std::string out;
  for (const auto& [key, value] : parameters.items()) {
    if (key == "directory" || key == "weight" || key == "element" || key == "busbw_factor")
      continue;
    std::string v;
    if (value.is_number_unsigned() || value.is_number_integer()) {
      bool bytes = key.find("bytes") != std::string::npos;
      v = bytes ? binary_bytes(value.get<std::uint64_t>()) : std::to_string(value.get<long long>());
    } else if (value.is_string()) {
      v = value.get<std::string>();
    } else {
      v = value.dump();
    }
    out += (out.empty() ? "" : " ") + key + "=" + v;
  }
  return out;
}

void print_targets(const std::vector<Target>& targets, std::ostream& out, TextFormat format,
                   std::optional<std::size_t> columns) {
  if (format == TextFormat::json) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& t : targets) j.push_back(to_json(t));
    out << json_for_terminal(j) << "\n";
    return;
  }
  Table table({"id", "kind", "name", "memory", "details"});
  table.shrinkable(2);
  table.shrinkable(4);
  table.fit_width(columns);
  for (const auto& t : targets) {
    std::string details;
    const auto& a = t.attributes;
    auto add = [&](const std::string& label, const char* key) {
      if (a.contains(key) && !a[key].is_null()) {
        std::string v = a[key].is_string() ? a[key].get<std::string>() : a[key].dump();
        details += (details.empty() ? "" : ", ") + label + " " + v;
      }
    };
    if (t.kind == TargetKind::cpu) {
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
    table.add_row(
        {id, std::string(to_string(t.kind)), t.name, binary_bytes(t.memory_bytes), details});
  }
  table.render(out, format);
}

void print_report(const Report& report, std::ostream& out, TextFormat format,
                  std::optional<std::size_t> columns) {
  if (format == TextFormat::json) {
    out << json_for_terminal(to_json(report)) << "\n";
    return;
  }
  Table table({"target", "benchmark", "parameters", "result", "cv", "verified", "power",
               "energy/op", "flags"});
  table.right_align(3);
  table.right_align(4);
  table.right_align(6);
  table.right_align(7);
  for (std::size_t c : {0u, 1u, 2u, 8u}) table.shrinkable(c);  // never a figure
  table.fit_width(columns);
  for (const auto& r : report.records) {
    std::string result, cv, power, energy;
    if (r.status == RecordStatus::skipped || r.status == RecordStatus::error) {
      result = std::string(to_string(r.status)) + ": " + r.reason;
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
    // How the target was loaded (MIG slices, GPUs loaded together): beside the target.
    std::string target = join_target_ids(r.targets);
    if (r.concurrency != Concurrency::not_stated)
      target += " (" + std::string(to_string(r.concurrency)) + ")";
    table.add_row({target, std::string(to_string(r.family)) + "/" + r.operation,
                   format_parameters(r.parameters), result, cv, verification_mark(r), power, energy,
                   flags});
  }
  if (format == TextFormat::html) {
    print_report_page(report, ReportPageSource{}, out);
    return;
  }
  const auto e = [](const std::string& text) { return escape_control(text); };
  if (format == TextFormat::table) {
    out << "gpusizer report: " << e(report.host.hostname) << ", suite " << e(report.suite) << ", "
        << to_string(report.status) << ", " << report.records.size() << " records\n";
    if (!report.hosts.empty()) out << e(fleet_summary(report)) << "\n";
  }
  table.render(out, format);
  if (format == TextFormat::csv) return;
  for (const auto& [id, reason] : report.not_run) {
    out << "not run: " << e(id) << " (" << e(reason) << ")\n";
  }
  for (const auto& w : report.warnings) out << "warning: " << e(w) << "\n";
  for (const auto& r : report.records) {
    auto why = r.details.find("implausible");
    if (is_implausible(r) && why != r.details.end())
      out << "implausible: " << e(r.id) << ": " << e(why->second) << "\n";
  }
}

}  // namespace gpusizer
