#include "gpusizer/sizing/mig.hpp"

#include <algorithm>
#include <array>
#include <map>

#include "gpusizer/error.hpp"

namespace gpusizer::sizing {
namespace {

bool is_media(const MigProfile& p) {
  return p.name.find("+me") != std::string::npos;
}

struct SearchState {
  std::array<bool, kMigMemorySlices> used{};
  std::vector<MigPlacement> placed;
};

bool search(const std::vector<MigProfile>& order, std::size_t next, SearchState& state) {
  if (next == order.size()) return true;
  const MigProfile& p = order[next];
  for (int start : mig_start_slots(p.compute_slices, p.memory_slices)) {
    if (start + p.memory_slices > kMigMemorySlices) continue;
    bool free = true;
    for (int s = start; s < start + p.memory_slices; ++s)
      free = free && !state.used[static_cast<std::size_t>(s)];
    if (!free) continue;
    // Identical profiles are placed in increasing start order (prunes symmetric branches).
    if (next > 0 && order[next - 1].name == p.name && state.placed.back().start > start) continue;
    for (int s = start; s < start + p.memory_slices; ++s)
      state.used[static_cast<std::size_t>(s)] = true;
    state.placed.push_back({p.name, start, p.memory_slices, p.compute_slices});
    if (search(order, next + 1, state)) return true;
    state.placed.pop_back();
    for (int s = start; s < start + p.memory_slices; ++s)
      state.used[static_cast<std::size_t>(s)] = false;
  }
  return false;
}

bool larger_first(const MigProfile& a, const MigProfile& b) {
  if (a.memory_slices != b.memory_slices) return a.memory_slices > b.memory_slices;
  if (a.compute_slices != b.compute_slices) return a.compute_slices > b.compute_slices;
  return a.name < b.name;
}

}  // namespace

std::vector<int> mig_start_slots(int compute_slices, int memory_slices) {
  if (compute_slices == 1 && memory_slices == 1) return {0, 1, 2, 3, 4, 5, 6};
  if (compute_slices == 1 && memory_slices == 2) return {0, 2, 4, 6};
  if (compute_slices == 2 && memory_slices == 2) return {0, 2, 4};
  if (compute_slices == 3 && memory_slices == 4) return {0, 4};
  if (compute_slices == 4 && memory_slices == 4) return {0};
  if (compute_slices == 7 && memory_slices == 8) return {0};
  return {};
}

std::string MigGpuLayout::describe() const {
  std::string out;
  for (const auto& p : placements) {
    out += (out.empty() ? "" : " + ") + p.profile + "@" + std::to_string(p.start);
  }
  return out;
}

nlohmann::json MigGpuLayout::mig_devices() const {
  std::map<std::string, int> counts;
  for (const auto& p : placements) ++counts[p.profile];
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, n] : counts) j[name] = n;
  return j;
}

std::optional<MigGpuLayout> place_on_one_gpu(const std::vector<MigProfile>& profiles) {
  int compute = 0;
  int memory = 0;
  int media = 0;
  for (const auto& p : profiles) {
    if (mig_start_slots(p.compute_slices, p.memory_slices).empty()) {
      throw InputError("MIG profile \"" + p.name + "\" has an unknown shape (" +
                       std::to_string(p.compute_slices) + " compute, " +
                       std::to_string(p.memory_slices) + " memory slices)");
    }
    compute += p.compute_slices;
    memory += p.memory_slices;
    media += is_media(p) ? 1 : 0;
  }
  if (compute > kMigComputeSlices || memory > kMigMemorySlices || media > 1) return std::nullopt;
  std::vector<MigProfile> order = profiles;
  std::sort(order.begin(), order.end(), larger_first);
  SearchState state;
  if (!search(order, 0, state)) return std::nullopt;
  MigGpuLayout layout;
  layout.placements = state.placed;
  std::sort(layout.placements.begin(), layout.placements.end(),
            [](const MigPlacement& a, const MigPlacement& b) { return a.start < b.start; });
  layout.stranded_compute_slices = kMigComputeSlices - compute;
  layout.stranded_memory_slices = kMigMemorySlices - memory;
  return layout;
}

MigPacking pack_mig(std::vector<MigProfile> instances) {
  std::sort(instances.begin(), instances.end(), larger_first);
  std::vector<std::vector<MigProfile>> gpus;
  MigPacking packing;
  int compute = 0;
  int memory = 0;
  for (const auto& gi : instances) {
    compute += gi.compute_slices;
    memory += gi.memory_slices;
    bool placed = false;
    for (auto& gpu : gpus) {
      gpu.push_back(gi);
      if (place_on_one_gpu(gpu)) {
        placed = true;
        break;
      }
      gpu.pop_back();
    }
    if (!placed) {
      if (!place_on_one_gpu({gi}))
        throw InputError("MIG profile \"" + gi.name + "\" cannot be placed");
      gpus.push_back({gi});
    }
  }
  for (const auto& gpu : gpus) {
    MigGpuLayout layout = *place_on_one_gpu(gpu);
    packing.stranded_compute_slices += layout.stranded_compute_slices;
    packing.stranded_memory_slices += layout.stranded_memory_slices;
    packing.gpus.push_back(std::move(layout));
  }
  packing.lower_bound_gpus = std::max((compute + kMigComputeSlices - 1) / kMigComputeSlices,
                                      (memory + kMigMemorySlices - 1) / kMigMemorySlices);
  return packing;
}

nlohmann::json mig_parted_config(const MigPacking& packing, const std::string& name) {
  nlohmann::json entries = nlohmann::json::array();
  for (std::size_t i = 0; i < packing.gpus.size(); ++i) {
    entries.push_back(
        {{"devices", {i}}, {"mig-enabled", true}, {"mig-devices", packing.gpus[i].mig_devices()}});
  }
  return {{"version", "v1"}, {"mig-configs", {{name, entries}}}};
}

}  // namespace gpusizer::sizing
