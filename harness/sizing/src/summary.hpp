// Internal: the plan's plain sentences (summary), its vCPU quota table and the warnings about
// prices (stale, undated, missing in the region), written after the rows are ranked.
#pragma once

#include "gpusizer/sizing/engine.hpp"

namespace gpusizer::sizing::detail {

void write_summary(Plan& plan, const Demand& workload, const CapabilityTable& table,
                   const Catalog& catalog, const EngineOptions& options, bool cpu_used);

}  // namespace gpusizer::sizing::detail
