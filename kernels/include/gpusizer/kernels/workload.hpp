// The unit of measurable work. A backend (CPU, CUDA) prepares a Workload once (allocates, fills
// inputs, creates handles); the runner then asks it for timed runs, and finally to verify its
// output. Public headers are free of CUDA types.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "gpusizer/report.hpp"
#include "gpusizer/vocabulary.hpp"

namespace gpusizer {

// A workload's headline rate, also the record's first metric name: bytes moved per second
// (B/s) or operations per second (FLOP/s).
#define GPUSIZER_RATE_METRIC_VALUES(X) X(bandwidth, "bandwidth") X(throughput, "throughput")
GPUSIZER_VOCABULARY(RateMetric, GPUSIZER_RATE_METRIC_VALUES)

}  // namespace gpusizer

namespace gpusizer::kernels {

// How much work one operation does, and the counting rule stated in words for the report.
struct WorkAmount {
  double bytes = 0;  // bytes moved, by the stated rule (1 GB = 1e9 B)
  double flops = 0;  // floating-point (or integer) operations, FLOP = 2*M*N*K for GEMM
  std::string rule;  // "bytes = 3 x 8 B x N (BabelStream triad weight)"
  RateMetric rate_metric = RateMetric::bandwidth;  // the headline metric
  // Collectives: the record's "busbw" = median algbw (bytes / median time) x this factor
  // (nccl-tests' bus bandwidth: 2(n-1)/n all_reduce, (n-1)/n all_gather, reduce_scatter and
  // all_to_all, 1 broadcast). 0 = no bus bandwidth.
  double bus_bandwidth_factor = 0;
};

class Workload {
 public:
  virtual ~Workload() = default;
  Workload() = default;
  Workload(const Workload&) = delete;
  Workload& operator=(const Workload&) = delete;

  // Runs the operation `repeats` times back to back and returns the elapsed seconds measured by
  // the backend's own timer (steady clock on the CPU, CUDA events on a GPU).
  virtual double run(std::size_t repeats) = 0;
  // Called once before sampling: first-touch, module load, handle/heuristic warm-up.
  virtual void warm_up() { run(1); }
  // Checks the output of the last run (the record's Verification, report.hpp, as it is). Must be
  // able to fail.
  virtual Verification verify() = 0;
  virtual WorkAmount work_per_op() const = 0;
  virtual Timer timer() const = 0;
  // hot: caches warm, back-to-back; cold: caches flushed before each sample
  virtual CacheMode mode() const { return CacheMode::hot; }
  // Facts worth recording: algorithm chosen, I/O mode, NUMA node, threads...
  virtual std::map<std::string, std::string> details() const { return {}; }
  // Extra figures measured alongside the time (e.g. I/O stage busy fractions). name -> value.
  // Units follow the name suffix: *_fraction (1), *_bytes_per_second (B/s), *_seconds (s).
  virtual std::map<std::string, double> extra_metrics() const { return {}; }
  // Conditions that qualify the figure, added to the record's flags (e.g.
  // "io_directory_in_memory": the I/O test file sat on tmpfs, so storage was RAM).
  virtual std::vector<std::string> flags() const { return {}; }
  // Peak rate this operation could reach on this target (same unit as the headline rate:
  // B/s or FLOP/s), with its source; 0 when unknown (then no ratio is reported, not a guess).
  virtual double peak_rate() const { return 0; }
  virtual std::string peak_source() const { return ""; }
};

}  // namespace gpusizer::kernels
