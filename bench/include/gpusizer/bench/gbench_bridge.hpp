// Google Benchmark integration. Each case is registered alone and run with RunSpecifiedBenchmarks,
// so the runner controls order, time budget, resume and checkpointing between cases, while
// Google Benchmark's flags (--benchmark_repetitions, --benchmark_out, ...) keep working.
// Every case runs with UseManualTime and one iteration per repetition: the iteration's time is the
// median per-op time the sampler measured with the backend's timer (CUDA events or steady clock),
// so Google Benchmark's rate counters divide by device time, never by host CPU time.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

namespace gpusizer::bench {

// Flags gpusizer interprets itself; the rest go to benchmark::Initialize.
struct BenchmarkFlags {
  std::vector<std::string> passthrough;      // for benchmark::Initialize
  std::optional<std::filesystem::path> out;  // --benchmark_out (--benchmark_out_format: json only)
  std::optional<double> min_time_seconds;    // --benchmark_min_time
  std::optional<std::string> filter;         // --benchmark_filter
  // --benchmark_repetitions: applied per case by the runner, capped by the time left.
  std::optional<std::int64_t> repetitions;
  // --benchmark_list_tests[=true]: gpusizer lists its planned ids (run --list) instead.
  bool list_tests = false;
};

// The most --benchmark_repetitions gpusizer accepts.
inline constexpr long long kMaxBenchmarkRepetitions = 1000000000;  // then capped by the time left

// Splits and checks --benchmark_* flags (numeric values included: one InputError naming the
// flag); throws InputError on anything else, and on the values Google Benchmark 1.7.1 would end
// the process for (--benchmark_format, --benchmark_color, --benchmark_time_unit) or not take
// (--v), so a run never starts with a flag Google Benchmark rejects later.
BenchmarkFlags parse_benchmark_flags(const std::vector<std::string>& args);

// Collects Google Benchmark's own run reports so --benchmark_out can be rewritten (atomically)
// after every case with everything measured so far.
class GbenchCollector final : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  // Writes the Google Benchmark JSON of all runs so far.
  void write_json(const std::filesystem::path& file) const;

 private:
  std::optional<Context> context_;
  std::vector<Run> runs_;
};

// Initializes Google Benchmark once per process with the passthrough flags.
void initialize_google_benchmark(const std::vector<std::string>& passthrough);

// Registers one benchmark under `name` whose body is `body` and runs it `repetitions` times;
// reports go to `collector`.
void run_one_benchmark(const std::string& name, std::function<void(benchmark::State&)> body,
                       GbenchCollector& collector, int repetitions = 1);

}  // namespace gpusizer::bench
