// GpuBoards over NVML: each target matched to its physical GPU by UUID (or index), MIG slices to
// the board that holds them.
#include "gpu_boards.hpp"
#include "gpu_reader.hpp"
#include "nvml_devices.hpp"

namespace gpusizer::telemetry {
namespace {

class NvmlBoards final : public GpuBoards {
 public:
  explicit NvmlBoards(std::shared_ptr<NvmlLibrary> nvml) : nvml_(std::move(nvml)) {
    gpus_ = enumerate_gpus(*nvml_, notes_);
    for (const auto& g : gpus_) {
      if (!g.mig_enumeration_error.empty())
        notes_.push_back("GPU " + std::to_string(g.index) +
                         ": MIG devices not listed: " + g.mig_enumeration_error);
    }
  }

  std::optional<BoardMatch> find(const Target& target, std::string& why) const override {
    for (const auto& g : gpus_) {
      const std::string label = "GPU " + std::to_string(g.index) + " (" + g.uuid + ")";
      if (target.kind == TargetKind::gpu) {
        const bool by_uuid = target.uuid && *target.uuid == g.uuid;
        const bool by_index = !target.uuid && target.index && *target.index >= 0 &&
                              static_cast<unsigned int>(*target.index) == g.index;
        if (by_uuid || by_index) return match(g.handle, "whole device");
      } else {
        for (const auto& m : g.mig_devices) {
          if (target.uuid && *target.uuid == m.uuid)
            return match(g.handle, mig_attribution(label, g.mig_devices.size() - 1));
        }
      }
    }
    why = "NVML has no device matching " + target.id +
          (target.uuid ? " (uuid " + *target.uuid + ")" : std::string());
    // What NVML could not enumerate may be why (a GPU without a handle, slices not listed).
    for (std::size_t i = 0; i < notes_.size(); ++i)
      why += (i == 0 ? "; NVML enumeration: " : "; ") + notes_[i];
    return std::nullopt;
  }

 private:
  BoardMatch match(nvmlDevice_t board, std::string attribution) const {
    return {std::make_shared<GpuReader>(nvml_, board), std::move(attribution)};
  }

  static std::string mig_attribution(const std::string& board_label, std::size_t other_slices) {
    return "whole GPU board (" + board_label + "); the MIG slice shares the board with " +
           std::to_string(other_slices) +
           " other slice(s); power and energy are NOT the slice's own — divide by the slice's "
           "share only in concurrent mode (all slices loaded)";
  }

  std::shared_ptr<NvmlLibrary> nvml_;
  std::vector<NvmlGpuHandle> gpus_;
  std::vector<std::string> notes_;  // what enumeration could not read; told with every "no match"
};

}  // namespace

std::unique_ptr<GpuBoards> open_gpu_boards(std::string& why_not) {
  auto nvml = NvmlLibrary::open(why_not);
  if (!nvml) return nullptr;
  return std::make_unique<NvmlBoards>(std::move(nvml));
}

}  // namespace gpusizer::telemetry
