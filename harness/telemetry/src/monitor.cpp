#include "gpusizer/telemetry/monitor.hpp"

#include <unistd.h>

#include <chrono>
#include <fstream>
#include <regex>
#include <thread>

#include "gpu_reader.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/report_io.hpp"
#include "monitor_format.hpp"
#include "nvml_devices.hpp"

namespace gpusizer::telemetry {
namespace {

using Clock = std::chrono::steady_clock;

void validate(const MonitorOptions& o) {
  if (o.format != "emf" && o.format != "prometheus")
    throw InputError("--format: expected emf or prometheus, got " + o.format);
  if (!(o.interval_seconds > 0)) throw InputError("--interval: expected a positive duration");
  if (!(o.duration_seconds >= 0)) throw InputError("--duration: expected a duration >= 0");
  static const std::regex label(R"([A-Za-z_][A-Za-z0-9_]*)");
  for (const auto& [k, v] : o.dimensions) {
    if (!std::regex_match(k, label) || k.rfind("__", 0) == 0)
      throw InputError("dimension name '" + k + "': expected [A-Za-z_][A-Za-z0-9_]*");
  }
}

std::string hostname() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

// Sleeps until `when`, waking every 100 ms to honour a stop request; false when stopped.
bool wait_until(Clock::time_point when, const std::atomic<bool>* stop) {
  while (Clock::now() < when) {
    if (stop && stop->load()) return false;
    std::this_thread::sleep_until(std::min(when, Clock::now() + std::chrono::milliseconds(100)));
  }
  return !(stop && stop->load());
}

struct Watched {
  NvmlGpuHandle gpu;
  std::unique_ptr<GpuReader> reader;
  std::optional<std::uint64_t> last_energy_mj;
};

}  // namespace

int run_monitor(const MonitorOptions& options, std::ostream& out) {
  validate(options);
  std::string why;
  auto nvml = NvmlLibrary::open(why);
  if (!nvml) throw RuntimeError("monitor: telemetry unavailable: " + why);
  std::vector<std::string> notes;
  std::vector<Watched> watched;
  for (auto& g : enumerate_gpus(*nvml, notes)) {
    auto reader = std::make_unique<GpuReader>(nvml, g.handle);
    watched.push_back(Watched{std::move(g), std::move(reader), std::nullopt});
  }
  if (watched.empty()) throw RuntimeError("monitor: NVML reports no GPU");

  std::ofstream file;
  if (!options.out_file.empty() && options.format == "emf") {
    file.open(options.out_file, std::ios::trunc);
    if (!file) throw RuntimeError("monitor: cannot write " + options.out_file);
  }
  std::ostream& lines = file.is_open() ? static_cast<std::ostream&>(file) : out;
  const std::string host = hostname();
  const auto start = Clock::now();
  const auto interval = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(options.interval_seconds));
  for (long k = 0;; ++k) {
    const double t = static_cast<double>(k) * options.interval_seconds;
    if (options.duration_seconds > 0 && t >= options.duration_seconds) break;
    if (!wait_until(start + k * interval, options.stop_requested)) break;
    const auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
    std::vector<MonitorSample> samples;
    for (auto& w : watched) {
      auto s = w.reader->read(t);
      if (!s) continue;  // lost GPU: drop it from this and later samples
      MonitorSample m{w.gpu.index, w.gpu.uuid, w.gpu.name, *s, std::nullopt};
      if (s->energy_millijoules && w.last_energy_mj && *s->energy_millijoules >= *w.last_energy_mj)
        m.interval_energy_joules =
            static_cast<double>(*s->energy_millijoules - *w.last_energy_mj) / 1000.0;
      w.last_energy_mj = s->energy_millijoules;
      samples.push_back(std::move(m));
    }
    if (options.format == "emf") {
      for (const auto& m : samples) lines << emf_line(m, host, now_ms, options) << '\n';
      lines.flush();
    } else if (!options.out_file.empty()) {
      write_file_atomically(options.out_file, prometheus_text(samples, host, options));
    } else {
      out << prometheus_text(samples, host, options) << '\n';
      out.flush();
    }
    if (!lines) throw RuntimeError("monitor: write failed");
  }
  return 0;
}

}  // namespace gpusizer::telemetry
