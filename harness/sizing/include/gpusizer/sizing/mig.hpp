// MIG placement and packing. A GPU instance occupies a run of the 8 memory slices starting at
// one of its profile's allowed start slots, and the compute slices of all instances add up to
// at most 7 (NVIDIA `nvidia-smi mig -lgipp`, A100/H100; reference/mig.md d.2):
//   1g (1 mem slice)   starts {0,1,2,3,4,5,6}     1g, 2x memory (2)  starts {0,2,4,6}
//   2g (2)             starts {0,2,4}             3g (4)             starts {0,4}
//   4g (4)             start  {0}                 7g (8)             start  {0}
// "+me" profiles: at most one per GPU.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusizer/sizing/catalog.hpp"

namespace gpusizer::sizing {

inline constexpr int kMigComputeSlices = 7;
inline constexpr int kMigMemorySlices = 8;

// Allowed start slots for a profile shape; empty when the shape is not a known MIG shape.
std::vector<int> mig_start_slots(int compute_slices, int memory_slices);

struct MigPlacement {
  std::string profile;
  int start = 0;
  int memory_slices = 0;
  int compute_slices = 0;
};

struct MigGpuLayout {
  std::vector<MigPlacement> placements;  // ordered by start slot
  int stranded_compute_slices = 0;
  int stranded_memory_slices = 0;
  // "4g.71gb@0 + 3g.71gb@4"
  std::string describe() const;
  // The mig-parted `mig-devices` map: {"4g.71gb": 1, "3g.71gb": 1}.
  nlohmann::json mig_devices() const;
};

// A valid placement of all `profiles` on one GPU, or nullopt when none exists (exact search).
std::optional<MigGpuLayout> place_on_one_gpu(const std::vector<MigProfile>& profiles);

struct MigPacking {
  std::vector<MigGpuLayout> gpus;
  int stranded_compute_slices = 0;
  int stranded_memory_slices = 0;
  // Lower bound on GPUs from the slice totals (ceil(compute/7), ceil(memory/8), 3g/4g limits
  // are not in it): the packing is optimal when it reaches this bound.
  int lower_bound_gpus = 0;
  // Set when the packing is not proven optimal (the exact search ran out of its state budget and
  // first-fit decreasing was kept); printed with the plan so nobody mistakes it for the minimum.
  std::string search_note;
};

// Packs GPU instances onto as few GPUs as possible: first-fit decreasing (by memory slices,
// then compute slices), each GPU checked with the exact placement search; when that is above
// lower_bound_gpus, an exact search over per-GPU configurations (FFD needs 3 GPUs for
// 4 x 2g + 2 x 3g, the optimum 2). Throws InputError when a profile has an unknown shape.
MigPacking pack_mig(std::vector<MigProfile> instances);

// mig-parted configuration for the packed GPUs: {"version": "v1", "mig-configs": {name: [...]}}
// with one entry per GPU (devices: [i]).
nlohmann::json mig_parted_config(const MigPacking& packing, const std::string& name);

}  // namespace gpusizer::sizing
