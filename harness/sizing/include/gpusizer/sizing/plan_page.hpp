// `gpusizer recommend … --format html`: the plan as one self-contained page for a spending
// approver — the answer first, a perf/$ chart of the ranked options (estimates visibly apart),
// for a reservation window the cost against the busy fraction with the break-even marked, MIG
// layouts drawn slice by slice, the evidence, and the excluded options folded by family.
#pragma once

#include <ostream>
#include <vector>

#include "gpusizer/sizing/plan.hpp"

namespace gpusizer::sizing {

void print_plan_page(const std::vector<Plan>& plans, std::ostream& out);

}  // namespace gpusizer::sizing
