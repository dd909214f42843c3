// Printers for a plan: a ranked text table or Markdown (for a ticket), then the top plan's
// reasons and assumptions. Money is rounded to the cent for display only.
#pragma once

#include <ostream>
#include <string>

#include "gpusizer/sizing/plan.hpp"

namespace gpusizer::sizing {

std::string format_usd(double usd);  // "$1,234.56"
void print_plan(const Plan& plan, std::ostream& out, bool markdown);

}  // namespace gpusizer::sizing
