// Which devices a run measures, and how the process is set up to see them. Pure: the NVML
// inventory, the CUDA_VISIBLE_DEVICES found in the environment and --gpus go in; out comes the
// value to give CUDA_VISIBLE_DEVICES before the first CUDA call, the whole GPUs the parent
// measures, the MIG slices measured in child processes, and a sentence that says why.
//
// Why not CUDA's ordinals: when any GPU is in MIG mode and CUDA_VISIBLE_DEVICES is unset, CUDA
// shows one MIG slice and hides every other GPU (kokkos#6529), so on a p5 with GPU0 in MIG mode
// GPUs 1-7 would never be measured. Devices are therefore chosen by NVML UUID, and the parent's
// CUDA_VISIBLE_DEVICES is set to the chosen whole GPUs' UUIDs. A CUDA_VISIBLE_DEVICES already set
// (Slurm, the Kubernetes device plugin) is a grant: only what it names is measured, and the report
// says so. When NVML cannot list a GPU's MIG devices (NVML_ERROR_NO_PERMISSION in a pod without
// MIG monitoring rights) the error is recorded and the run measures what CUDA itself exposes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusizer/report.hpp"
#include "gpusizer/telemetry/nvml_inventory.hpp"

namespace gpusizer::telemetry {

struct DeviceSelectionRequest {
  std::optional<std::string> cuda_visible_devices;  // as found in the environment; nullopt: unset
  std::vector<int> gpu_indices;                     // --gpus: NVML (nvidia-smi) indices; empty: all
};

struct DeviceSelection {
  std::optional<std::string> cuda_visible_devices_found;  // the request's, for the report
  std::vector<int> requested_gpus;
  // Set CUDA_VISIBLE_DEVICES to this before the first CUDA call; nullopt: leave it as it is.
  std::optional<std::string> set_cuda_visible_devices;
  bool parent_measures_gpus = true;  // false: no whole GPU for the parent process to measure
  std::vector<Target> whole_gpus;    // measured by the parent, in the order CUDA will number them
  std::vector<Target> mig_parents;   // GPUs in MIG mode: report targets, never whole-GPU records
  std::vector<Target> mig_slices;    // measured in child processes, one per slice
  // Every GPU and slice NVML lists: CUDA devices are named by matching their UUID here.
  std::vector<Target> known_devices;
  std::vector<std::string> gpus_with_unlisted_slices;  // MIG GPUs whose slices NVML could not list
  std::vector<int> cuda_ordinals;  // only when NVML is unavailable: --gpus taken as CUDA ordinals
  std::string basis;               // "NVML UUIDs" | "CUDA_VISIBLE_DEVICES as set" | "CUDA's own"
  std::string explanation;         // what is measured and why, in a sentence or two
  std::vector<std::string> warnings;  // for the report
};

DeviceSelection select_devices(const NvmlInventory& inventory,
                               const DeviceSelectionRequest& request);

// Every GPU ("gpu<NVML index>", kind gpu) and MIG slice NVML lists, as targets with UUIDs.
std::vector<Target> known_devices(const NvmlInventory& inventory);
// Ids of GPUs in MIG mode whose MIG devices NVML could not list.
std::vector<std::string> gpus_with_unlisted_slices(const NvmlInventory& inventory);

// CUDA_VISIBLE_DEVICES from the environment (nullopt when unset).
std::optional<std::string> cuda_visible_devices_from_environment();

// For the report's settings["device_selection"].
nlohmann::json to_json(const DeviceSelection& selection);

// The order `gpusizer devices` lists targets in: the targets discovered (CPU, whole GPUs), then
// the MIG parents not among them, each GPU followed by its MIG slices, then the slices of GPUs
// not listed at all. Each target once (by id).
std::vector<Target> device_listing(const std::vector<Target>& discovered,
                                   const std::vector<Target>& mig_parents,
                                   const std::vector<Target>& mig_slices);

}  // namespace gpusizer::telemetry
