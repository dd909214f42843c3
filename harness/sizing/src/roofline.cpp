#include "roofline.hpp"
#include "gpusizer/printers.hpp"
#include "gpusizer/text.hpp"

#include <cmath>
#include <sstream>

namespace gpusizer::sizing::detail {
namespace {

using PeakOf = std::optional<double> (*)(const DatasheetPeaks&, const std::string&);

std::optional<double> peak_flops(const DatasheetPeaks& p, const std::string& dtype) {
  auto it = p.flops_per_second.find(dtype);
  // Reports name the FP8 GEMM "fp8_e4m3"; datasheets (and the catalog) say "fp8".
  if (it == p.flops_per_second.end() && dtype.rfind("fp8", 0) == 0) {
    it = p.flops_per_second.find("fp8");
  }
  if (it == p.flops_per_second.end()) return std::nullopt;
  return it->second;
}
std::optional<double> peak_memory(const DatasheetPeaks& p, const std::string&) {
  return p.memory_bandwidth_bytes_per_second;
}
std::optional<double> peak_host(const DatasheetPeaks& p, const std::string&) {
  return p.host_link_bytes_per_second;
}
std::optional<double> peak_interconnect(const DatasheetPeaks& p, const std::string&) {
  return p.interconnect_bytes_per_second;
}

const ResourceRate* measured(const DeviceCapability& d, RooflineResource resource,
                             const std::string& key) {
  switch (resource) {
    case RooflineResource::compute: {
      auto it = d.flops.find(key);
      return it == d.flops.end() ? nullptr : &it->second;
    }
    case RooflineResource::memory_bandwidth:
      return d.memory_bandwidth ? &*d.memory_bandwidth : nullptr;
    case RooflineResource::host_link:
      return d.host_link ? &*d.host_link : nullptr;
    case RooflineResource::io:
      return d.io ? &*d.io : nullptr;
    case RooflineResource::collectives: {
      auto it = d.collectives.find(key);
      return it == d.collectives.end() ? nullptr : &it->second;
    }
  }
  return nullptr;
}

PeakOf peak_for(RooflineResource resource) {
  switch (resource) {
    case RooflineResource::compute:
      return peak_flops;
    case RooflineResource::memory_bandwidth:
      return peak_memory;
    case RooflineResource::host_link:
      return peak_host;
    case RooflineResource::collectives:
      return peak_interconnect;
    case RooflineResource::io:
      return nullptr;  // I/O has no datasheet figure
  }
  return nullptr;
}

double default_for(RooflineResource resource, const DefaultEfficiency& d) {
  switch (resource) {
    case RooflineResource::compute:
      return d.compute;
    case RooflineResource::memory_bandwidth:
      return d.memory_bandwidth;
    case RooflineResource::host_link:
      return d.host_link;
    case RooflineResource::io:
    case RooflineResource::collectives:
      return d.collectives;
  }
  return d.collectives;
}

// Compute, memory bandwidth and host link add up over a replica's GPUs (or vCPUs); I/O and
// collectives are measured for the whole group already.
bool scales(RooflineResource resource) {
  return resource == RooflineResource::compute || resource == RooflineResource::memory_bandwidth ||
         resource == RooflineResource::host_link;
}

}  // namespace

RooflineResult roofline(const WorkPerUnit& work, const DeviceCapability* device,
                        const DatasheetPeaks* peaks, double scale, const CapabilityTable& table,
                        const Catalog& catalog, const DefaultEfficiency& defaults,
                        int instances_per_replica, double network_bytes_per_second) {
  struct Term {
    RooflineResource resource;
    std::string key;
    double amount;
  };
  const std::vector<Term> terms = {
      {RooflineResource::compute, work.dtype, work.flops},
      {RooflineResource::memory_bandwidth, "", work.device_memory_bytes},
      {RooflineResource::host_link, "", work.host_to_device_bytes},
      {RooflineResource::io, "", work.io_bytes},
      {RooflineResource::collectives, work.collective_operation, work.collective_bytes}};
  RooflineResult out;
  double worst_seconds = 0;
  const bool spans = instances_per_replica > 1;
  if (spans && work.collective_bytes > 0) {
    // Between instances: measured across hosts, else the network estimate.
    const ResourceRate* rate = nullptr;
    if (device != nullptr) {
      auto it = device->inter_node_collectives.find(work.collective_operation);
      if (it != device->inter_node_collectives.end()) rate = &it->second;
    }
    double per_second = 0;
    if (rate != nullptr) {
      per_second = rate->value;
      out.evidence.push_back(rate->evidence);
    } else if (network_bytes_per_second > 0) {
      per_second = network_bytes_per_second * defaults.inter_node_collectives;
      out.estimated = true;
      out.estimate_notes.push_back(
          "collectives (inter-node): no multi-node report measured " + work.collective_operation +
          "; network " + format_value(network_bytes_per_second, "B/s") +
          " (catalog) x efficiency " + short_number(defaults.inter_node_collectives) +
          " (stated default)");
    } else {
      out.why = "a replica spans " + std::to_string(instances_per_replica) +
                " instances: no multi-node report measured " + work.collective_operation +
                " and the catalog states no network bandwidth";
      return out;
    }
    worst_seconds = work.collective_bytes / per_second;
    out.binding = "collectives (inter-node)";
  }
  for (const auto& term : terms) {
    if (term.amount <= 0) continue;
    const std::string name(to_string(term.resource));
    // On a CPU the data is in host memory already: there is no host-to-device copy to bound it.
    if (term.resource == RooflineResource::host_link && device != nullptr &&
        device->kind == TargetKind::cpu)
      continue;
    const ResourceRate* rate =
        device != nullptr ? measured(*device, term.resource, term.key) : nullptr;
    double per_second = 0;
    std::optional<double> power;
    if (rate != nullptr) {
      per_second = rate->value * (scales(term.resource) ? scale : 1.0);
      out.evidence.push_back(rate->evidence);
      power = rate->power_watts;
    } else {
      // Estimate: datasheet peak x efficiency of the nearest measured accelerator.
      PeakOf peak_of = peak_for(term.resource);
      std::optional<double> peak =
          (peaks != nullptr && peak_of != nullptr) ? peak_of(*peaks, term.key) : std::nullopt;
      if (!peak && term.resource == RooflineResource::io) {
        // Storage throughput has no datasheet figure: it cannot bound the estimate, and the row
        // says so instead of disappearing.
        out.estimated = true;
        out.estimate_notes.push_back(
            "I/O: not measured for this type and no datasheet figure, assumed not binding "
            "(measure it: gpusizer run on this type records storage-to-device bandwidth)");
        continue;
      }
      if (!peak && term.resource == RooflineResource::host_link && peaks != nullptr) {
        // Accelerators whose host link no datasheet states (Inferentia2): the same, said.
        out.estimated = true;
        out.estimate_notes.push_back(
            "host link: not measured and no datasheet figure for this accelerator, assumed not "
            "binding");
        continue;
      }
      if (!peak) {
        out.why = "no measurement and no datasheet peak for " + name +
                  (term.key.empty() ? "" : " (" + term.key + ")");
        return out;
      }
      double efficiency = default_for(term.resource, defaults);
      std::string from = "stated default";
      double best_distance = INFINITY;
      const Evidence* best_evidence = nullptr;
      for (const auto& d : table.devices) {
        if (d.kind != TargetKind::gpu) continue;
        const Accelerator* acc = catalog.find_accelerator(d.accelerator);
        const ResourceRate* m = measured(d, term.resource, term.key);
        if (acc == nullptr || m == nullptr) continue;
        std::optional<double> their_peak = peak_of(acc->peaks, term.key);
        if (!their_peak) continue;
        double distance = std::fabs(std::log(*their_peak / *peak));
        if (distance < best_distance) {
          best_distance = distance;
          efficiency = m->value / *their_peak;
          from = d.accelerator + " (record " + m->evidence.record_id + " in " +
                 m->evidence.report_file + ")";
          best_evidence = &m->evidence;
        }
      }
      if (best_evidence != nullptr) out.evidence.push_back(*best_evidence);
      per_second = *peak * efficiency * (scales(term.resource) ? scale : 1.0);
      out.estimated = true;
      out.estimate_notes.push_back(
          name + ": datasheet " +
          format_value(*peak, term.resource == RooflineResource::compute ? "FLOP/s" : "B/s") +
          " x efficiency " + short_number(efficiency) + " from " + from);
    }
    double seconds = term.amount / per_second;
    if (seconds > worst_seconds) {
      worst_seconds = seconds;
      out.binding = spans && term.resource == RooflineResource::collectives
                        ? "collectives (intra-node)"
                        : name;
      out.binding_power_watts = power;
    }
  }
  if (worst_seconds <= 0) {
    out.why = "the workload states no work per unit";
    return out;
  }
  out.ok = true;
  out.units_per_second = 1.0 / worst_seconds;
  return out;
}

}  // namespace gpusizer::sizing::detail
