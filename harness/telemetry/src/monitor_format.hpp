// Formatting monitor samples: CloudWatch Embedded Metric Format (one JSON line per GPU per
// sample) and Prometheus text exposition (one document per sample, all GPUs).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpu_sample.hpp"
#include "gpusizer/telemetry/monitor.hpp"

namespace gpusizer::telemetry {

// A MIG slice's identity, as dcgm-exporter labels it: GPU_I_PROFILE and GPU_I_ID (the NVML
// GPU instance ID).
struct MonitorMigSlice {
  std::string profile;  // "1g.18gb"
  unsigned int gpu_instance_id = 0;
  std::string uuid;  // "MIG-..."
};

// One series source: a physical GPU, or a MIG slice of it (`mig` set; gpu_index, uuid, name and
// pci_bus_id are then the parent's, as dcgm-exporter's labels are).
struct MonitorSample {
  unsigned int gpu_index = 0;
  std::string uuid;
  std::string name;
  std::string pci_bus_id;
  GpuSample sample;
  std::optional<double> interval_energy_joules;  // counter delta since the previous sample
  std::optional<MonitorMigSlice> mig;
  // A GPU whose memory is reported per slice (MIG mode, slices listed): with dcgm names its own
  // DCGM_FI_DEV_FB_* are left out, so a sum over the slices does not count the memory twice.
  bool memory_by_slice = false;
  // What this series cannot give and why, said in the output itself (EMF property
  // "Unavailable", a Prometheus comment): "" when nothing is missing.
  std::string unavailable;
};

struct MonitorHost {
  std::string hostname;
  std::string driver_version;  // dcgm-exporter's DCGM_FI_DRIVER_VERSION label; "" if unknown
};

std::string emf_line(const MonitorSample& s, const MonitorHost& host, std::int64_t timestamp_ms,
                     const MonitorOptions& options);

std::string prometheus_text(const std::vector<MonitorSample>& samples, const MonitorHost& host,
                            const MonitorOptions& options);

}  // namespace gpusizer::telemetry
