// Formatting monitor samples: CloudWatch Embedded Metric Format (one JSON line per GPU per
// sample) and Prometheus text exposition (one document per sample, all GPUs).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpu_sample.hpp"
#include "gpusizer/telemetry/monitor.hpp"

namespace gpusizer::telemetry {

struct MonitorSample {
  unsigned int gpu_index = 0;
  std::string uuid;
  std::string name;
  GpuSample sample;
  std::optional<double> interval_energy_joules;  // counter delta since the previous sample
};

std::string emf_line(const MonitorSample& s, const std::string& host, std::int64_t timestamp_ms,
                     const MonitorOptions& options);

std::string prometheus_text(const std::vector<MonitorSample>& samples, const std::string& host,
                            const MonitorOptions& options);

}  // namespace gpusizer::telemetry
