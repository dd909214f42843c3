#include "gpusizer/bench/checkpoint.hpp"

#include "gpusizer/bench/run_control.hpp"
#include "gpusizer/report_io.hpp"
#include "gpusizer/run_history.hpp"

namespace gpusizer::bench {

Checkpoint::Checkpoint(Report& report, std::filesystem::path out,
                       std::optional<std::filesystem::path> benchmark_out)
    : report_(report), out_(std::move(out)), benchmark_out_(std::move(benchmark_out)) {}

void Checkpoint::save(const GbenchCollector* collector) {
  update_session(report_, ReportStatus::running, "", "");
  save_report(report_, out_);
  if (benchmark_out_ && collector) collector->write_json(*benchmark_out_);
}

void Checkpoint::finish(const std::string& stop_cause, const GbenchCollector& collector) {
  finish_report(report_, stop_cause);
  save_report(report_, out_);
  if (benchmark_out_) collector.write_json(*benchmark_out_);
}

}  // namespace gpusizer::bench
