// Internal: costs of one instance count under each purchase option of an instance type.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "gpusizer/sizing/engine.hpp"

namespace gpusizer::sizing::detail {

// ceil(target / (per_instance_rate x utilization x (1 - loss))) + redundancy.
int instances_needed(const Workload& workload, double per_instance_rate, double loss);

// `count(loss)` gives the instances needed when a share `loss` of throughput is lost (default:
// instances_needed). One OptionCost per priced option that applies; the rest go to `excluded` with
// the reason.
std::vector<OptionCost> price_options(const InstanceTypeInfo& type, const Workload& workload,
                                      double per_instance_rate, const EngineOptions& options,
                                      std::vector<Excluded>& excluded,
                                      const std::function<int(double loss)>& count = {});

}  // namespace gpusizer::sizing::detail
