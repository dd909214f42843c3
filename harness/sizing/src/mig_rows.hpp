// The MIG part of the sizing engine (engine.cpp): which MIG profile serves one replica
// (choose_mig_profile, public in engine.hpp) and the plan rows of an instance type whose GPUs are
// partitioned into that profile, packed onto as few GPUs as possible.
#pragma once

#include <optional>
#include <string>

#include "gpusizer/sizing/engine.hpp"

namespace gpusizer::sizing::detail {

// The rate the user measured themselves for this instance type, or for this accelerator (and MIG
// profile), from the workload's measured_rates; null when there is none.
const MeasuredRate* user_rate(const Demand& w, const std::string& accelerator,
                              const std::optional<std::string>& mig_profile,
                              const std::string& instance_type);

// Adds the priced rows of `type` with its GPUs partitioned into `choice` to `plan` (its
// exclusions too).
void add_mig_rows(const InstanceTypeInfo& type, const Accelerator& acc, const MigChoice& choice,
                  const Demand& w, const EngineOptions& options, const std::string& region,
                  Plan& plan);

}  // namespace gpusizer::sizing::detail
