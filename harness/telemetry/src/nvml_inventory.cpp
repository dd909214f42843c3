#include "gpusizer/telemetry/nvml_inventory.hpp"

#include "gpu_reader.hpp"
#include "nvml_devices.hpp"

namespace gpusizer::telemetry {
namespace {

MigState mig_state(std::optional<unsigned int> mode) {
  if (!mode) return MigState::not_supported;
  return *mode == NVML_DEVICE_MIG_ENABLE ? MigState::enabled : MigState::disabled;
}

Target mig_target(const NvmlGpu& gpu, const NvmlMigDevice& m) {
  Target t;
  t.kind = TargetKind::mig;
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
    g.mig_mode = mig_state(h.mig_current);
    g.mig_pending_mode = mig_state(h.mig_pending);
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
