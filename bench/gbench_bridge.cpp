#include "gpusizer/bench/gbench_bridge.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <initializer_list>
#include <sstream>

#include "gpusizer/error.hpp"
#include "gpusizer/report_io.hpp"

namespace gpusizer::bench {
namespace {

// Google Benchmark parses its numeric flags itself and takes anything: a negative repetition
// count reached std::vector::reserve ("error: vector::reserve"), a value out of int32 range
// printed a WARNING and then "unrecognized flag". gpusizer checks them first, naming the flag.
void check_count_flag(const std::string& flag, const std::string& text, long long max) {
  long long v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < 1 || v > max) {
    throw InputError("--" + flag + ": expected a whole number from 1 to " + std::to_string(max) +
                     ", got \"" + text + "\"");
  }
}

// Seconds: finite, >= 0 (or > 0 when `positive`), at most a day per case.
double seconds_flag(const std::string& flag, const std::string& text, bool positive) {
  constexpr double kMaxSeconds = 86400;
  double secs = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), secs);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(secs) || secs < 0 ||
      (positive && secs == 0) || secs > kMaxSeconds) {
    throw InputError("--" + flag + ": expected " + (positive ? "a positive" : "a non-negative") +
                     " number of seconds, at most 86400, got \"" + text + "\"");
  }
  return secs;
}

// Google Benchmark's boolean values (IsTruthyFlagValue in 1.7.1): these, in any case.
bool truthy(const std::string& flag, const std::string& text) {
  std::string v;
  for (char c : text) v += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (v == "true" || v == "yes" || v == "on" || v == "1" || v == "t" || v == "y") return true;
  if (v == "false" || v == "no" || v == "off" || v == "0" || v == "f" || v == "n") return false;
  throw InputError("--" + flag + ": expected true or false, got \"" + text + "\"");
}

// The flags whose value Google Benchmark checks only when it starts (and then ends the process
// with its usage text, or calls the flag unrecognized).
void check_value_of_passthrough(const std::string& arg) {
  const auto eq = arg.find('=');
  if (eq == std::string::npos) return;
  const std::string flag = arg.substr(2, eq - 2);
  const std::string value = arg.substr(eq + 1);
  auto one_of = [&](std::initializer_list<const char*> allowed) {
    std::string list;
    for (const char* a : allowed) {
      if (value == a) return;
      list += (list.empty() ? "" : ", ") + std::string(a);
    }
    throw InputError("--" + flag + ": expected one of " + list + ", got \"" + value + "\"");
  };
  if (flag == "benchmark_format") {
    one_of({"console", "json", "csv"});
  } else if (flag == "benchmark_time_unit") {
    one_of({"ns", "us", "ms", "s"});
  } else if (flag == "benchmark_color" && value.empty()) {
    throw InputError("--benchmark_color: expected auto, true or false, got \"\"");
  } else if (flag == "benchmark_enable_random_interleaving" ||
             flag == "benchmark_report_aggregates_only" ||
             flag == "benchmark_display_aggregates_only" || flag == "benchmark_counters_tabular") {
    truthy(flag, value);
  }
}

}  // namespace

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
      flags.min_time_seconds = seconds_flag("benchmark_min_time", *t, true);
    } else if (auto r = value_of("benchmark_repetitions")) {
      // gpusizer applies repetitions itself, capped by the time left (run_control.hpp).
      // Any count up to 10^9 is accepted here and then capped to what the time allows.
      check_count_flag("benchmark_repetitions", *r, kMaxBenchmarkRepetitions);
      flags.repetitions = std::stoll(*r);
    } else if (auto fl = value_of("benchmark_filter")) {
      flags.filter = *fl;
    } else if (arg == "--benchmark_list_tests") {
      flags.list_tests = true;
    } else if (auto l = value_of("benchmark_list_tests")) {
      flags.list_tests = truthy("benchmark_list_tests", *l);
    } else {
      check_value_of_passthrough(arg);
      if (auto w = value_of("benchmark_min_warmup_time")) {
        seconds_flag("benchmark_min_warmup_time", *w, false);
      } else if (arg == "--benchmark_repetitions" || arg == "--benchmark_min_warmup_time" ||
                 arg == "--benchmark_min_time") {
        throw InputError(arg + ": expected " + arg + "=<value>");
      }
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
  // What Initialize left in argv it did not recognize (its own report would be a second line).
  if (argc > 1) {
    throw InputError("unrecognized Google Benchmark flag \"" + std::string(argv[1]) +
                     "\" (see --benchmark_help)");
  }
}

void run_one_benchmark(const std::string& name, std::function<void(benchmark::State&)> body,
                       GbenchCollector& collector, int repetitions) {
  benchmark::ClearRegisteredBenchmarks();
  benchmark::RegisterBenchmark(name.c_str(),
                               [body = std::move(body)](benchmark::State& st) { body(st); })
      ->UseManualTime()
      ->Iterations(1)
      ->Repetitions(repetitions)
      ->Unit(benchmark::kMillisecond);
  benchmark::RunSpecifiedBenchmarks(&collector);
  benchmark::ClearRegisteredBenchmarks();
}

}  // namespace gpusizer::bench
