// TelemetryProvider over NVML and RAPL: picks the physical GPU behind each target and builds
// its probe; measures idle power once per run. NVML is reached through GpuBoards only, so this
// file builds the same without nvml.h (then every GPU window says why telemetry is off).
#include <chrono>
#include <thread>

#include "gpu_boards.hpp"
#include "gpu_probe.hpp"
#include "gpusizer/host_info.hpp"
#include "gpusizer/telemetry/telemetry.hpp"
#include "rapl_probe.hpp"
#include "window_summary.hpp"

namespace gpusizer {
namespace telemetry {
namespace {

constexpr const char* kGpuScope = "GPU board power (NVML)";
constexpr const char* kCpuScope = "CPU package (RAPL)";

class Provider final : public TelemetryProvider {
 public:
  explicit Provider(const TelemetryOptions& options) : options_(options) {
    if (!options_.enabled) {
      nvml_reason_ = rapl_reason_ = "telemetry disabled by the user";
      return;
    }
    boards_ = open_gpu_boards(nvml_reason_);
    rapl_ = RaplReader::open(sysfs_root(), rapl_reason_);
  }

  std::unique_ptr<TelemetryProbe> probe_for(const Target& target) override {
    if (target.kind == TargetKind::cpu) {
      if (!rapl_) return std::make_unique<UnavailableProbe>(kCpuScope, rapl_reason_);
      return std::make_unique<RaplProbe>(*rapl_, options_.sample_period_seconds);
    }
    if (!boards_) return std::make_unique<UnavailableProbe>(kGpuScope, nvml_reason_);
    std::string why;
    auto match = boards_->find(target, why);
    if (!match) return std::make_unique<UnavailableProbe>(kGpuScope, why);
    return std::make_unique<GpuProbe>(std::move(match->sensor), options_.sample_period_seconds,
                                      std::move(match->attribution));
  }

  nlohmann::json measure_idle(const std::vector<Target>& targets) override;

 private:
  TelemetryOptions options_;
  std::unique_ptr<GpuBoards> boards_;  // null when NVML is unavailable (nvml_reason_ says why)
  std::string nvml_reason_;
  std::optional<RaplReader> rapl_;
  std::string rapl_reason_;
};

nlohmann::json idle_from_gpu(const std::vector<GpuSample>& samples, const GpuSensor& reader) {
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
    std::shared_ptr<GpuSensor> reader;
    std::vector<GpuSample> samples;
  };
  std::vector<GpuIdle> gpus;
  bool want_cpu = false;
  for (const auto& t : targets) {
    if (t.kind == TargetKind::cpu) {
      if (rapl_)
        want_cpu = true;
      else
        out[t.id] = {{"unavailable", rapl_reason_}};
    } else if (t.kind == TargetKind::mig) {
      out[t.id] = {{"unavailable", "board power is per physical GPU; see the idle power of " +
                                       t.parent.value_or("the parent GPU")}};
    } else if (t.kind == TargetKind::gpu) {
      std::string why = nvml_reason_;
      std::optional<BoardMatch> m;
      if (boards_) m = boards_->find(t, why);
      if (!m)
        out[t.id] = {{"unavailable", why}};
      else
        gpus.push_back({t.id, std::move(m->sensor), {}});
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
      if (t.kind == TargetKind::cpu) cpu_id = t.id;
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
