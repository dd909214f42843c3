// Capability table: what each device model (GPU, MIG profile, CPU) sustains, read from reports
// through gpusizer::load_report. Only records with status "ok" whose verification did not fail
// and that are not flagged "implausible" (plausibility.hpp; each one left out is a warning) are
// used. Several targets of one model (in one or several reports) are sized on the slowest.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpusizer/report.hpp"
#include "gpusizer/sizing/catalog.hpp"
#include "gpusizer/sizing/spread.hpp"

namespace gpusizer::sizing {

struct LoadedReport {
  std::string file;
  std::string sha256;  // of the file bytes
  Report report;
  bool verified = false;     // gpusizer verify's verdict (report_verify.hpp)
  std::string verification;  // "verified", or its first failed finding
};

// Reads a report file with the shared loader, digests its bytes and verifies it (with the
// shipped identity certificates).
LoadedReport load_report_file(const std::filesystem::path& file);

// Where a figure came from.
struct Evidence {
  std::string report_file;
  std::string report_sha256;
  std::string record_id;
  std::string target_id;
  std::string metric;  // "throughput", "bandwidth", "busbw"
  double value = 0;
  std::string unit;
  nlohmann::json parameters = nlohmann::json::object();
  Concurrency concurrency = Concurrency::not_stated;  // MIG: isolated | concurrent
};

struct ResourceRate {
  double value = 0;  // FLOP/s or B/s
  Evidence evidence;
  std::optional<double> power_watts;  // board power while this record ran (NVML/RAPL)
  std::string power_scope;
  std::optional<RateSpread> spread;  // p5/p95 of the record's per-sample rates (>= 2 samples)
};

struct DeviceCapability {
  TargetKind kind = TargetKind::gpu;
  std::string accelerator;  // catalog accelerator id; CPU model for kind "cpu"
  std::optional<std::string> mig_profile;
  Concurrency mig_mode = Concurrency::not_stated;  // MIG: which records were used
  std::string report_name;                         // Target.name
  std::uint64_t memory_bytes = 0;                  // smallest seen (GPU/MIG: CUDA's totalGlobalMem)
  std::string memory_source;                       // "<report file> target <id>" of the smallest
  int logical_cpus = 0;                            // CPU: logical CPUs of the measured host
  std::string instance_type;                  // CPU: the report's host.instance_type, when recorded
  std::string report_file;                    // the first report this device was read from
  int target_count = 0;                       // targets merged
  std::map<std::string, ResourceRate> flops;  // by dtype
  std::optional<ResourceRate> memory_bandwidth;
  std::optional<ResourceRate> host_link;
  std::optional<ResourceRate> io;
  std::map<std::string, ResourceRate> collectives;  // by operation (busbw)
  // Collectives whose ranks sat on several hosts (a fleet report): by operation (busbw).
  std::map<std::string, ResourceRate> inter_node_collectives;
};

struct CapabilityTable {
  std::vector<DeviceCapability> devices;
  std::vector<std::string> warnings;  // unknown GPU names, mixed tool versions, ...

  const DeviceCapability* gpu(const std::string& accelerator) const;
  const DeviceCapability* mig(const std::string& accelerator, const std::string& profile) const;
  const DeviceCapability* cpu() const;                // the first CPU measured
  std::vector<const DeviceCapability*> cpus() const;  // every CPU measurement, in report order
};

CapabilityTable build_capabilities(const std::vector<LoadedReport>& reports,
                                   const Catalog& catalog);

}  // namespace gpusizer::sizing
