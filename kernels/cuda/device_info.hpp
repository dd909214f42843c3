// What CUDA (and sysfs) says about one device. Internal header.
#pragma once

#include <cstddef>
#include <string>

#include "gpusizer/kernels/device_identity.hpp"
#include "gpusizer/kernels/discovery.hpp"
#include "gpusizer/report.hpp"

namespace gpusizer::kernels::cuda {

struct DeviceFacts {
  int index = 0;                       // CUDA device ordinal (what cudaSetDevice takes)
  std::string name, uuid, pci_bus_id;  // pci_bus_id as sysfs spells it: "0000:3b:00.0"
  bool is_mig = false;
  DeviceIdentity identity;  // the target id, kind, parent: matched by UUID with NVML's devices
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  std::size_t l2_bytes = 0;
  std::size_t memory_bytes = 0;
  int bus_width_bits = 0;
  double memory_clock_hz = 0, sm_clock_hz = 0;
  double theoretical_memory_bytes_per_second = 0;
  int numa_node = -1;                       // -1 when sysfs does not say
  int pcie_generation = 0, pcie_width = 0;  // the link the peak uses (maximum trained link)
  int pcie_current_generation = 0, pcie_current_width = 0;  // as read (drops when idle)
  double pcie_bytes_per_second_per_direction = 0;           // 0 when unreadable
  std::string pcie_peak_source;
  int driver_version = 0, runtime_version = 0;  // 13000 = 13.0
};

// Reads everything; throws CudaError on a failing CUDA call. The device is named by matching
// its UUID with `options.known_devices` (identify_device).
DeviceFacts read_device_facts(int index, const DiscoveryOptions& options);
Target to_target(const DeviceFacts& f);
std::string cuda_version_string(int v);  // 13000 -> "13.0"

}  // namespace gpusizer::kernels::cuda
