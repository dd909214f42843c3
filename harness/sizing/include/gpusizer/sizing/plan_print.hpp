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

std::string format_usd(double usd);  // "$1,234.56"
std::string exact_usd(double usd);   // a catalog price as given: "$39.33", "$0.8048"
// The price column of a plan row: "2026-07-20", "2025-06 illustrative stale", "... undated".
std::string price_label(const OptionCost& cost);
// "measured", "scaled" or "estimated", then "illustrative", "stale", "undated" as they apply.
std::vector<std::string> row_labels(const PlanRow& row);
// What the plan says under "Why the top plan" (the top row's reasons, its per-replica rate,
// spare capacity, price, evidence and MIG layout) and under "vCPU quotas", one line each:
// composed apart from printing. Empty when the plan has no row / no quota.
std::vector<std::string> top_plan_reasons(const Plan& plan);
std::vector<std::string> quota_lines(const Plan& plan);
void print_plan(const Plan& plan, std::ostream& out, bool markdown);
// "Combined MIG packing on H200: 3 GPU(s), ..." with each workload's slices, the GPU layouts and
// the on-demand cost of each instance type that holds them.
void print_combined_mig(const std::vector<CombinedMigPacking>& combined, std::ostream& out,
                        bool markdown);

}  // namespace gpusizer::sizing
