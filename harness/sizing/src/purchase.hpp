// Internal: costs of one instance count under each purchase option of an instance type.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "gpusizer/sizing/engine.hpp"

namespace gpusizer::sizing::detail {

// ceil(target / (rate x utilization x (1 - loss))): replicas (or MIG slices) the target needs,
// before redundancy.
int replicas_needed(const Demand& workload, double per_replica_rate, double loss);

// Instances for N+k: "instances" unit: ceil(needed / replicas per instance) + k; "replicas"
// unit: ceil((needed + k) / replicas per instance).
int instances_needed(const Demand& workload, double per_replica_rate, int replicas_per_instance,
                     double loss);

// How a type's capacity turns into a count and spare capacity.
struct CountModel {
  double per_replica_rate = 0;
  int replicas_per_instance = 1;
  int accelerators_per_replica = 0;  // g; 0 for CPU types
  int instances_per_replica = 1;     // > 1: a replica spans instances (count and spare given)
  // MIG: instances for a loss (default: instances_needed) and its own spare figures.
  std::function<int(double loss)> count;
  std::function<void(OptionCost& cost, double loss)> spare;
};

// One OptionCost per priced option that applies; the rest go to `excluded` with the reason.
std::vector<OptionCost> price_options(const InstanceTypeInfo& type, const Demand& workload,
                                      const CountModel& model, const EngineOptions& options,
                                      const std::string& region, std::vector<Excluded>& excluded);

// today - as_of in days (nullopt when as_of names no day), and the day used for "today".
std::int64_t today_of(const EngineOptions& options);
std::optional<int> price_age_days(const Price& price, std::int64_t today);

}  // namespace gpusizer::sizing::detail
