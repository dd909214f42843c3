// The plan: ranked options (instance type x count x purchase option, or MIG profile x slices x
// GPUs x instances) with cost, perf/$, perf/W, binding resource, and the evidence behind each
// figure (reports/schema/plan.schema.json).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusizer/sizing/capability.hpp"
#include "gpusizer/sizing/catalog.hpp"
#include "gpusizer/sizing/demand.hpp"
#include "gpusizer/sizing/mig.hpp"
#include "gpusizer/sizing/quota.hpp"

namespace gpusizer {

// How a plan row's figure was obtained (vocabulary.hpp): measured (this accelerator or instance
// type measured, or a user-measured rate), scaled (a CPU measured on another machine, scaled per
// vCPU) or estimated (datasheet peaks). Only measured rows rank in the first group.
#define GPUSIZER_PLAN_LABEL_VALUES(X) \
  X(measured, "measured") X(scaled, "scaled") X(estimated, "estimated")
GPUSIZER_VOCABULARY(PlanLabel, GPUSIZER_PLAN_LABEL_VALUES)
// What an option's spare capacity is counted in: accelerators, instances (CPU types) or MIG
// slices.
#define GPUSIZER_SPARE_UNIT_VALUES(X) \
  X(accelerators, "accelerators") X(instances, "instances") X(slices, "slices")
GPUSIZER_VOCABULARY(SpareUnit, GPUSIZER_SPARE_UNIT_VALUES)

}  // namespace gpusizer

