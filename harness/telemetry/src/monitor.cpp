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
  if (!(o.idle.max_mig_memory_used_mib > 0))
    throw InputError("--idle-mig-memory: expected a positive number of MiB");
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

// A MIG slice of a watched GPU: read through its MIG device handle (memory; utilization where
// the driver gives it).
struct WatchedSlice {
  NvmlMigDevice mig;
  std::unique_ptr<GpuReader> reader;
  std::string unavailable;  // after the first sample: what NVML does not give for it, and why
  bool first = true;
  bool reported_lost = false;
};

struct Watched {
  NvmlGpuHandle gpu;
  std::unique_ptr<GpuReader> reader;
  std::vector<WatchedSlice> slices;
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

std::string label(const NvmlGpuHandle& g, const NvmlMigDevice& m) {
  return label(g) + " MIG " + m.profile + " GI " + std::to_string(m.gpu_instance_id);
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
          "; the GPU is in MIG mode, where NVML gives no whole-GPU utilization; each MIG slice "
          "has its own series (memory used; utilization where NVML gives it per instance)";
    write_note(notes, line);
  }
  for (const auto& n : w.reader->statics().notes) {
    if (n.find("deprecated") != std::string::npos || n.find("at start-up") != std::string::npos)
      write_note(notes, "monitor: " + label(w.gpu) + ": " + n);
  }
}

// A slice's first sample: what it cannot give (utilization, on most drivers), said once on the
// notes and kept to be said in every line of its series.
void note_slice(const Watched& w, WatchedSlice& s, const GpuSample& sample, std::ostream& notes) {
  if (!sample.gpu_utilization_percent) {
    std::string why = note_about(s.reader->statics(), "utilization");
    if (why.empty()) why = "utilization: no reading";
    s.unavailable =
        "utilization_gpu, utilization_memory: NVML gives no per-instance utilization for this "
        "MIG slice (" +
        why + "); memory used is its idle signal";
  }
  if (!sample.memory_used_bytes) {
    std::string why = note_about(s.reader->statics(), "memory used");
    s.unavailable += std::string(s.unavailable.empty() ? "" : "; ") + "memory_used: unavailable (" +
                     (why.empty() ? "no reading" : why) + ")";
  }
  if (!s.unavailable.empty())
    write_note(notes, "monitor: " + label(w.gpu, s.mig) + ": " + s.unavailable);
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

// Each slice of `w` after its parent's sample `parent`: a series with the parent's labels plus
// the slice's, and its idle reading.
void read_slices(Watched& w, double t, const MonitorSample& parent, std::ostream& note,
                 std::vector<MonitorSample>& samples, std::vector<IdleReading>& round) {
  for (auto& slice : w.slices) {
    auto s = slice.reader->read(t, false);
    const std::string name = label(w.gpu, slice.mig);
    if (!s) {
      if (!slice.reported_lost)
        write_note(note, "monitor: " + name + ": " + slice.reader->lost_reason() +
                             "; no more samples from it");
      slice.reported_lost = true;
      continue;
    }
    if (slice.first) note_slice(w, slice, *s, note);
    slice.first = false;
    for (const auto& e : s->transient_errors)
      write_note(note, "monitor: " + name + ": " + e + " (transient; read again next time)");
    MonitorSample m;
    m.gpu_index = parent.gpu_index;
    m.uuid = parent.uuid;
    m.name = parent.name;
    m.pci_bus_id = parent.pci_bus_id;
    m.sample = *s;
    m.mig = MonitorMigSlice{slice.mig.profile, slice.mig.gpu_instance_id, slice.mig.uuid};
    m.unavailable = slice.unavailable;
    std::optional<double> used_mib;
    if (s->memory_used_bytes) used_mib = static_cast<double>(*s->memory_used_bytes) / 1048576.0;
    round.push_back(
        {name, s->gpu_utilization_percent, s->memory_utilization_percent, true, used_mib});
    samples.push_back(std::move(m));
  }
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
    Watched w;
    w.reader = std::make_unique<GpuReader>(nvml, g.handle);
    for (const auto& m : g.mig_devices) {
      WatchedSlice s;
      s.mig = describe_mig(*nvml, m);
      s.reader = std::make_unique<GpuReader>(nvml, m.handle, ReaderScope::mig_slice);
      w.slices.push_back(std::move(s));
    }
    if (!g.mig_enumeration_error.empty())
      notes.push_back(
          label(g) + ": MIG slices not listed, so no per-slice series: " + g.mig_enumeration_error);
    w.gpu = std::move(g);
    watched.push_back(std::move(w));
  }
  std::ostringstream discarded;
  std::ostream& note = options.notes ? *options.notes : discarded;
  for (const auto& n : notes) write_note(note, "monitor: " + n);
  if (watched.empty()) throw RuntimeError("monitor: NVML reports no GPU");

  std::ofstream file;
  if (!options.out_file.empty() && options.format == MonitorFormat::emf) {
    file.open(options.out_file, std::ios::trunc);
    if (!file) throw RuntimeError("monitor: cannot write " + options.out_file);
  }
  std::ostream& lines = file.is_open() ? static_cast<std::ostream&>(file) : out;
  MonitorHost host{hostname(), ""};
  char version[NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE] = {};
  if (nvml->api().driver_version &&
      nvml->api().driver_version(version, sizeof version) == NVML_SUCCESS)
    host.driver_version = version;
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
    std::vector<IdleReading> round;
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
      MonitorSample m;
      m.gpu_index = w.gpu.index;
      m.uuid = w.gpu.uuid;
      m.name = w.gpu.name;
      m.pci_bus_id = w.gpu.pci_bus_id;
      m.sample = *s;
      if (s->energy_millijoules && w.last_energy_mj && *s->energy_millijoules >= *w.last_energy_mj)
        m.interval_energy_joules =
            static_cast<double>(*s->energy_millijoules - *w.last_energy_mj) / 1000.0;
      w.last_energy_mj = s->energy_millijoules;
      m.memory_by_slice = !w.slices.empty();
      if (w.slices.empty())  // a MIG GPU is idle when its slices are: judged by them below
        round.push_back({label(w.gpu), s->gpu_utilization_percent, s->memory_utilization_percent,
                         false, std::nullopt});
      samples.push_back(m);
      read_slices(w, t, m, note, samples, round);
    }
    if (options.format == MonitorFormat::emf) {
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
