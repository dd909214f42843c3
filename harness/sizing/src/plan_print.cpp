#include "gpusizer/sizing/plan_print.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

#include "gpusizer/printers.hpp"
#include "gpusizer/table.hpp"
#include "gpusizer/text.hpp"
#include "uncertainty.hpp"  // measurement spread lines (spread_print.cpp)

namespace gpusizer::sizing {
namespace {

std::string spare_cell(const OptionCost& c) {
  const int n = c.spare_unit == SpareUnit::accelerators ? c.spare_accelerators : c.spare_replicas;
  if (n == 0) return "0";
  const std::string unit = c.spare_unit == SpareUnit::accelerators ? " acc"
                           : c.spare_unit == SpareUnit::instances  ? " inst"
                                                                   : " slices";
  return std::to_string(n) + unit + " " + format_usd(c.spare_usd_per_hour) + "/h";
}

void list(const std::string& title, const std::vector<std::string>& items, std::ostream& out,
          bool markdown) {
  if (items.empty()) return;
  out << "\n" << (markdown ? "### " : "") << title << (markdown ? "\n\n" : ":\n");
  for (const auto& i : items) out << (markdown ? "- " : "  - ") << escape_control(i) << "\n";
}

// The ranked options, one row each.
Table plan_table(const Plan& plan) {
  std::vector<std::string> headers{"#", "type", "count", "option", "$/h", "$/month"};
  if (plan.window_days) {
    headers.push_back("$ window");
    headers.push_back("break-even");
  }
  for (const char* h : {"spare", "vCPUs", "perf/$", "perf/W", "binding", "basis", "price"})
    headers.push_back(h);
  Table table(headers, TableLayout::padded);
  int rank = 0;
  for (const auto& r : plan.rows) {
    std::vector<std::string> row{
        std::to_string(++rank),
        r.instance_type + (r.mig_profile ? " [MIG " + *r.mig_profile + "]" : ""),
        std::to_string(r.cost.instances),
        r.cost.option,
        format_usd(r.cost.usd_per_hour),
        format_usd(r.cost.usd_per_month)};
    if (plan.window_days) {
      row.push_back(r.cost.window_usd ? format_usd(*r.cost.window_usd) : "-");
      row.push_back(r.cost.break_even_busy_fraction
                        ? short_number(*r.cost.break_even_busy_fraction) + " busy"
                        : "-");
    }
    row.push_back(spare_cell(r.cost));
    row.push_back(r.cost.quota ? std::to_string(r.cost.quota->vcpus) + " " + r.cost.quota->bucket +
                                     (r.cost.quota->market == "Spot" ? " spot" : "")
                               : "-");
    row.push_back(short_number(r.cost.units_per_dollar) + " " + plan.unit + "/$");
    row.push_back(r.units_per_joule ? short_number(*r.units_per_joule) + " " + plan.unit + "/J"
                                    : "not measured");
    row.push_back(r.binding);
    row.emplace_back(to_string(r.label));
    row.push_back(price_label(r.cost));
    table.add_row(std::move(row));
  }
  return table;
}

}  // namespace

std::string price_label(const OptionCost& cost) {
  std::string out = cost.price.as_of;
  if (cost.price.illustrative) out += " illustrative";
  if (cost.price_stale) out += " stale";
  if (!cost.price_age_days) out += " undated";
  return out;
}

std::vector<std::string> row_labels(const PlanRow& row) {
  std::vector<std::string> out{std::string(to_string(row.label))};
  if (row.cost.price.illustrative) out.push_back("illustrative");
  if (row.cost.price_stale) out.push_back("stale");
  if (!row.cost.price_age_days) out.push_back("undated");
  return out;
}

std::vector<std::string> top_plan_reasons(const Plan& plan) {
  if (plan.rows.empty()) return {};
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
          << (c.spare_unit == SpareUnit::slices ? " slice(s)" : " replica(s)") << " at utilization "
          << short_number(plan.utilization_target) << "; " << c.instances << " instance(s) hold "
          << c.needed_replicas + c.spare_replicas << ", so ";
    if (c.spare_unit == SpareUnit::accelerators) {
      spare << c.spare_accelerators << " accelerator(s)";
    } else if (c.spare_unit == SpareUnit::instances) {
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
                      " " + format_value(e.value, e.unit) + " (sha256 " +
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
  return reasons;
}

std::vector<std::string> quota_lines(const Plan& plan) {
  std::vector<std::string> lines;
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
    lines.push_back(line.str());
  }
  return lines;
}

void print_plan(const Plan& plan, std::ostream& out, bool markdown) {
  const auto e = [](const std::string& text) { return escape_control(text); };
  out << (markdown ? "## " : "") << "Sizing plan for \"" << e(plan.workload_name)
      << "\": " << short_number(plan.target_rate) << " " << e(plan.unit)
      << "/s, utilization target " << short_number(plan.utilization_target) << ", N+"
      << plan.redundancy << (plan.redundancy_unit == RedundancyUnit::replicas ? " replicas" : "")
      << ", " << short_number(plan.hours_per_month) << " h/month";
  if (plan.window_days) {
    out << ", window " << *plan.window_days << " days at busy fraction "
        << short_number(*plan.window_busy_fraction);
  }
  out << " (catalog " << e(plan.catalog_region) << ", prices aged to " << e(plan.prices_checked_on)
      << ")\n";
  if (!plan.restricted_to.empty()) out << "Restricted to: " << e(join(plan.restricted_to)) << "\n";
  if (!plan.reports.empty()) out << e(reports_verified_line(plan.reports)) << "\n";
  out << "\n";
  if (plan.rows.empty()) {
    out << "No instance type can serve this workload.\n";
  } else {
    plan_table(plan).render(out, markdown ? TextFormat::md : TextFormat::table);
  }
  list("Summary", plan.summary, out, markdown);
  list("Reservation window", window_lines(plan), out, markdown);
  list("Why the top plan", top_plan_reasons(plan), out, markdown);
  list("Measurement spread (p5-p95 of the samples)", detail::spread_lines(plan), out, markdown);
  list("vCPU quotas (Service Quotas, service code ec2, " + e(plan.catalog_region) + ")",
       quota_lines(plan), out, markdown);
  list("Assumptions", plan.assumptions, out, markdown);
  list("Warnings", plan.warnings, out, markdown);
  std::vector<std::string> excluded;
  for (const auto& g : excluded_groups(plan)) excluded.push_back(describe(g));
  list("Not in the table (" + std::to_string(plan.excluded.size()) + " options, by family)",
       excluded, out, markdown);
}

void print_combined_mig(const std::vector<CombinedMigPacking>& combined, std::ostream& out,
                        bool markdown) {
  const auto e = [](const std::string& text) { return escape_control(text); };
  for (const auto& c : combined) {
    out << "\n"
        << (markdown ? "### " : "") << "Combined MIG packing on " << e(c.accelerator) << ": "
        << c.packing.gpus.size() << " GPU(s), stranded " << c.packing.stranded_compute_slices
        << " compute / " << c.packing.stranded_memory_slices << " memory slices\n";
    for (const auto& w : c.workloads) {
      out << "  - " << e(w.workload) << ": " << w.slices << " x " << e(w.profile) << "\n";
    }
    for (std::size_t i = 0; i < c.packing.gpus.size(); ++i) {
      out << "  - GPU " << i << ": " << e(c.packing.gpus[i].describe()) << "\n";
    }
    for (const auto& t : c.instance_types) {
      if (!t.on_demand_usd_per_hour) continue;
      out << "  - " << t.instances << " x " << e(t.instance_type) << " on_demand "
          << format_usd(*t.on_demand_usd_per_hour) << "/h\n";
    }
  }
}

std::string reports_verified_line(const std::vector<ReportUsed>& reports) {
  std::size_t verified = 0;
  std::vector<std::string> not_verified;
  for (const auto& r : reports) {
    if (r.verified) {
      ++verified;
    } else {
      not_verified.push_back(r.file + ": " + r.verification);
    }
  }
  std::string line = "Reports verified (gpusizer verify): " + std::to_string(verified) + " of " +
                     std::to_string(reports.size());
  if (!not_verified.empty()) line += "; not verified: " + join(not_verified, "; ");
  return line;
}

}  // namespace gpusizer::sizing