namespace gpusizer::sizing {

inline constexpr int kPlanSchemaVersion = 1;

// When a Capacity Block runs (EC2 rules, reference/aws-cli-and-quotas.md): every block ends at
// 11:30 UTC and EC2 starts terminating its instances 30 minutes before the end, so the hours a
// job can use are the billed hours less half an hour. With an imported offering, its own start
// and end (as AWS printed them) and the moment termination starts.
inline constexpr const char* kCapacityBlockEndUtc = "11:30";
inline constexpr int kCapacityBlockTerminationMinutes = 30;

struct BlockSchedule {
  std::string start;               // offering StartDate ("" without an offering)
  std::string end;                 // offering EndDate ("" without an offering)
  std::string termination_starts;  // end - 30 min, UTC ("" without an offering)
  double billed_hours = 0;         // billed days x 24
  double usable_hours = 0;         // billed hours - 0.5
};

struct OptionCost {
  std::string option;                // purchase option
  int instances = 0;                 // spot may need more (interruption overhead)
  double usd_per_hour = 0;           // all instances
  double usd_per_month = 0;          // on-demand/spot: x hours used; committed options: x 730
  std::optional<double> window_usd;  // cost over the reservation window, when one is given
  std::optional<double> on_demand_window_usd;      // on-demand for the same busy hours
  std::optional<double> break_even_busy_fraction;  // reservation price / on-demand price
  std::optional<int> billed_days;                  // capacity block duration after the rules
  std::vector<int> blocks;                         // capacity block sizes (instances per block)
  std::optional<BlockSchedule> block_schedule;     // capacity blocks with a window
  double units_per_dollar = 0;                     // perf/$ at full load
  Price price;                                     // per-instance price with source and date
  std::optional<int> price_age_days;               // today - as_of (nullopt: undated)
  bool price_stale = false;                        // older than EngineOptions::max_price_age_days
  // Capacity beyond what the target needs at the utilization target (after interruption loss):
  // needed_replicas = ceil(target / (rate per replica x utilization x (1 - loss))).
  int needed_replicas = 0;        // MIG: slices
  int spare_replicas = 0;         // provisioned replicas (slice positions) - needed
  int spare_accelerators = 0;     // GPU/Neuron types: paid accelerators not needed; MIG: idle
                                  // whole GPUs; CPU types: 0
  double spare_usd_per_hour = 0;  // what the spare capacity costs per hour
  SpareUnit spare_unit = SpareUnit::accelerators;
  std::optional<QuotaNeed> quota;  // EC2 vCPU quota this option needs (on-demand, spot, ...)
  std::vector<std::string> notes;
};

struct PlanRow {
  std::string instance_type;
  HardwareKind kind = HardwareKind::gpu;
  std::string accelerator;  // catalog id or CPU model
  std::optional<std::string> mig_profile;
  bool estimated = false;
  PlanLabel label = PlanLabel::measured;
  std::string basis;  // "measured (reports)", "user-measured rate", "estimated: ..."
  double memory_per_accelerator_bytes = 0;  // usable memory the fit used (0 for CPU types)
  std::string memory_basis;                 // measured usable memory, or catalog minus reserve
  int gpus_per_replica = 0;
  int replicas_per_instance = 0;  // MIG: slices per instance; 0 when a replica spans instances
  int instances_per_replica = 1;  // ceil(gpus_per_replica / accelerators per instance)
  double units_per_second_per_replica = 0;
  double units_per_second_per_instance = 0;
  std::string binding;  // compute | memory bandwidth | host link | I/O | collectives | memory
                        // capacity | user-measured rate
  std::optional<double> units_per_joule;  // perf/W: units per joule of accelerator board power
  std::string power_note;
  std::vector<Evidence> evidence;
  std::vector<std::string> reasons;
  std::optional<MigPacking> mig;
  int mig_slices = 0;
  OptionCost cost;
  MeasurementSpread spread;  // ranges from the measured samples (spread.hpp)
  double rank_usd = 0;       // window cost when a window is given, else monthly cost
};

struct Excluded {
  std::string instance_type;
  std::string option;  // empty: the whole type
  std::string reason;
  int instances_needed = 0;  // > 0 when excluded only by --max-instances
};

// vCPUs the options need of one EC2 quota (the top plan's need, and the most any option needs).
struct QuotaSummary {
  QuotaNeed need;         // the top plan's need when it uses this quota, else the largest
  bool top_plan = false;  // need.vcpus is the top plan's
  int max_vcpus = 0;      // the most any option in the table needs of this quota
  std::string max_instance_type;
};

// A report the plan rests on, with what a capacity request cites of it: where and when it was
// measured, with which suite and gpusizer version.
struct ReportUsed {
  std::string file;
  std::string sha256;
  std::string tool_version;
  std::string hostname;
  std::string instance_type;  // "" when the report's host did not know it
  std::string suite;
  std::string started_at;    // the run's start (ISO 8601)
  bool verified = false;     // gpusizer verify's verdict
  std::string verification;  // "verified", or its first failed finding
};
// "Reports verified: 1 of 2 (b.json: record chain: ...)": the one line the text plan gives.
std::string reports_verified_line(const std::vector<ReportUsed>& reports);

struct Plan {
  std::string workload_name;
  std::string workload_file;
  std::string unit;
  double target_rate = 0;
  double utilization_target = 0;
  int redundancy = 0;
  RedundancyUnit redundancy_unit = RedundancyUnit::instances;
  double hours_per_month = 0;
  std::optional<int> window_days;
  std::optional<double> window_busy_fraction;
  std::string catalog_file;
  std::string catalog_region;
  std::vector<std::string> overlays;
  std::vector<std::string> restricted_to;  // --instance-types / --families, as given
  std::string prices_checked_on;           // the day price ages are counted to (YYYY-MM-DD)
  std::string tool_version;                // the gpusizer that made the plan: "0.4.0 (abc1234)"
  int max_price_age_days = 90;
  std::vector<ReportUsed> reports;
  std::vector<QuotaSummary> vcpu_quotas;
  std::vector<PlanRow> rows;  // measured first, then estimated; each group by cost
  std::vector<Excluded> excluded;
  std::vector<std::string> assumptions;
  std::vector<std::string> warnings;
  std::vector<std::string> summary;  // plain sentences: the top plan, CPU verdict, edge cases
};

nlohmann::json to_json(const Plan& plan);

}  // namespace gpusizer::sizing
