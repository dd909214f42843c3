// Printers for a plan: a ranked text table or Markdown (for a ticket), then the top plan's
// reasons and assumptions. Money is rounded to the cent for display only.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "gpusizer/sizing/plan.hpp"

namespace gpusizer::sizing {

std::string format_usd(double usd);  // "$1,234.56"
std::string exact_usd(double usd);   // a catalog price as given: "$39.33", "$0.8048"
// The price column of a plan row: "2026-07-20", "2025-06 illustrative stale", "... undated".
std::string price_label(const OptionCost& cost);
// "measured", "scaled" or "estimated", then "illustrative", "stale", "undated" as they apply.
std::vector<std::string> row_labels(const PlanRow& row);
void print_plan(const Plan& plan, std::ostream& out, bool markdown);

}  // namespace gpusizer::sizing
