// The report on disk after every case: rewritten atomically with the run still "running", and
// Google Benchmark's own JSON (--benchmark_out) beside it, so an interrupted run loses nothing
// finished. At the end the report is finished (run_control.hpp: status, history) and written once
// more.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "gpusizer/bench/gbench_bridge.hpp"
#include "gpusizer/report.hpp"

namespace gpusizer::bench {

class Checkpoint {
 public:
  Checkpoint(Report& report, std::filesystem::path out,
             std::optional<std::filesystem::path> benchmark_out);
  // The run so far; `collector`: Google Benchmark's runs so far (null before the first case).
  void save(const GbenchCollector* collector);
  // The run's end: finish_report(stop_cause), then the last write.
  void finish(const std::string& stop_cause, const GbenchCollector& collector);

 private:
  Report& report_;
  std::filesystem::path out_;
  std::optional<std::filesystem::path> benchmark_out_;
};

}  // namespace gpusizer::bench
