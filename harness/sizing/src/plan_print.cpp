#include "gpusizer/sizing/plan_print.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <sstream>
#include <vector>

namespace gpusizer::sizing {
namespace {

std::string number(double v, int precision) {
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(precision);
  s << v;
  return s.str();
}

std::string short_number(double v) {
  std::ostringstream s;
  s.precision(4);
  s << v;
  return s.str();
}

void print_table(const std::vector<std::vector<std::string>>& rows, std::ostream& out,
                 bool markdown) {
  std::vector<std::size_t> width(rows.front().size(), 0);
  for (const auto& r : rows) {
    for (std::size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], r[i].size());
  }
  for (std::size_t n = 0; n < rows.size(); ++n) {
    const auto& r = rows[n];
    if (markdown) out << "| ";
    for (std::size_t i = 0; i < r.size(); ++i) {
      out << std::left << std::setw(static_cast<int>(width[i])) << r[i];
      out << (markdown ? " | " : "  ");
    }
    out << "\n";
    if (n == 0) {
      if (markdown) out << "|";
      for (std::size_t i = 0; i < r.size(); ++i) {
        out << (markdown ? std::string(width[i] + 2, '-') + "|"
                         : std::string(width[i], '-') + "  ");
      }
      out << "\n";
    }
  }
}

std::string spare_cell(const OptionCost& c) {
  const int n = c.spare_unit == "accelerators" ? c.spare_accelerators : c.spare_replicas;
  if (n == 0) return "0";
  const std::string unit = c.spare_unit == "accelerators" ? " acc"
                           : c.spare_unit == "instances"  ? " inst"
                                                          : " slices";
  return std::to_string(n) + unit + " " + format_usd(c.spare_usd_per_hour) + "/h";
}

void list(const std::string& title, const std::vector<std::string>& items, std::ostream& out,
          bool markdown) {
  if (items.empty()) return;
  out << "\n" << (markdown ? "### " : "") << title << (markdown ? "\n\n" : ":\n");
  for (const auto& i : items) out << (markdown ? "- " : "  - ") << i << "\n";
}

}  // namespace

// A catalog price as given (up to 6 decimals, trailing zeros trimmed, at least cents).
std::string exact_usd(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  std::string text = buf;
  while (text.back() == '0' && text.size() - text.find('.') > 3) text.pop_back();
  return "$" + text;
}

std::string price_label(const OptionCost& cost) {
  std::string out = cost.price.as_of;
  if (cost.price.illustrative) out += " illustrative";
  if (cost.price_stale) out += " stale";
  if (!cost.price_age_days) out += " undated";
  return out;
}

std::vector<std::string> row_labels(const PlanRow& row) {
  std::vector<std::string> out{row.label};
  if (row.cost.price.illustrative) out.push_back("illustrative");
  if (row.cost.price_stale) out.push_back("stale");
  if (!row.cost.price_age_days) out.push_back("undated");
  return out;
}

std::string format_usd(double usd) {
  const double cents_total = std::round(usd * 100.0);
  std::string digits = number(std::floor(std::fabs(cents_total) / 100.0), 0);
  std::string grouped;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) grouped += ',';
    grouped += digits[i];
  }
  const long cents = std::lround(std::fmod(std::fabs(cents_total), 100.0));
  std::string out = (cents_total < 0 ? "-$" : "$") + grouped + "." + (cents < 10 ? "0" : "") +
                    std::to_string(cents);
  return out;
}

