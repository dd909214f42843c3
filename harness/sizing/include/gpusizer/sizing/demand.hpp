// The demand to serve (sizing::Demand), read from a workload file
// (reports/schema/workload.schema.json; not kernels::Workload, the work a benchmark runs): what
// production must sustain: a target rate, the work per unit (for a roofline estimate from
// reports) or the user's own measured rates, memory per replica, GPUs per replica, headroom,
// redundancy, hours or a reservation window, interruption tolerance and which kinds of hardware
// are allowed.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "gpusizer/json_input.hpp"
#include "gpusizer/sizing/hardware_kind.hpp"
#include "gpusizer/vocabulary.hpp"

namespace gpusizer {

// What a workload's redundancy k counts: whole instances (N+1 on p5.48xlarge is 8 spare GPUs)
// or replicas (k replicas more than the target needs, packed onto instances).
#define GPUSIZER_REDUNDANCY_UNIT_VALUES(X) X(instances, "instances") X(replicas, "replicas")
GPUSIZER_VOCABULARY(RedundancyUnit, GPUSIZER_REDUNDANCY_UNIT_VALUES)
// Whether a workload tolerates interruptions (spot capacity), and with checkpoints.
#define GPUSIZER_INTERRUPTIONS_VALUES(X) \
  X(not_tolerable, "not_tolerable")      \
  X(tolerable, "tolerable") X(tolerable_with_checkpoint, "tolerable_with_checkpoint")
GPUSIZER_VOCABULARY(Interruptions, GPUSIZER_INTERRUPTIONS_VALUES)

}  // namespace gpusizer

namespace gpusizer::sizing {

inline constexpr int kWorkloadSchemaVersion = 1;
inline constexpr double kDefaultHoursPerMonth = 730.0;  // 8760 h / 12

struct WorkPerUnit {
  double flops = 0;
  std::string dtype = "bf16";  // GEMM dtype whose throughput applies
  double device_memory_bytes = 0;
  double host_to_device_bytes = 0;
  double io_bytes = 0;
  double collective_bytes = 0;  // per unit, across the replica's GPUs
  std::string collective_operation = "all_reduce";
};

// A rate the user measured with their own software: units per second for one replica on an
// accelerator (catalog id), a MIG profile of it, or one whole CPU instance type.
struct MeasuredRate {
  std::string accelerator;                   // catalog accelerator id ("H100"), or "" for CPU
  std::optional<std::string> mig_profile;    // "1g.10gb"
  std::optional<std::string> instance_type;  // for CPU types ("c7i.4xlarge")
  double units_per_second = 0;
  std::string source;
};

struct ReservationWindow {
  int days = 0;
  double busy_fraction = 1.0;  // share of the window the capacity is actually used
};

struct Demand {
  std::string name;
  std::string source_file;
  double target_rate = 0;  // units per second
  std::string unit;        // "requests", "tokens", "samples", ...
  std::optional<WorkPerUnit> work;
  std::vector<MeasuredRate> measured_rates;
  double memory_bytes_per_replica = 0;
  std::optional<int> gpus_per_replica;  // default: as many as the memory needs
  double utilization_target = 0.7;
  int redundancy = 0;  // N+k: k
  // What k counts (RedundancyUnit). MIG rows count k in slices either way (a slice is the
  // replica).
  RedundancyUnit redundancy_unit = RedundancyUnit::instances;
  std::optional<double> hours_per_month;
  std::optional<ReservationWindow> window;
  Interruptions interruptions = Interruptions::not_tolerable;
  double interruption_overhead = 0;  // share of throughput lost to interruptions/checkpoints
  std::vector<HardwareKind> allowed;
  std::optional<double> min_rate_per_slice;  // MIG: a slice must reach this (units/s)

  bool allows(HardwareKind kind) const;
  bool spot_allowed() const { return interruptions != Interruptions::not_tolerable; }
  double hours() const;  // hours per month used for on-demand / spot costs
};

Demand demand_from_json(const JsonInput& in);
Demand load_demand(const std::filesystem::path& file);

struct Catalog;
// Checks the names a workload uses against the catalog: every measured rate's accelerator,
// MIG profile (of that accelerator) and instance type must exist, else a typo would silently
// drop the user's own rate. Throws InputError "<file>: /measured_rates/<i>/<field>: ...".
void check_demand_names(const Demand& demand, const Catalog& catalog);

}  // namespace gpusizer::sizing
