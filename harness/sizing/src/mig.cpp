#include "gpusizer/sizing/mig.hpp"

#include <algorithm>
#include <array>
#include <limits>
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

namespace {

// First-fit decreasing: each GPI goes onto the first GPU where the exact placement search still
// succeeds. Fast, but not always optimal (4 x 2g + 2 x 3g: FFD puts 3g+3g together and needs 3
// GPUs; 3g+2g+2g twice needs 2).
std::vector<std::vector<MigProfile>> first_fit_decreasing(std::vector<MigProfile> instances) {
  std::sort(instances.begin(), instances.end(), larger_first);
  std::vector<std::vector<MigProfile>> gpus;
  for (const auto& gi : instances) {
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
  return gpus;
}

// Exact minimum number of GPUs, as a search over per-GPU configurations (multisets of the
// demanded profiles that have a valid placement on one GPU). State = remaining count per
// distinct profile; each step fills one GPU that takes at least one of the first remaining
// profile. Memoised; gives up (nullopt) beyond `kMaxStates` states, the caller then keeps FFD.
class ExactPacker {
 public:
  static constexpr std::size_t kMaxStates = 200000;

  ExactPacker(std::vector<MigProfile> kinds, std::vector<int> demand)
      : kinds_(std::move(kinds)), demand_(std::move(demand)) {
    std::vector<int> counts(kinds_.size(), 0);
    enumerate(0, counts);
  }

  std::optional<std::vector<std::vector<int>>> solve() {
    if (!best(demand_)) return std::nullopt;
    std::vector<std::vector<int>> gpus;
    std::vector<int> state = demand_;
    while (!is_zero(state)) {
      const std::vector<int>& take = memo_.at(state).second;
      gpus.push_back(take);
      for (std::size_t i = 0; i < state.size(); ++i) state[i] -= take[i];
    }
    return gpus;
  }

 private:
  static bool is_zero(const std::vector<int>& v) {
    return std::all_of(v.begin(), v.end(), [](int x) { return x == 0; });
  }

  std::vector<MigProfile> expand(const std::vector<int>& counts) const {
    std::vector<MigProfile> out;
    for (std::size_t i = 0; i < counts.size(); ++i)
      out.insert(out.end(), static_cast<std::size_t>(counts[i]), kinds_[i]);
    return out;
  }

  // Every non-empty configuration with counts <= demand that fits on one GPU.
  void enumerate(std::size_t i, std::vector<int>& counts) {
    if (i == kinds_.size()) {
      if (!is_zero(counts)) configs_.push_back(counts);
      return;
    }
    for (int n = 0; n <= demand_[i]; ++n) {
      counts[i] = n;
      if (n > 0 && !place_on_one_gpu(expand(counts))) break;  // more of it will not fit either
      enumerate(i + 1, counts);
    }
    counts[i] = 0;
  }

  // Minimum GPUs for `state`; false when the state budget ran out.
  bool best(const std::vector<int>& state) {
    if (memo_.count(state) != 0) return true;
    if (memo_.size() >= kMaxStates) return false;
    std::size_t first = 0;
    while (first < state.size() && state[first] == 0) ++first;
    int best_gpus = std::numeric_limits<int>::max();
    std::vector<int> best_take;
    for (const auto& config : configs_) {
      if (config[first] == 0) continue;
      std::vector<int> take(state.size());
      std::vector<int> rest(state.size());
      for (std::size_t i = 0; i < state.size(); ++i) {
        take[i] = std::min(config[i], state[i]);
        rest[i] = state[i] - take[i];
      }
      int gpus = 1;
      if (!is_zero(rest)) {
        if (!best(rest)) return false;
        gpus += memo_.at(rest).first;
      }
      if (gpus < best_gpus) {
        best_gpus = gpus;
        best_take = take;
      }
    }
    memo_[state] = {best_gpus, best_take};
    return true;
  }

  std::vector<MigProfile> kinds_;
  std::vector<int> demand_;
  std::vector<std::vector<int>> configs_;
  std::map<std::vector<int>, std::pair<int, std::vector<int>>> memo_;
};

}  // namespace

MigPacking pack_mig(std::vector<MigProfile> instances) {
  std::sort(instances.begin(), instances.end(), larger_first);
  int compute = 0;
  int memory = 0;
  for (const auto& gi : instances) {
    compute += gi.compute_slices;
    memory += gi.memory_slices;
  }
  MigPacking packing;
  packing.lower_bound_gpus = std::max((compute + kMigComputeSlices - 1) / kMigComputeSlices,
                                      (memory + kMigMemorySlices - 1) / kMigMemorySlices);
  std::vector<std::vector<MigProfile>> gpus = first_fit_decreasing(instances);
  if (static_cast<int>(gpus.size()) > packing.lower_bound_gpus) {
    // FFD may be above the optimum: search the exact minimum.
    std::vector<MigProfile> kinds;
    std::vector<int> demand;
    for (const auto& gi : instances) {
      if (kinds.empty() || kinds.back().name != gi.name) {
        kinds.push_back(gi);
        demand.push_back(0);
      }
      ++demand.back();
    }
    ExactPacker exact(kinds, demand);
    auto solved = exact.solve();
    if (!solved) {
      packing.search_note = "exact packing search stopped at its budget of " +
                            std::to_string(ExactPacker::kMaxStates) +
                            " states: first-fit packing kept (" + std::to_string(gpus.size()) +
                            " GPUs; the slice totals need at least " +
                            std::to_string(packing.lower_bound_gpus) + ")";
    }
    if (solved && solved->size() < gpus.size()) {
      gpus.clear();
      for (const auto& counts : *solved) {
        std::vector<MigProfile> gpu;
        for (std::size_t i = 0; i < counts.size(); ++i)
          gpu.insert(gpu.end(), static_cast<std::size_t>(counts[i]), kinds[i]);
        gpus.push_back(std::move(gpu));
      }
    }
  }
  for (const auto& gpu : gpus) {
    MigGpuLayout layout = *place_on_one_gpu(gpu);
    packing.stranded_compute_slices += layout.stranded_compute_slices;
    packing.stranded_memory_slices += layout.stranded_memory_slices;
    packing.gpus.push_back(std::move(layout));
  }
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
