// Printers for a plan: a ranked text table or Markdown (for a ticket, through the core Table in
// its padded layout), then the top plan's reasons and assumptions. Money is rounded to the cent
// for display only. Text from the catalog, workload or reports is escaped (escape_control).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "gpusizer/sizing/combined_mig.hpp"
#include "gpusizer/sizing/plan.hpp"

namespace gpusizer::sizing {

// Money and numbers come from text.hpp (format_usd, exact_usd, short_number): one format.
// The price column of a plan row: "2026-07-20", "2025-06 illustrative stale", "... undated".
std::string price_label(const OptionCost& cost);
// "measured", "scaled" or "estimated", then "illustrative", "stale", "undated" as they apply.
std::vector<std::string> row_labels(const PlanRow& row);
// What the plan says under "Why the top plan" (the top row's reasons, its per-replica rate,
// spare capacity, price, evidence and MIG layout) and under "vCPU quotas", one line each:
// composed apart from printing. Empty when the plan has no row / no quota.
std::vector<std::string> top_plan_reasons(const Plan& plan);
std::vector<std::string> quota_lines(const Plan& plan);
// "Reservation window": the window's hours and how each option is paid over it, each
// reservation row's window cost against on-demand for the same busy hours and its break-even
// busy fraction, and the Capacity Block rules (block end at 11:30 UTC, termination 30 minutes
// earlier, the offering's own start and end). Empty without a reservation window.
std::vector<std::string> window_lines(const Plan& plan);
// "Not in the table", folded: one entry per family, purchase option and reason, with the
// instance types it covers ("g4dn (xlarge, 2xlarge, ...): a replica needs ...").
struct ExcludedGroup {
  std::string family;  // "g4dn" (the type before its first '.'), "MIG H100"
  std::string option;  // "" when whole types are excluded
  std::string reason;
  std::vector<std::string> instance_types;
};
std::vector<ExcludedGroup> excluded_groups(const Plan& plan);
std::string describe(const ExcludedGroup& group);
// The header a capacity request needs, first in Markdown: date, gpusizer version, workload,
// catalog and, per report, host, instance type, suite, date and gpusizer version.
void print_plan_header(const std::vector<Plan>& plans, std::ostream& out);
void print_plan(const Plan& plan, std::ostream& out, bool markdown);
// `--format csv`: one row per ranked option of every plan (RFC 4180), numbers as plain numbers
// (text.hpp plain_number: no separators, no exponent, no "$") with the unit in the column name or
// its own column, so a spreadsheet reads them as numbers.
void print_plan_csv(const std::vector<Plan>& plans, std::ostream& out);
// "Combined MIG packing on H200: 3 GPU(s), ..." with each workload's slices, the GPU layouts and
// the on-demand cost of each instance type that holds them.
void print_combined_mig(const std::vector<CombinedMigPacking>& combined, std::ostream& out,
                        bool markdown);

}  // namespace gpusizer::sizing
