// Several workloads on one accelerator model: each workload's smallest MIG profile and slice
// count (choose_mig_profile), packed together onto as few GPUs as possible, and the instances of
// each type that hold those GPUs. Computed here; printed by plan_print, written by to_json.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusizer/sizing/capability.hpp"
#include "gpusizer/sizing/catalog.hpp"
#include "gpusizer/sizing/demand.hpp"
#include "gpusizer/sizing/mig.hpp"

namespace gpusizer::sizing {

struct CombinedMigPacking {
  struct Choice {
    std::string workload;
    std::string profile;
    int slices = 0;
  };
  struct Instances {
    std::string instance_type;
    int instances = 0;                             // ceil(GPUs / accelerators per instance)
    std::optional<double> on_demand_usd_per_hour;  // instances x the on-demand price, if any
  };
  std::string accelerator;
  std::vector<Choice> workloads;  // in the order given
  MigPacking packing;
  std::vector<Instances> instance_types;  // catalog order
};

// One entry per accelerator with MIG profiles on which every workload allows MIG and has a
// qualifying profile; accelerators in catalog order.
std::vector<CombinedMigPacking> combine_mig(const std::vector<Demand>& workloads,
                                            const CapabilityTable& table, const Catalog& catalog);

nlohmann::json to_json(const CombinedMigPacking& combined);

}  // namespace gpusizer::sizing
