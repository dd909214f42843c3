// TelemetryProvider over NVML and RAPL: picks the physical GPU behind each target and builds
// its probe; measures idle power once per run.
#include <chrono>
#include <thread>

#include "gpu_probe.hpp"
#include "gpusizer/host_info.hpp"
#include "gpusizer/telemetry/telemetry.hpp"
#include "nvml_devices.hpp"
#include "rapl_probe.hpp"
#include "window_summary.hpp"

namespace gpusizer {
namespace telemetry {
namespace {

constexpr const char* kGpuScope = "GPU board power (NVML)";
constexpr const char* kCpuScope = "CPU package (RAPL)";

struct DeviceMatch {
  nvmlDevice_t board = nullptr;  // physical GPU
  std::string board_label;       // "GPU 0 (GPU-...)"
  std::size_t other_slices = 0;  // MIG: slices sharing the board besides this one
  bool is_mig = false;
};

class Provider final : public TelemetryProvider {
 public:
  explicit Provider(const TelemetryOptions& options) : options_(options) {
    if (!options_.enabled) {
      nvml_reason_ = rapl_reason_ = "telemetry disabled by the user";
      return;
    }
    nvml_ = NvmlLibrary::open(nvml_reason_);
    if (nvml_) gpus_ = enumerate_gpus(*nvml_, enumeration_notes_);
    rapl_ = RaplReader::open(sysfs_root(), rapl_reason_);
  }

  std::unique_ptr<TelemetryProbe> probe_for(const Target& target) override {
    if (target.kind == "cpu") {
      if (!rapl_) return std::make_unique<UnavailableProbe>(kCpuScope, rapl_reason_);
      return std::make_unique<RaplProbe>(*rapl_, options_.sample_period_seconds);
    }
    if (target.kind != "gpu" && target.kind != "mig")
      return std::make_unique<UnavailableProbe>("", "no telemetry for target kind " + target.kind);
    if (!nvml_) return std::make_unique<UnavailableProbe>(kGpuScope, nvml_reason_);
    std::string why;
    auto match = find(target, why);
    if (!match) return std::make_unique<UnavailableProbe>(kGpuScope, why);
    auto reader = std::make_shared<GpuReader>(nvml_, match->board);
    return std::make_unique<GpuProbe>(std::move(reader), options_.sample_period_seconds,
                                      attribution(*match));
  }

  nlohmann::json measure_idle(const std::vector<Target>& targets) override;

 private:
  std::optional<DeviceMatch> find(const Target& target, std::string& why) const {
    for (const auto& g : gpus_) {
      const std::string label = "GPU " + std::to_string(g.index) + " (" + g.uuid + ")";
      if (target.kind == "gpu") {
        const bool by_uuid = target.uuid && *target.uuid == g.uuid;
        const bool by_index = !target.uuid && target.index && *target.index >= 0 &&
                              static_cast<unsigned int>(*target.index) == g.index;
        if (by_uuid || by_index) return DeviceMatch{g.handle, label, 0, false};
      } else {
        for (const auto& m : g.mig_devices) {
          if (target.uuid && *target.uuid == m.uuid)
            return DeviceMatch{g.handle, label, g.mig_devices.size() - 1, true};
        }
      }
    }
    why = "NVML has no device matching " + target.id +
          (target.uuid ? " (uuid " + *target.uuid + ")" : std::string());
    return std::nullopt;
  }

  static std::string attribution(const DeviceMatch& m) {
    if (!m.is_mig) return "whole device";
    return "whole GPU board (" + m.board_label + "); the MIG slice shares the board with " +
           std::to_string(m.other_slices) +
           " other slice(s); power and energy are NOT the slice's own — divide by the slice's "
           "share only in concurrent mode (all slices loaded)";
  }

