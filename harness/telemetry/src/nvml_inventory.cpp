#include "gpusizer/telemetry/nvml_inventory.hpp"

#include <cmath>

#include "gpu_reader.hpp"
#include "nvml_devices.hpp"

namespace gpusizer::telemetry {
namespace {

std::string mig_mode_text(std::optional<unsigned int> mode) {
  if (!mode) return "not supported";
  return *mode == NVML_DEVICE_MIG_ENABLE ? "enabled" : "disabled";
}

// "NVIDIA H200 MIG 1g.18gb" -> "1g.18gb"; "" when the name carries no profile.
std::string profile_from_name(const std::string& name) {
  const auto at = name.find("MIG ");
  if (at == std::string::npos) return "";
  std::string rest = name.substr(at + 4);
  const auto end = rest.find(' ');
  if (end != std::string::npos) rest = rest.substr(0, end);
  if (rest.size() < 4 || rest.find('g') == std::string::npos) return "";
  return rest;
}

NvmlMigDevice describe_mig(const NvmlLibrary& nvml, const NvmlMigHandle& h) {
  const NvmlApi& api = nvml.api();
  NvmlMigDevice d;
  d.uuid = h.uuid;
  if (api.gpu_instance_id) api.gpu_instance_id(h.handle, &d.gpu_instance_id);
  if (api.compute_instance_id) api.compute_instance_id(h.handle, &d.compute_instance_id);
  nvmlDeviceAttributes_t attrs{};
  const bool have_attrs = api.attributes && api.attributes(h.handle, &attrs) == NVML_SUCCESS;
  if (have_attrs) {
    d.sm_count = attrs.multiprocessorCount;
    d.gpu_instance_slices = attrs.gpuInstanceSliceCount;
    d.compute_instance_slices = attrs.computeInstanceSliceCount;
    d.memory_bytes = attrs.memorySizeMB * 1024ULL * 1024ULL;
  }
  d.profile = profile_from_name(device_string(nvml, h.handle, api.name));
  if (!d.profile.empty()) {
    d.profile_source = "device name";
  } else if (have_attrs) {
    const auto gb = static_cast<unsigned long long>(
        std::ceil(static_cast<double>(attrs.memorySizeMB) / 1024.0));
    d.profile = std::to_string(attrs.gpuInstanceSliceCount) + "g." + std::to_string(gb) + "gb";
    d.profile_source = "derived from attributes (g, MiB)";
  } else {
    d.profile = "unknown";
    d.profile_source = "unavailable";
  }
  return d;
}

Target mig_target(const NvmlGpu& gpu, const NvmlMigDevice& m) {
  Target t;
  t.kind = "mig";
  t.id = gpu.id + "/mig-" + m.profile + "-gi" + std::to_string(m.gpu_instance_id) + "-ci" +
         std::to_string(m.compute_instance_id);
  t.name = gpu.name + " MIG " + m.profile;
  t.uuid = m.uuid;
  t.parent = gpu.id;
  t.mig_profile = m.profile;
  t.memory_bytes = m.memory_bytes;
  t.attributes = {{"sm_count", m.sm_count},
                  {"gpu_instance_id", m.gpu_instance_id},
                  {"compute_instance_id", m.compute_instance_id},
                  {"gpu_instance_slices", m.gpu_instance_slices},
                  {"compute_instance_slices", m.compute_instance_slices},
                  {"profile_source", m.profile_source},
                  {"parent_uuid", gpu.uuid}};
  return t;
}

}  // namespace

NvmlInventory nvml_inventory() {
  NvmlInventory inv;
  auto nvml = NvmlLibrary::open(inv.unavailable_reason);
  if (!nvml) return inv;
  inv.available = true;
  inv.library = nvml->path();
  const NvmlApi& api = nvml->api();
  char version[NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE] = {};
  if (api.driver_version && api.driver_version(version, sizeof version) == NVML_SUCCESS)
    inv.driver_version = version;
  for (const auto& h : enumerate_gpus(*nvml, inv.notes)) {
    NvmlGpu g;
    g.index = h.index;
    g.id = "gpu" + std::to_string(h.index);
    g.uuid = h.uuid;
    g.name = h.name;
    g.mig_mode = mig_mode_text(h.mig_current);
    g.mig_pending_mode = mig_mode_text(h.mig_pending);
    unsigned int value = 0;
    if (api.enforced_power_limit && api.enforced_power_limit(h.handle, &value) == NVML_SUCCESS)
      g.power_limit_watts = value / 1000.0;
    if (api.max_clock_info && api.max_clock_info(h.handle, NVML_CLOCK_SM, &value) == NVML_SUCCESS)
      g.max_sm_clock_mhz = value;
    if (api.max_clock_info && api.max_clock_info(h.handle, NVML_CLOCK_MEM, &value) == NVML_SUCCESS)
      g.max_memory_clock_mhz = value;
    const GpuReader reader(nvml, h.handle);
    g.default_sm_clock_mhz = reader.statics().default_sm_clock_mhz;
    g.default_sm_clock_source = reader.statics().default_sm_clock_source;
    for (const auto& m : h.mig_devices) g.mig_devices.push_back(describe_mig(*nvml, m));
    g.mig_enumeration_error = h.mig_enumeration_error;
    if (!g.mig_enumeration_error.empty())
      inv.notes.push_back(g.id + ": MIG devices not listed: " + g.mig_enumeration_error);
    for (const auto& m : g.mig_devices) inv.mig_targets.push_back(mig_target(g, m));
    inv.gpus.push_back(std::move(g));
  }
  return inv;
}

}  // namespace gpusizer::telemetry
