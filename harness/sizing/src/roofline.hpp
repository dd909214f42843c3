// Internal: per-replica rate of a workload on one device from measured (or estimated) rates.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpusizer/sizing/capability.hpp"
#include "gpusizer/sizing/catalog.hpp"
#include "gpusizer/sizing/demand.hpp"
#include "gpusizer/sizing/engine.hpp"
#include "gpusizer/vocabulary.hpp"

namespace gpusizer {

// What bounds a workload's rate in the roofline: one term per WorkPerUnit amount; the names are
// the ones plans print (binding resource, estimate notes).
#define GPUSIZER_ROOFLINE_RESOURCE_VALUES(X) \
  X(compute, "compute")                      \
  X(memory_bandwidth, "memory bandwidth")    \
  X(host_link, "host link") X(io, "I/O") X(collectives, "collectives")
GPUSIZER_VOCABULARY(RooflineResource, GPUSIZER_ROOFLINE_RESOURCE_VALUES)

}  // namespace gpusizer

namespace gpusizer::sizing::detail {

struct RooflineResult {
  bool ok = false;
  std::string why;  // when !ok
  double units_per_second = 0;
  std::string binding;
  bool estimated = false;
  std::vector<std::string> estimate_notes;
  std::vector<Evidence> evidence;
  std::optional<double> binding_power_watts;  // measured board power of the binding record
};

// `device` may be null (no report for this accelerator): every term is then estimated from
// `peaks` x efficiency. `scale` multiplies compute, memory-bandwidth and host-link rates (g GPUs
// per replica, or the vCPU ratio for CPUs); I/O and collectives rates are used as measured.
// A replica spanning `instances_per_replica` > 1 instances adds the term "collectives
// (inter-node)": busbw measured across hosts (a fleet report), else the instance's network
// bandwidth (`network_bytes_per_second`, catalog) x defaults.inter_node_collectives, estimated;
// the node's own collectives term is then named "collectives (intra-node)".
RooflineResult roofline(const WorkPerUnit& work, const DeviceCapability* device,
                        const DatasheetPeaks* peaks, double scale, const CapabilityTable& table,
                        const Catalog& catalog, const DefaultEfficiency& defaults,
                        int instances_per_replica = 1, double network_bytes_per_second = 0);

}  // namespace gpusizer::sizing::detail
