#include "device_info.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "cuda_check.hpp"
#include "host/numeric.hpp"

namespace gpusizer::kernels::cuda {
namespace {

int attribute(cudaDeviceAttr a, int device) {
  int v = 0;
  GPUSIZER_CUDA_CALL(cudaDeviceGetAttribute(&v, a, device));
  return v;
}

std::string read_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// The 16 UUID bytes as NVML prints them after "GPU-" / "MIG-": 8-4-4-4-12 lower-case hex.
std::string format_uuid(const cudaUUID_t& u) {
  char buf[64];
  const auto* b = reinterpret_cast<const unsigned char*>(u.bytes);
  std::snprintf(buf, sizeof buf,
                "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
                b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
                b[15]);
  return buf;
}

}  // namespace

std::string cuda_version_string(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

DeviceFacts read_device_facts(int index, const DiscoveryOptions& options) {
  DeviceFacts f;
  f.index = index;
  cudaDeviceProp p{};
  GPUSIZER_CUDA_CALL(cudaGetDeviceProperties(&p, index));
  f.name = p.name;
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  f.identity = identify_device(format_uuid(p.uuid), index, f.name, options.known_devices,
                               options.gpus_with_unlisted_slices,
                               visible ? std::optional<std::string>(visible) : std::nullopt);
  f.is_mig = f.identity.kind == TargetKind::mig;
  f.uuid = f.identity.uuid;
  f.cc_major = p.major;
  f.cc_minor = p.minor;
  f.sm_count = attribute(cudaDevAttrMultiProcessorCount, index);
  f.l2_bytes = static_cast<std::size_t>(attribute(cudaDevAttrL2CacheSize, index));
  f.memory_bytes = p.totalGlobalMem;
  f.bus_width_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, index);
  f.memory_clock_hz = attribute(cudaDevAttrMemoryClockRate, index) * 1e3;  // kHz
  f.sm_clock_hz = attribute(cudaDevAttrClockRate, index) * 1e3;            // kHz
  f.theoretical_memory_bytes_per_second =
      theoretical_memory_bandwidth(f.memory_clock_hz, f.bus_width_bits);
  char bus[32] = {};
  GPUSIZER_CUDA_CALL(cudaDeviceGetPCIBusId(bus, sizeof bus, index));
  f.pci_bus_id = bus;
  std::transform(f.pci_bus_id.begin(), f.pci_bus_id.end(), f.pci_bus_id.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const std::string sys = "/sys/bus/pci/devices/" + f.pci_bus_id + "/";
  const std::string numa = read_line(sys + "numa_node");
  if (!numa.empty()) {
    try {
      f.numa_node = std::stoi(numa);
    } catch (const std::exception&) {
      f.numa_node = -1;
    }
  }
  const std::string cur_speed = read_line(sys + "current_link_speed");
  const std::string cur_width = read_line(sys + "current_link_width");
  // The upstream port: the folder above the device's own in the resolved sysfs path.
  std::string port;
  if (char* real = ::realpath(sys.c_str(), nullptr)) {
    port = std::string(real) + "/../";
    std::free(real);
  }
  const PcieLink link =
      pcie_peak_link(read_line(sys + "max_link_speed"), read_line(sys + "max_link_width"),
                     port.empty() ? "" : read_line(port + "max_link_speed"),
                     port.empty() ? "" : read_line(port + "max_link_width"), cur_speed, cur_width);
  auto to_int = [](const std::string& w) {
    try {
      return w.empty() ? 0 : std::stoi(w);
    } catch (const std::exception&) {
      return 0;
    }
  };
  f.pcie_generation = pcie_generation(link.speed);
  f.pcie_width = to_int(link.width);
  f.pcie_current_generation = pcie_generation(cur_speed);
  f.pcie_current_width = to_int(cur_width);
  f.pcie_peak_source = link.source;
  f.pcie_bytes_per_second_per_direction = pcie_bandwidth_per_direction(link.speed, link.width);
  GPUSIZER_CUDA_CALL(cudaDriverGetVersion(&f.driver_version));
  GPUSIZER_CUDA_CALL(cudaRuntimeGetVersion(&f.runtime_version));
  return f;
}

Target to_target(const DeviceFacts& f) {
  Target t;
  t.id = f.identity.id;
  t.kind = f.identity.kind;
  t.name = f.name;
  t.uuid = f.uuid;
  t.index = f.identity.nvml_index.value_or(f.index);
  t.parent = f.identity.parent;
  t.mig_profile = f.identity.mig_profile;
  t.memory_bytes = f.memory_bytes;
  t.attributes = f.identity.attributes;
  auto& a = t.attributes;
  a["cuda_device_ordinal"] = f.index;
  a["identified_by"] = f.identity.identified_by;
  a["compute_capability"] = std::to_string(f.cc_major) + "." + std::to_string(f.cc_minor);
  a["sm_count"] = f.sm_count;
  a["l2_bytes"] = f.l2_bytes;
  a["memory_bus_width_bits"] = f.bus_width_bits;
  a["memory_clock_hz"] = f.memory_clock_hz;
  a["sm_default_clock_hz"] = f.sm_clock_hz;
  a["theoretical_memory_bytes_per_second"] = f.theoretical_memory_bytes_per_second;
  a["pci_bus_id"] = f.pci_bus_id;
  if (f.numa_node >= 0) a["numa_node"] = f.numa_node;
  if (f.pcie_generation > 0) a["pcie_generation"] = f.pcie_generation;
  if (f.pcie_width > 0) a["pcie_width"] = f.pcie_width;
  if (f.pcie_bytes_per_second_per_direction > 0) {
    a["pcie_bytes_per_second_per_direction"] = f.pcie_bytes_per_second_per_direction;
    a["pcie_peak_source"] = f.pcie_peak_source;
  }
  // The link as it was when read (it drops when idle): beside the peak, never instead of it.
  if (f.pcie_current_generation > 0) a["pcie_current_generation"] = f.pcie_current_generation;
  if (f.pcie_current_width > 0) a["pcie_current_width"] = f.pcie_current_width;
  a["cuda_driver_version"] = cuda_version_string(f.driver_version);
  a["cuda_runtime_version"] = cuda_version_string(f.runtime_version);
  return t;
}

}  // namespace gpusizer::kernels::cuda
