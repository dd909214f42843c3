#include "gpusizer/telemetry/monitor.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "gpu_reader.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/report_io.hpp"
#include "gpusizer/text.hpp"
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
  if (!(o.idle.idle_after_seconds >= 0)) throw InputError("--idle-after: expected a duration >= 0");
  if (!o.on_idle_command.empty() && !(o.idle.idle_after_seconds > 0))
    throw InputError("--on-idle: needs --idle-after (how long every GPU must be idle)");
  if (!(o.idle.grace_seconds >= 0)) throw InputError("--idle-grace: expected a duration >= 0");
  if (!(o.idle.max_utilization_percent > 0 && o.idle.max_utilization_percent <= 100))
    throw InputError("--idle-utilization: expected a percentage in (0, 100]");
  if (!(o.idle.max_memory_activity_percent > 0 && o.idle.max_memory_activity_percent <= 100))
    throw InputError("--idle-memory-activity: expected a percentage in (0, 100]");
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
  bool first = true;
  bool reported_lost = false;
};

// One note line, its NVML strings escaped (escape_control): a GPU name never drives the terminal.
void write_note(std::ostream& notes, const std::string& line) {
  notes << escape_control(line) << '\n';
}

std::string label(const NvmlGpuHandle& g) {
  return "GPU " + std::to_string(g.index) + " (" + g.uuid + ")";
}

// The reader's note about `metric` ("utilization: Not Supported (code 3)"), if any.
std::string note_about(const GpuStatics& statics, const std::string& metric) {
  for (const auto& n : statics.notes) {
    if (n.rfind(metric, 0) == 0) return n;
  }
  return "";
}

// After a GPU's first sample: each exported series it cannot give, and why.
void note_unavailable_series(const Watched& w, const GpuSample& s, std::ostream& notes) {
  struct Series {
    const char* names;
    const char* metric;  // the reader's name for it, as its notes start
    bool present;
  };
  const Series series[] = {
      {"utilization_gpu, utilization_memory", "utilization", s.gpu_utilization_percent.has_value()},
      {"power_watts", "power", s.power_watts.has_value()},
      {"energy_joules", "energy counter", s.energy_millijoules.has_value()},
      {"sm_clock_mhz", "SM clock", s.sm_clock_mhz.has_value()},
      {"memory_clock_mhz", "memory clock", s.memory_clock_mhz.has_value()},
      {"temperature_celsius", "temperature", s.temperature_celsius.has_value()},
      {"throttled, power_capped, clock_event_reason", "clock-event reasons",
       s.clock_event_reasons.has_value()},
      {"ecc_corrected_volatile, ecc_uncorrected_volatile", "ECC counters",
       s.ecc_corrected_volatile.has_value()},
  };
  const bool mig = w.gpu.mig_current && *w.gpu.mig_current == NVML_DEVICE_MIG_ENABLE;
  for (const auto& x : series) {
    if (x.present) continue;
    std::string why = note_about(w.reader->statics(), x.metric);
    if (why.empty()) why = std::string(x.metric) + ": no reading";
    std::string line = "monitor: " + label(w.gpu) + ": " + x.names + " unavailable (" + why + ")";
    if (mig && std::string(x.metric) == "utilization")
      line +=
          "; the GPU is in MIG mode, where NVML gives no whole-GPU utilization; per-instance "
          "GPM metrics are not collected by gpusizer";
    write_note(notes, line);
  }
  for (const auto& n : w.reader->statics().notes) {
    if (n.find("deprecated") != std::string::npos || n.find("at start-up") != std::string::npos)
      write_note(notes, "monitor: " + label(w.gpu) + ": " + n);
  }
}

// Runs `command` with /bin/sh -c and waits; returns its exit status text and whether it succeeded.
bool run_command(const std::string& command, std::string& status) {
  const int rc = std::system(command.c_str());  // NOLINT(cert-env33-c): the user's own command
  if (rc == -1) {
    status = "could not be started";
    return false;
  }
  if (WIFEXITED(rc)) {
    status = "exited " + std::to_string(WEXITSTATUS(rc));
    return WEXITSTATUS(rc) == 0;
  }
  status = WIFSIGNALED(rc) ? "killed by signal " + std::to_string(WTERMSIG(rc)) : "failed";
  return false;
}

// Every GPU idle long enough: say why, run the command once (unless a dry run), and give the
// exit code.
int act_on_idle(const IdleDecision& d, const MonitorOptions& options, std::ostream& note) {
  note << "monitor: idle: " << d.reason << '\n';
  if (options.on_idle_command.empty()) {
    note << "monitor: idle: no --on-idle command; exiting " << kMonitorExitIdle
         << " for the scheduler to act\n";
    return kMonitorExitIdle;
  }
  if (options.dry_run) {
    note << "monitor: idle: dry run: would run: " << options.on_idle_command
         << " (--no-dry-run to run it)\n";
    return kMonitorExitIdle;
  }
  note << "monitor: idle: running: " << options.on_idle_command << '\n';
  note.flush();
  std::string status;
  const bool ok = run_command(options.on_idle_command, status);
  note << "monitor: idle: the command " << status << '\n';
  return ok ? kMonitorExitIdle : kMonitorExitIdleCommandFailed;
}

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
    watched.push_back(Watched{std::move(g), std::move(reader), std::nullopt, true, false});
  }
  std::ostringstream discarded;
  std::ostream& note = options.notes ? *options.notes : discarded;
  for (const auto& n : notes) write_note(note, "monitor: " + n);
  if (watched.empty()) throw RuntimeError("monitor: NVML reports no GPU");

  std::ofstream file;
  if (!options.out_file.empty() && options.format == "emf") {
    file.open(options.out_file, std::ios::trunc);
    if (!file) throw RuntimeError("monitor: cannot write " + options.out_file);
  }
  std::ostream& lines = file.is_open() ? static_cast<std::ostream&>(file) : out;
  const std::string host = hostname();
  IdleWatch idle(options.idle);
  std::string last_undecidable;
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
      auto s = w.reader->read(t, true);
      if (!s) {  // lost GPU: drop it from this and later samples
        if (!w.reported_lost)
          write_note(note, "monitor: " + label(w.gpu) + ": " + w.reader->lost_reason() +
                               "; no more samples from it");
        w.reported_lost = true;
        continue;
      }
      if (w.first) note_unavailable_series(w, *s, note);
      w.first = false;
      for (const auto& e : s->transient_errors)
        write_note(note,
                   "monitor: " + label(w.gpu) + ": " + e + " (transient; read again next time)");
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
    if (options.idle.idle_after_seconds > 0) {
      std::vector<IdleReading> round;
      for (const auto& m : samples)
        round.push_back({"GPU " + std::to_string(m.gpu_index) + " (" + m.uuid + ")",
                         m.sample.gpu_utilization_percent, m.sample.memory_utilization_percent});
      const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
      if (auto decision = idle.update(elapsed, round)) return act_on_idle(*decision, options, note);
      if (!idle.undecidable().empty() && idle.undecidable() != last_undecidable)
        note << "monitor: idle: cannot tell whether the GPUs are idle: " << idle.undecidable()
             << " (never released while so)\n";
      last_undecidable = idle.undecidable();
    }
    note.flush();
  }
  return 0;
}

}  // namespace gpusizer::telemetry
