#include "gpusizer/bench/gbench_bridge.hpp"

#include <sstream>

#include "gpusizer/error.hpp"
#include "gpusizer/report_io.hpp"

namespace gpusizer::bench {

BenchmarkFlags parse_benchmark_flags(const std::vector<std::string>& args) {
  BenchmarkFlags flags;
  for (const auto& arg : args) {
    auto value_of = [&](const std::string& name) -> std::optional<std::string> {
      std::string prefix = "--" + name + "=";
      if (arg.rfind(prefix, 0) == 0) return arg.substr(prefix.size());
      return std::nullopt;
    };
    if (arg.rfind("--benchmark_", 0) != 0) {
      throw InputError("unknown option \"" + arg +
                       "\" (run options are listed by gpusizer run --help; Google Benchmark "
                       "flags start with --benchmark_)");
    }
    if (auto v = value_of("benchmark_out")) {
      if (v->empty()) throw InputError("--benchmark_out: expected a file name");
      flags.out = *v;
    } else if (auto f = value_of("benchmark_out_format")) {
      if (*f != "json") {
        throw InputError("--benchmark_out_format: gpusizer writes json only, got \"" + *f + "\"");
      }
    } else if (auto t = value_of("benchmark_min_time")) {
      try {
        std::size_t used = 0;
        double secs = std::stod(*t, &used);
        if (used != t->size() || !(secs > 0)) throw std::invalid_argument("bad");
        flags.min_time_seconds = secs;
      } catch (const std::exception&) {
        throw InputError("--benchmark_min_time: expected a positive number of seconds, got \"" +
                         *t + "\"");
      }
    } else if (auto fl = value_of("benchmark_filter")) {
      flags.filter = *fl;
    } else {
      flags.passthrough.push_back(arg);
    }
  }
  return flags;
}

bool GbenchCollector::ReportContext(const Context& context) {
  if (!context_) context_.emplace(context);
  return true;
}

void GbenchCollector::ReportRuns(const std::vector<Run>& runs) {
  runs_.insert(runs_.end(), runs.begin(), runs.end());
}

void GbenchCollector::write_json(const std::filesystem::path& file) const {
  if (!context_) return;
  std::ostringstream text;
  benchmark::JSONReporter json;
  json.SetOutputStream(&text);
  json.SetErrorStream(&text);
  json.ReportContext(*context_);
  if (!runs_.empty()) json.ReportRuns(runs_);
  json.Finalize();
  write_file_atomically(file, text.str());
}

void initialize_google_benchmark(const std::vector<std::string>& passthrough) {
  // Google Benchmark keeps a pointer to argv[0] for the life of the process (it is the
  // "executable" of every report context): it must outlive this call.
  static const std::string program_name = "gpusizer";
  std::vector<std::string> storage{program_name};
  storage.insert(storage.end(), passthrough.begin(), passthrough.end());
  std::vector<char*> argv{const_cast<char*>(program_name.c_str())};
  for (std::size_t i = 1; i < storage.size(); ++i) argv.push_back(storage[i].data());
  int argc = static_cast<int>(argv.size());
  benchmark::Initialize(&argc, argv.data());
  if (benchmark::ReportUnrecognizedArguments(argc, argv.data())) {
    throw InputError("unrecognized Google Benchmark flag (see --benchmark_help)");
  }
}

void run_one_benchmark(const std::string& name, std::function<void(benchmark::State&)> body,
                       GbenchCollector& collector) {
  benchmark::ClearRegisteredBenchmarks();
  benchmark::RegisterBenchmark(name.c_str(),
                               [body = std::move(body)](benchmark::State& st) { body(st); })
      ->UseManualTime()
      ->Iterations(1)
      ->Unit(benchmark::kMillisecond);
  benchmark::RunSpecifiedBenchmarks(&collector);
  benchmark::ClearRegisteredBenchmarks();
}

}  // namespace gpusizer::bench
