// The sizing engine: demand (a workload file) + capability table + catalog -> ranked plan. Pure
// arithmetic on reports already read; never touches a device.
//
// Per instance type: gpus_per_replica g (given, or ceil(memory / usable memory per
// accelerator)), replicas = floor(accelerators / g); per-replica rate = 1 / max(t_i) over the
// roofline terms t_compute = FLOP / (g F), t_memory = bytes / (g B), t_host = h2d / (g H),
// t_io = io_bytes / IO, t_collectives = collective_bytes / busbw; instances =
// ceil(target / (per_instance_rate x utilization)) + k. See docs/sizing.md.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "gpusizer/sizing/capability.hpp"
#include "gpusizer/sizing/catalog.hpp"
#include "gpusizer/sizing/demand.hpp"
#include "gpusizer/sizing/plan.hpp"
#include "gpusizer/sizing/quota.hpp"

namespace gpusizer::sizing {

// Efficiencies used to estimate unmeasured accelerators when no measured device offers one.
struct DefaultEfficiency {
  double compute = 0.7;
  double memory_bandwidth = 0.8;
  double host_link = 0.8;
  double collectives = 0.75;
  // Busbw of a collective between instances as a fraction of the catalog's network bandwidth,
  // when no multi-node report measured it (2-node all_reduce on p5: 466 GB/s busbw on 400 GB/s of
  // EFA; p4d: 57 GB/s on 2 nodes, 30 on 4, on 50: it falls with the node count).
  double inter_node_collectives = 0.6;
};

// GPU memory a replica may use when no report measured the accelerator: the catalog figure
// minus this reserve for the CUDA context and driver (measured: an H100 reports 79.65 GiB of its
// 80 GiB, an H200 139.8 GiB of 141 GiB, and the context takes a few hundred MiB more).
inline constexpr double kCudaContextReserveMiB = 1536.0;

struct EngineOptions {
  std::optional<int> max_instances;
  DefaultEfficiency default_efficiency;
  std::optional<std::int64_t> today;      // days since 1970-01-01; default: the system clock (UTC)
  int max_price_age_days = 90;            // older prices are marked stale and warned about
  const AccountQuotas* quotas = nullptr;  // the account's vCPU quotas (--quotas), if given
};

// Usable memory per accelerator for the fit: the smallest measured (a report's target memory,
// CUDA totalGlobalMem) when a report has this accelerator, else the catalog figure minus
// kCudaContextReserveMiB for GPUs (the catalog figure for Neuron devices). `basis` says which.
double usable_accelerator_memory(const InstanceTypeInfo& type, const Accelerator& accelerator,
                                 const CapabilityTable& table, std::string& basis);

// Capacity-block rules (EC2 docs): 1..14 days in 1-day steps, then 7-day steps up to 182;
// 1, 2, 4, ..., 64 instances per block, at most 256 across blocks.
// Billed days for a wanted duration (rounded up to a valid one), nullopt above 182.
std::optional<int> capacity_block_days(int wanted_days);
// Block sizes for `instances` (largest first), empty when more than 256.
std::vector<int> capacity_block_split(int instances);

struct MigChoice {
  MigProfile profile;
  double memory_bytes = 0;   // usable memory of the profile the fit used
  std::string memory_basis;  // measured, or catalog minus the CUDA context reserve
  double units_per_second_per_slice = 0;
  int slices = 0;
  std::string binding;
  std::vector<Evidence> evidence;
  std::optional<double> units_per_joule;
  std::string basis;
  MeasurementSpread spread;  // the rate per slice at the p5/p95 of the measured samples
};
// The smallest MIG profile of `accelerator` that holds a replica and meets
// demand.min_rate_per_slice, with the slices the target needs; nullopt with `why` otherwise.
std::optional<MigChoice> choose_mig_profile(const Demand& demand, const Accelerator& accelerator,
                                            const CapabilityTable& table, std::string& why);

Plan make_plan(const Demand& demand, const CapabilityTable& table, const Catalog& catalog,
               const EngineOptions& options);

}  // namespace gpusizer::sizing
