// A plain Google Benchmark 1.7.1 program, as a user would write one, to capture real JSON output.
#include <benchmark/benchmark.h>
#include <cstring>
#include <vector>
static void BM_memcpy(benchmark::State& state) {
  std::vector<char> a(1 << 20, 1), b(1 << 20);
  for (auto _ : state) {
    std::memcpy(b.data(), a.data(), a.size());
    state.SetIterationTime(1e-4);
    benchmark::DoNotOptimize(b.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * (1 << 20));
}
BENCHMARK(BM_memcpy)->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
