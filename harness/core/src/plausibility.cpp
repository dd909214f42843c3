#include "gpusizer/plausibility.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace gpusizer {
namespace {

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

struct Ceiling {
  double value = 0;
  std::string what;  // "the theoretical memory bandwidth of gpu0 (targets[].attributes...)"
};

std::optional<double> attribute(const Target& t, const char* key) {
  auto it = t.attributes.find(key);
  if (it == t.attributes.end() || !it->is_number()) return std::nullopt;
  const double v = it->get<double>();
  if (!std::isfinite(v) || v <= 0) return std::nullopt;
  return v;
}

bool starts_with(const std::string& s, std::string_view prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// The peak a `fraction_of_peak` metric states: "median rate / 6.7e+13 FLOP/s (source)".
std::optional<double> stated_peak(const Metric& m) {
  constexpr std::string_view kLead = "median rate / ";
  if (!starts_with(m.description, kLead)) return std::nullopt;
  const char* begin = m.description.c_str() + kLead.size();
  char* end = nullptr;
  const double v = std::strtod(begin, &end);
  if (end == begin || !std::isfinite(v) || v <= 0) return std::nullopt;
  return v;
}

// Ceilings from the device facts of the record's (single) target.
std::optional<Ceiling> device_ceiling(const Record& r, const Report& report) {
  if (r.targets.size() != 1) return std::nullopt;
  const Target* t = report.find_target(r.targets.front());
  if (t == nullptr || (t->kind != TargetKind::gpu && t->kind != TargetKind::mig))
    return std::nullopt;
  const std::string& op = r.operation;
  const std::string where = "target " + t->id + " attributes.";
  if (r.family == Family::memory && (starts_with(op, "stream_") || op == "d2d")) {
    auto v = attribute(*t, "theoretical_memory_bytes_per_second");
    if (!v) return std::nullopt;
    if (op == "d2d")
      return Ceiling{*v / 2, "half the theoretical memory bandwidth (" + where +
                                 "theoretical_memory_bytes_per_second / 2)"};
    return Ceiling{
        *v, "the theoretical memory bandwidth (" + where + "theoretical_memory_bytes_per_second)"};
  }
  const bool host_link =
      (r.family == Family::memory && (starts_with(op, "h2d_") || starts_with(op, "d2h_"))) ||
      (r.family == Family::io && op == "storage_to_device");
  const bool both_ways = r.family == Family::memory && starts_with(op, "bidirectional_");
  if (host_link || both_ways) {
    auto v = attribute(*t, "pcie_bytes_per_second_per_direction");
    if (!v) return std::nullopt;
    if (both_ways)
      return Ceiling{2 * *v, "twice the PCIe peak per direction (" + where +
                                 "pcie_bytes_per_second_per_direction x 2)"};
    return Ceiling{
        *v, "the PCIe peak per direction (" + where + "pcie_bytes_per_second_per_direction)"};
  }
  return std::nullopt;
}

std::string above(const Metric& headline, const Ceiling& c) {
  return headline.name + " " + number(headline.value) + " " + headline.unit + " is " +
         number(headline.value / c.value) + "x " + c.what + ", " + number(c.value) + " " +
         headline.unit + "; more than " + number(kPlausibilityMargin * 100) +
         "% above a physical ceiling is not a measurement";
}

}  // namespace

std::optional<std::string> implausibility(const Record& r, const Report& report) {
  if ((r.status != RecordStatus::ok && r.status != RecordStatus::failed) || r.metrics.empty())
    return std::nullopt;
  const Metric& headline = r.metrics.front();
  if (headline.unit != "B/s" && headline.unit != "FLOP/s") return std::nullopt;
  const double limit = 1 + kPlausibilityMargin;
  std::vector<Ceiling> ceilings;
  if (const Metric* f = r.metric("fraction_of_peak")) {
    if (f->value > limit) {
      return "fraction_of_peak " + number(f->value) + " is above 1 by more than " +
             number(kPlausibilityMargin * 100) + "% (" + f->description + ")";
    }
    if (auto peak = stated_peak(*f)) {
      ceilings.push_back({*peak, "the peak its fraction_of_peak states (" + f->description + ")"});
    }
  }
  if (auto c = device_ceiling(r, report)) ceilings.push_back(*c);
  const double work = headline.unit == "FLOP/s" ? r.flops_per_op : r.bytes_per_op;
  if (r.timing && r.timing->seconds_per_op.median > 0 && work > 0) {
    ceilings.push_back({work / r.timing->seconds_per_op.median,
                        "the rate its own timing gives (work per op " + number(work) +
                            " / median time per op " + number(r.timing->seconds_per_op.median) +
                            " s)"});
  }
  for (const auto& c : ceilings) {
    if (headline.value > c.value * limit) return above(headline, c);
  }
  return std::nullopt;
}

bool is_implausible(const Record& r) {
  return std::find(r.flags.begin(), r.flags.end(), kImplausibleFlag) != r.flags.end();
}

void flag_implausible_records(Report& report) {
  for (auto& r : report.records) {
    auto why = implausibility(r, report);
    if (!why) continue;
    if (!is_implausible(r)) r.flags.emplace_back(kImplausibleFlag);
    r.details["implausible"] = *why;
  }
}

}  // namespace gpusizer
