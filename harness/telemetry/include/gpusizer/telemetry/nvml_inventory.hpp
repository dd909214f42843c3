// What NVML sees: each GPU (index, UUID, name, power limit, default clocks, MIG mode) and each
// MIG device as a gpusizer::Target (kind "mig"). `gpusizer devices` prints it; device selection
// (device_selection.hpp) turns it into the GPUs the run measures and the slices its children
// measure (CUDA_VISIBLE_DEVICES=<MIG uuid>).
// gpusizer only reads the layout; it never changes MIG mode, clocks or power limits.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusizer/report.hpp"

namespace gpusizer {

// A GPU's MIG mode as NVML reports it (nvmlDeviceGetMigMode), "not supported" where it has none.
#define GPUSIZER_MIG_STATE_VALUES(X) \
  X(enabled, "enabled") X(disabled, "disabled") X(not_supported, "not supported")
GPUSIZER_VOCABULARY(MigState, GPUSIZER_MIG_STATE_VALUES)

}  // namespace gpusizer

namespace gpusizer::telemetry {

struct NvmlMigDevice {
  std::string uuid;  // "MIG-..."
  unsigned int gpu_instance_id = 0;
  unsigned int compute_instance_id = 0;
  std::string profile;         // "1g.18gb"
  std::string profile_source;  // "device name" | "derived from attributes (g, MiB)"
  unsigned int sm_count = 0;
  unsigned int gpu_instance_slices = 0;
  unsigned int compute_instance_slices = 0;
  std::uint64_t memory_bytes = 0;
};

struct NvmlGpu {
  unsigned int index = 0;  // NVML index (PCI bus order)
  std::string id;          // "gpu<index>"
  std::string uuid;
  std::string name;
  std::optional<double> power_limit_watts;  // enforced limit
  std::optional<double> default_sm_clock_mhz;
  std::string default_sm_clock_source;  // "default applications clock" | "max SM clock"
  std::optional<double> max_sm_clock_mhz;
  std::optional<double> max_memory_clock_mhz;
  MigState mig_mode = MigState::not_supported;
  MigState mig_pending_mode = MigState::not_supported;  // differs from mig_mode until a reset
  std::vector<NvmlMigDevice> mig_devices;
  // Not empty when MIG is enabled but its devices could not all be listed: the NVML call and
  // error name, e.g. "nvmlDeviceGetMigDeviceHandleByIndex: NVML_ERROR_NO_PERMISSION (...)". Only
  // NOT_FOUND is an empty slot; any other error makes `mig_devices` incomplete, never "no slices".
  std::string mig_enumeration_error;
};

struct NvmlInventory {
  bool available = false;
  std::string unavailable_reason;  // "cannot load libnvidia-ml.so.1 ..." when !available
  std::string library;             // path loaded
  std::string driver_version;
  std::vector<NvmlGpu> gpus;
  std::vector<Target> mig_targets;  // kind "mig", id "gpu0/mig-3g.71gb-gi1-ci0", parent "gpu0"
  std::vector<std::string> notes;   // GPUs or fields that could not be read
};

NvmlInventory nvml_inventory();

nlohmann::json to_json(const NvmlInventory& inventory);

}  // namespace gpusizer::telemetry
