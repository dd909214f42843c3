// gpusizer_sampler_overhead [--rounds R] [--window-seconds S] [--bytes N]
// What GPU telemetry sampling costs a benchmark, on the CPU path with the fake NVML made to cost
// what a real driver does (scenarios/driver_latency.json: 3.3 ms per energy-counter call, 8 us
// per other call, one lock for the library; measured on an H200, driver 580). Each round runs
// one window of back-to-back memcpy of N bytes (gpusizer's CPU memcpy case) per configuration:
// no probe, the GPU probe at 100 ms (the default) and at 25 ms (the old default); the order
// rotates every round. Prints per configuration the median copy rate over the rounds, the
// median of its per-round ratio to the no-probe window of the same round (pairing cancels the
// drift of a shared machine), the CPU time the sampler thread used per second of window (what
// it takes from the benchmark's cores, independent of machine load), the samples per window,
// the measured cost of one sample and the share of the window the sampler held the (fake)
// driver lock. GPUSIZER_NVML_LIBRARY / GPUSIZER_FAKE_NVML_SCENARIO, when set, replace the built-in
// paths. A benchmark to rerun, not a test: docs/telemetry.md quotes its output.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "gpu_reader.hpp"
#include "gpusizer/telemetry/telemetry.hpp"
#include "nvml_devices.hpp"

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  int rounds = 7;
  double window_seconds = 1.0;
  std::size_t bytes = std::size_t{64} << 20;
};

double cpu_seconds(clockid_t clock) {
  timespec ts{};
  ::clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Copies for `seconds`; returns bytes per second.
double copy_for(double seconds, std::vector<char>& from, std::vector<char>& to) {
  const auto start = Clock::now();
  std::size_t bytes = 0;
  double elapsed = 0;
  do {
    std::memcpy(to.data(), from.data(), from.size());
    bytes += from.size();
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  } while (elapsed < seconds);
  return static_cast<double>(bytes) / elapsed;
}

// Mean seconds of one periodic sample (no counters) and one window-end sample (counters).
std::pair<double, double> sample_cost() {
  using namespace gpusizer::telemetry;
  std::string why;
  auto nvml = NvmlLibrary::open(why);
  if (!nvml) throw std::runtime_error(why);
  std::vector<std::string> notes;
  auto gpus = enumerate_gpus(*nvml, notes);
  if (gpus.empty()) throw std::runtime_error("the fake NVML has no GPU");
  GpuReader reader(nvml, gpus[0].handle);
  auto time = [&](bool counters) {
    constexpr int kReads = 30;
    const auto start = Clock::now();
    for (int i = 0; i < kReads; ++i) reader.read(0, counters);
    return std::chrono::duration<double>(Clock::now() - start).count() / kReads;
  };
  return {time(false), time(true)};
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--rounds")
      opt.rounds = std::atoi(argv[i + 1]);
    else if (flag == "--window-seconds")
      opt.window_seconds = std::atof(argv[i + 1]);
    else if (flag == "--bytes")
      opt.bytes = std::strtoull(argv[i + 1], nullptr, 10);
    else
      return std::fprintf(stderr, "unknown argument %s\n", flag.c_str()), 2;
  }
  if (opt.rounds < 1 || !(opt.window_seconds > 0) || opt.bytes == 0) return 2;
  ::setenv("GPUSIZER_NVML_LIBRARY", GPUSIZER_FAKE_NVML_PATH, 0);
  ::setenv("GPUSIZER_FAKE_NVML_SCENARIO",
           GPUSIZER_SOURCE_DIR "/tests/telemetry/scenarios/driver_latency.json", 0);

  std::vector<char> from(opt.bytes, 1), to(opt.bytes, 0);
  struct Config {
    const char* name;
    double period;  // 0: no probe
    std::unique_ptr<gpusizer::TelemetryProvider> provider;
    std::unique_ptr<gpusizer::TelemetryProbe> probe;
    std::vector<double> rates;
    std::vector<double> ratios;       // rate / the no-probe rate of the same round
    std::vector<double> sampler_cpu;  // sampler-thread CPU seconds per window second
    std::vector<double> samples;
  };
  std::vector<Config> configs;
  for (auto [name, period] : {std::pair{"no probe", 0.0}, {"100 ms", 0.1}, {"25 ms", 0.025}}) {
    Config c{name, period, nullptr, nullptr, {}, {}, {}, {}};
    if (period > 0) {
      gpusizer::telemetry::TelemetryOptions o;
      o.sample_period_seconds = period;
      c.provider = gpusizer::make_telemetry_provider(o);
      gpusizer::Target gpu;
      gpu.id = "gpu0";
      gpu.kind = gpusizer::TargetKind::gpu;
      gpu.index = 0;
      c.probe = c.provider->probe_for(gpu);
    }
    configs.push_back(std::move(c));
  }
  copy_for(0.2, from, to);  // warm up: pages touched, clocks up
  for (int r = 0; r < opt.rounds; ++r) {
    for (std::size_t k = 0; k < configs.size(); ++k) {
      Config& c = configs[(k + static_cast<std::size_t>(r)) % configs.size()];
      const double process0 = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
      const double thread0 = cpu_seconds(CLOCK_THREAD_CPUTIME_ID);
      if (c.probe) c.probe->begin();
      c.rates.push_back(copy_for(opt.window_seconds, from, to));
      // Everything but this thread's copying: the sampler thread (and begin/end's own reads).
      const double others = (cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - process0) -
                            (cpu_seconds(CLOCK_THREAD_CPUTIME_ID) - thread0);
      c.sampler_cpu.push_back(std::max(0.0, others) / opt.window_seconds);
      if (c.probe) {
        const auto w = c.probe->end();
        if (w.source != gpusizer::TelemetrySource::nvml)
          return std::fprintf(stderr, "%s\n", w.unavailable_reason.c_str()), 1;
        c.samples.push_back(static_cast<double>(w.sample_count));
      }
    }
  }
  for (auto& c : configs) {
    for (std::size_t r = 0; r < c.rates.size(); ++r)
      c.ratios.push_back(c.rates[r] / configs[0].rates[r]);
  }
  const auto [periodic, ends] = sample_cost();
  std::printf(
      "sampler overhead: %d rounds of %.2f s memcpy windows (%zu B), fake NVML with "
      "driver latency (driver_latency.json)\n",
      opt.rounds, opt.window_seconds, opt.bytes);
  std::printf(
      "one sample: %.3f ms (periodic), %.3f ms (window ends, with ECC and memory "
      "counters)\n",
      periodic * 1e3, ends * 1e3);
  for (const auto& c : configs) {
    const double rate = median(c.rates);
    std::printf(
        "%-9s median %.2f GB/s (min %.2f, max %.2f), paired change %+.2f %% vs no probe, "
        "sampler CPU %.2f %% of a core",
        c.name, rate / 1e9, *std::min_element(c.rates.begin(), c.rates.end()) / 1e9,
        *std::max_element(c.rates.begin(), c.rates.end()) / 1e9, (median(c.ratios) - 1.0) * 100.0,
        median(c.sampler_cpu) * 100.0);
    if (!c.samples.empty()) {
      const double n = median(c.samples);
      const double held = ((n - 2) * periodic + 2 * ends) / opt.window_seconds;
      std::printf(", %.0f samples/window, NVML lock held %.1f %% of the window", n, held * 100.0);
    }
    std::printf("\n");
  }
  return 0;
}
