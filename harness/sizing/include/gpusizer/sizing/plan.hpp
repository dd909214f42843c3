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
#include "gpusizer/sizing/mig.hpp"

namespace gpusizer::sizing {

inline constexpr int kPlanSchemaVersion = 1;

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
  double units_per_dollar = 0;                     // perf/$ at full load
  Price price;                                     // per-instance price with source and date
  std::vector<std::string> notes;
};

struct PlanRow {
  std::string instance_type;
  std::string kind;         // "gpu" | "mig" | "cpu" | "inferentia" | "trainium"
  std::string accelerator;  // catalog id or CPU model
  std::optional<std::string> mig_profile;
  bool estimated = false;
  std::string basis;  // "measured (reports)", "user-measured rate", "estimated: ..."
  int gpus_per_replica = 0;
  int replicas_per_instance = 0;  // MIG: slices per instance
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
  double rank_usd = 0;  // window cost when a window is given, else monthly cost
};

struct Excluded {
  std::string instance_type;
  std::string option;  // empty: the whole type
  std::string reason;
  int instances_needed = 0;  // > 0 when excluded only by --max-instances
};

struct ReportUsed {
  std::string file;
  std::string sha256;
  std::string tool_version;
};

struct Plan {
  std::string workload_name;
  std::string workload_file;
  std::string unit;
  double target_rate = 0;
  double utilization_target = 0;
  int redundancy = 0;
  double hours_per_month = 0;
  std::optional<int> window_days;
  std::optional<double> window_busy_fraction;
  std::string catalog_file;
  std::string catalog_region;
  std::vector<std::string> overlays;
  std::vector<ReportUsed> reports;
  std::vector<PlanRow> rows;  // measured first, then estimated; each group by cost
  std::vector<Excluded> excluded;
  std::vector<std::string> assumptions;
  std::vector<std::string> warnings;
  std::vector<std::string> summary;  // plain sentences: the top plan, CPU verdict, edge cases
};

nlohmann::json to_json(const Plan& plan);

}  // namespace gpusizer::sizing