void print_plan(const Plan& plan, std::ostream& out, bool markdown) {
  out << (markdown ? "## " : "") << "Sizing plan for \"" << plan.workload_name
      << "\": " << short_number(plan.target_rate) << " " << plan.unit << "/s, utilization target "
      << short_number(plan.utilization_target) << ", N+" << plan.redundancy
      << (plan.redundancy_unit == "replicas" ? " replicas" : "") << ", "
      << short_number(plan.hours_per_month) << " h/month";
  if (plan.window_days) {
    out << ", window " << *plan.window_days << " days at busy fraction "
        << short_number(*plan.window_busy_fraction);
  }
  out << " (catalog " << plan.catalog_region << ", prices aged to " << plan.prices_checked_on
      << ")\n";
  if (!plan.restricted_to.empty()) {
    std::string only;
    for (const auto& r : plan.restricted_to) only += (only.empty() ? "" : ", ") + r;
    out << "Restricted to: " << only << "\n";
  }
  out << "\n";
  std::vector<std::vector<std::string>> rows;
  rows.push_back({"#", "type", "count", "option", "$/h", "$/month"});
  if (plan.window_days) rows.back().push_back("$ window");
  for (const char* h : {"spare", "vCPUs", "perf/$", "perf/W", "binding", "basis", "price"})
    rows.back().push_back(h);
  int rank = 0;
  for (const auto& r : plan.rows) {
    std::vector<std::string> row{
        std::to_string(++rank),
        r.instance_type + (r.mig_profile ? " [MIG " + *r.mig_profile + "]" : ""),
        std::to_string(r.cost.instances),
        r.cost.option,
        format_usd(r.cost.usd_per_hour),
        format_usd(r.cost.usd_per_month)};
    if (plan.window_days) row.push_back(r.cost.window_usd ? format_usd(*r.cost.window_usd) : "-");
    row.push_back(spare_cell(r.cost));
    row.push_back(r.cost.quota ? std::to_string(r.cost.quota->vcpus) + " " + r.cost.quota->bucket +
                                     (r.cost.quota->market == "Spot" ? " spot" : "")
                               : "-");
    row.push_back(short_number(r.cost.units_per_dollar) + " " + plan.unit + "/$");
    row.push_back(r.units_per_joule ? short_number(*r.units_per_joule) + " " + plan.unit + "/J"
                                    : "not measured");
    row.push_back(r.binding);
    row.push_back(r.label);
    row.push_back(price_label(r.cost));
    rows.push_back(std::move(row));
  }
  if (plan.rows.empty()) {
    out << "No instance type can serve this workload.\n";
  } else {
    print_table(rows, out, markdown);
  }
  list("Summary", plan.summary, out, markdown);
  if (!plan.rows.empty()) {
    const PlanRow& top = plan.rows.front();
    std::vector<std::string> reasons = top.reasons;
    reasons.push_back(
        "per replica " + short_number(top.units_per_second_per_replica) + " " + plan.unit + "/s (" +
        top.basis + "), " +
        (top.instances_per_replica > 1
             ? "a replica spans " + std::to_string(top.instances_per_replica) + " instances"
             : std::to_string(top.replicas_per_instance) + " replica(s) per instance") +
        ", binding: " + top.binding);
    {
      const OptionCost& c = top.cost;
      std::ostringstream spare;
      spare << "spare: the target needs " << c.needed_replicas
            << (c.spare_unit == "slices" ? " slice(s)" : " replica(s)") << " at utilization "
            << short_number(plan.utilization_target) << "; " << c.instances << " instance(s) hold "
            << c.needed_replicas + c.spare_replicas << ", so ";
      if (c.spare_unit == "accelerators") {
        spare << c.spare_accelerators << " accelerator(s)";
      } else if (c.spare_unit == "instances") {
        spare << c.spare_replicas << " instance(s)";
      } else {
        spare << c.spare_replicas << " slice position(s) (" << c.spare_accelerators
              << " idle GPU(s))";
      }
      spare << " are spare, " << format_usd(c.spare_usd_per_hour) << "/h";
      reasons.push_back(spare.str());
    }
    for (const auto& n : top.cost.notes) reasons.push_back(n);
    reasons.push_back("price " + exact_usd(top.cost.price.usd_per_hour) + "/h per instance (" +
                      top.cost.price.source + ", as of " + top.cost.price.as_of + ")");
    for (const auto& e : top.evidence) {
      reasons.push_back("evidence: " + e.report_file + " record " + e.record_id + " " + e.metric +
                        " " + short_number(e.value) + " " + e.unit + " (sha256 " +
                        e.report_sha256.substr(0, 12) + "...)");
    }
    if (top.mig) {
      for (std::size_t i = 0; i < top.mig->gpus.size(); ++i) {
        const auto& g = top.mig->gpus[i];
        reasons.push_back("GPU " + std::to_string(i) + ": " + g.describe() + " (stranded " +
                          std::to_string(g.stranded_compute_slices) + " compute, " +
                          std::to_string(g.stranded_memory_slices) + " memory slices)");
      }
      if (!top.mig->search_note.empty()) reasons.push_back(top.mig->search_note);
    }
    list("Why the top plan", reasons, out, markdown);
  }
  std::vector<std::string> quota_lines;
  for (const auto& q : plan.vcpu_quotas) {
    std::ostringstream line;
    line << "\"" << q.need.name << "\" (" << q.need.code << "): ";
    if (q.top_plan) line << "the top plan needs " << q.need.vcpus << " vCPUs; ";
    line << "options in the table need up to " << q.max_vcpus << " vCPUs (" << q.max_instance_type
         << ")";
    if (q.need.quota_vcpus) {
      line << "; the account's " << (q.need.aws_default ? "AWS default " : "") << "quota is "
           << *q.need.quota_vcpus;
    }
    quota_lines.push_back(line.str());
  }
  list("vCPU quotas (Service Quotas, service code ec2, " + plan.catalog_region + ")", quota_lines,
       out, markdown);
  list("Assumptions", plan.assumptions, out, markdown);
  list("Warnings", plan.warnings, out, markdown);
  std::vector<std::string> excluded;
  for (const auto& e : plan.excluded) {
    excluded.push_back(e.instance_type + (e.option.empty() ? "" : " " + e.option) + ": " +
                       e.reason);
  }
  list("Not in the table", excluded, out, markdown);
}

}  // namespace gpusizer::sizing