  TelemetryOptions options_;
  std::shared_ptr<NvmlLibrary> nvml_;
  std::string nvml_reason_;
  std::vector<NvmlGpuHandle> gpus_;
  std::vector<std::string> enumeration_notes_;
  std::optional<RaplReader> rapl_;
  std::string rapl_reason_;
};

nlohmann::json idle_from_gpu(const std::vector<GpuSample>& samples, const GpuReader& reader) {
  if (samples.size() < 2) {
    return {{"unavailable",
             reader.lost() ? reader.lost_reason() : std::string("fewer than two NVML samples")}};
  }
  const TelemetryWindow w = summarize_gpu_window(samples, reader.statics(), 0);
  nlohmann::json j{
      {"seconds", w.duration_seconds}, {"samples", samples.size()}, {"scope", kGpuScope}};
  if (w.energy_joules && w.energy_method == "energy counter delta" && w.duration_seconds > 0) {
    j["idle_power_watts"] = *w.energy_joules / w.duration_seconds;
    j["source"] = "NVML total-energy counter delta / seconds";
  } else if (w.power_mean_watts) {
    j["idle_power_watts"] = *w.power_mean_watts;
    j["source"] = "mean of NVML power samples (" + w.power_field + ")";
  } else {
    return {{"unavailable", "no power reading: " + nlohmann::json(w.notes).dump()}};
  }
  if (w.power_mean_watts) j["power_samples_mean_watts"] = *w.power_mean_watts;
  return j;
}

nlohmann::json Provider::measure_idle(const std::vector<Target>& targets) {
  nlohmann::json out = nlohmann::json::object();
  struct GpuIdle {
    std::string id;
    std::shared_ptr<GpuReader> reader;
    std::vector<GpuSample> samples;
  };
  std::vector<GpuIdle> gpus;
  bool want_cpu = false;
  for (const auto& t : targets) {
    if (t.kind == "cpu") {
      if (rapl_)
        want_cpu = true;
      else
        out[t.id] = {{"unavailable", rapl_reason_}};
    } else if (t.kind == "mig") {
      out[t.id] = {{"unavailable", "board power is per physical GPU; see the idle power of " +
                                       t.parent.value_or("the parent GPU")}};
    } else if (t.kind == "gpu") {
      std::string why = nvml_reason_;
      std::optional<DeviceMatch> m;
      if (nvml_) m = find(t, why);
      if (!m)
        out[t.id] = {{"unavailable", why}};
      else
        gpus.push_back({t.id, std::make_shared<GpuReader>(nvml_, m->board), {}});
    }
  }
  if (gpus.empty() && !want_cpu) return out;

  std::optional<std::vector<std::uint64_t>> rapl_before;
  if (want_cpu) rapl_before = rapl_->read();
  const auto start = std::chrono::steady_clock::now();
  const auto period = std::chrono::duration<double>(options_.sample_period_seconds);
  for (auto next = start;; next += std::chrono::duration_cast<std::chrono::nanoseconds>(period)) {
    std::this_thread::sleep_until(next);
    const double t =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (auto& g : gpus) {
      if (auto s = g.reader->read(t)) g.samples.push_back(*s);
    }
    if (t >= options_.idle_seconds) break;
  }
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (auto& g : gpus) out[g.id] = idle_from_gpu(g.samples, *g.reader);
  if (want_cpu) {
    const auto rapl_after = rapl_->read();
    std::string cpu_id = "cpu";
    for (const auto& t : targets)
      if (t.kind == "cpu") cpu_id = t.id;
    if (rapl_before && rapl_after && elapsed > 0) {
      out[cpu_id] = {{"idle_power_watts", rapl_->delta_joules(*rapl_before, *rapl_after) / elapsed},
                     {"seconds", elapsed},
                     {"samples", 2},
                     {"source", "RAPL package energy counter delta / seconds"},
                     {"scope", kCpuScope}};
    } else {
      out[cpu_id] = {{"unavailable", "RAPL counters could not be read"}};
    }
  }
  return out;
}

}  // namespace
}  // namespace telemetry

std::unique_ptr<TelemetryProvider> make_telemetry_provider(
    const telemetry::TelemetryOptions& options) {
  return std::make_unique<telemetry::Provider>(options);
}

}  // namespace gpusizer
