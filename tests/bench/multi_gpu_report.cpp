#include "multi_gpu_report.hpp"

#include <memory>
#include <tuple>
#include <vector>

#include "gpusizer/bench/case.hpp"
#include "gpusizer/bench/record_builder.hpp"
#include "gpusizer/clock.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/host_info.hpp"
#include "gpusizer/telemetry_combine.hpp"

namespace gpusizer::test {
namespace {

using namespace kernels;

[[noreturn]] void not_here() {
  throw Unsupported("stand-in for a GPU: nothing runs in this test");
}

// What the CUDA backend lists for a GPU (kernels::gpu_copy_kinds, kernels::gpu_gemm_dtypes).
class StandInGpu final : public Backend {
 public:
  explicit StandInGpu(int index) {
    target_.id = "gpu" + std::to_string(index);
    target_.kind = TargetKind::gpu;
    target_.name = "NVIDIA H200";
    target_.uuid = "GPU-" + std::to_string(index) + "0000000-0000-0000-0000-000000000000";
    target_.index = index;
    target_.memory_bytes = 150754820096;
    target_.attributes = {{"compute_capability", "9.0"}, {"sm_count", 132}};
  }
  const Target& target() const override { return target_; }
  std::unique_ptr<Workload> stream(const StreamCase&) override { not_here(); }
  std::unique_ptr<Workload> copy(const CopyCase&) override { not_here(); }
  std::unique_ptr<Workload> gemm(const GemmCase&) override { not_here(); }
  std::unique_ptr<Workload> io_pipeline(const IoCase&) override { not_here(); }
  std::vector<CopyKind> copy_kinds() const override { return kernels::gpu_copy_kinds(); }
  std::vector<Dtype> gemm_dtypes() const override { return kernels::gpu_gemm_dtypes(); }

 private:
  Target target_;
};

class StandInMultiGpu final : public MultiGpu {
 public:
  int gpu_count() const override { return 2; }
  std::vector<std::string> target_ids() const override { return {"gpu0", "gpu1"}; }
  std::string peer_unavailable_reason(int, int) const override { return ""; }
  std::unique_ptr<Workload> p2p_copy(const P2pCase&) override { not_here(); }
  std::unique_ptr<Workload> all_to_host(const AllHostCase&) override { not_here(); }
};

class StandInNccl final : public CollectiveGroup {
 public:
  int ranks() const override { return 2; }
  std::vector<std::string> target_ids() const override { return {"gpu0", "gpu1"}; }
  std::unique_ptr<Workload> collective(const CollectiveCase&) override { not_here(); }
};

Discovery two_gpu_machine() {
  Discovery d;
  d.backends.push_back(make_cpu_backend());
  d.backends.push_back(std::make_unique<StandInGpu>(0));
  d.backends.push_back(std::make_unique<StandInGpu>(1));
  d.multi_gpu = std::make_unique<StandInMultiGpu>();
  d.collectives = std::make_unique<StandInNccl>();
  return d;
}

bench::CaseList planned(Discovery& d, bench::Suite suite = bench::Suite::quick, bool tiny = false) {
  bench::SuiteContext ctx;
  ctx.suite = suite;
  ctx.tiny = tiny;
  ctx.discovery = &d;
  ctx.io_directory = "/mnt/nvme";
  return bench::plan_cases(ctx);
}

// One GPU's window; gpu1 saw a corrected ECC error and a row remap, so the sums carry them.
TelemetryWindow gpu_window(const std::string& id, double seconds) {
  TelemetryWindow w;
  w.source = TelemetrySource::nvml;
  w.scope = "GPU board power (NVML)";
  w.duration_seconds = seconds;
  w.sample_count = 10;
  w.sample_period_seconds = 0.025;
  w.energy_joules = 600 * seconds;
  w.energy_method = "energy counter delta";
  w.energy_integrated_joules = 598 * seconds;
  w.power_field = "instant";
  w.power_mean_watts = 600;
  w.power_peak_watts = 690;
  w.power_p5_watts = 560;
  w.power_p95_watts = 680;
  w.sm_clock_mean_mhz = 1755;
  w.sm_clock_default_mhz = 1980;
  w.sm_clock_default_source = "default applications clock";
  w.sm_clock_ratio = 1755.0 / 1980;
  w.memory_clock_mean_mhz = 3201;
  w.gpu_utilization_mean_percent = 100;
  w.memory_utilization_mean_percent = 40;
  w.temperature_max_celsius = 61;
  w.throttle_reasons = {"sw_power_cap"};
  w.throttled = true;
  w.ecc_corrected_delta = id == "gpu1" ? 1 : 0;
  w.ecc_uncorrected_delta = 0;
  w.ecc_errors_during_run = id == "gpu1";
  w.remapped_rows_corrected_delta = id == "gpu1" ? 1 : 0;
  w.remapped_rows_uncorrected_delta = 0;
  w.row_remap_pending = id == "gpu1";
  w.memory_errors_during_run = id == "gpu1";
  w.attribution = "whole device";
  w.notes = {id + ": retired pages: Not Supported (code 3)"};
  return w;
}

bench::CaseOutcome outcome_for(const bench::BenchCase& c) {
  bench::CaseOutcome o;
  o.started_at = "2026-11-30T10:00:00.000Z";
  o.duration_seconds = 0.5;
  const bool on_gpu = c.targets.front() != "cpu";
  if (c.parameters.contains("m")) {  // GEMM: FLOP = 2*M*N*K
    o.work.flops = 2.0 * c.parameters["m"].get<double>() * c.parameters["n"].get<double>() *
                   c.parameters["k"].get<double>();
    o.work.rule = "FLOP = 2*M*N*K";
    o.work.rate_metric = RateMetric::throughput;
  } else {
    o.work.bytes = 1e9;
    o.work.rule = "placeholder: 1e9 B per op";
  }
  const double rate = o.work.rate_metric == RateMetric::throughput ? (on_gpu ? 4e14 : 1e12)
                                                                   : (on_gpu ? 1e12 : 5e10);
  const double per_op = (o.work.flops > 0 ? o.work.flops : o.work.bytes) / rate;
  bench::SampleSet set;
  set.seconds_per_op = {per_op, per_op * 1.01, per_op * 0.99, per_op * 1.002};
  set.ops_per_sample = 1;
  set.total_ops = 5;
  set.measured_seconds = 4 * per_op;
  set.wall_seconds = 5 * per_op;
  set.stop = StopReason::converged;
  o.repetitions = {set};
  o.timer = on_gpu ? Timer::cuda_events : Timer::steady_clock;
  o.mode = CacheMode::hot;
  o.verification = {VerificationStatus::passed, "byte pattern", "0 wrong bytes"};
  o.details = {{"source", "multi_gpu_report fixture"}};
  if (c.parameters.contains("busbw_factor"))
    o.work.bus_bandwidth_factor = c.parameters["busbw_factor"].get<double>();
  if (on_gpu) {
    std::vector<TelemetryWindow> per_gpu;
    for (const auto& t : c.targets) per_gpu.push_back(gpu_window(t, 4 * per_op));
    o.windows = {combine_across_devices(per_gpu)};
    o.idle_power_watts = 75.0 * static_cast<double>(c.targets.size());
  } else {
    TelemetryWindow w;
    w.source = TelemetrySource::unavailable;
    w.scope = "CPU package (RAPL)";
    w.unavailable_reason = "/sys/class/powercap/intel-rapl:0/energy_uj: Permission denied";
    o.windows = {w};
  }
  return o;
}

}  // namespace

std::set<std::string> planned_families() {
  Discovery d = two_gpu_machine();
  std::set<std::string> out;
  for (const auto& c : planned(d)) out.insert(std::string(to_string(c.family)));
  return out;
}

std::string planned_ids_text() {
  std::string out;
  for (const auto& [name, suite, tiny] : {std::tuple{"tiny", bench::Suite::quick, true},
                                          std::tuple{"quick", bench::Suite::quick, false},
                                          std::tuple{"standard", bench::Suite::standard, false}}) {
    out += std::string("# suite=") + name + "\n";
    Discovery d = two_gpu_machine();
    for (const auto& c : planned(d, suite, tiny)) out += c.id + "\n";
  }
  return out;
}

Report multi_gpu_report() {
  Discovery d = two_gpu_machine();
  Report r;
  r.tool = current_tool();
  r.command_line = {"gpusizer", "run", "--suite", "quick", "-o", "h200x2.json"};
  r.started_at = "2026-11-30T10:00:00.000Z";
  r.finished_at = "2026-11-30T10:20:00.000Z";
  r.status = ReportStatus::complete;
  r.suite = "quick";
  r.settings = {{"suite", "quick"}, {"fixture", "tests/bench/multi_gpu_report.cpp"}};
  r.host = collect_host();
  r.host.instance_type = InstanceType{"p5e.48xlarge", "--instance-type"};
  for (const auto& b : d.backends) r.targets.push_back(b->target());
  r.target_telemetry = {{"gpu0", {{"idle_power_watts", 75.0}}},
                        {"gpu1", {{"idle_power_watts", 75.0}}}};
  const bench::SamplingPolicy policy;
  for (const auto& c : planned(d)) {
    bench::CaseOutcome o = outcome_for(c);
    // A pair without peer access is recorded as skipped with the reason (bench/p2p.cpp).
    if (c.family == Family::p2p && c.parameters.value("src", "") == "gpu1" &&
        c.operation.find("_sm_") != std::string::npos) {
      o = {};
      o.skipped_reason = "gpu1 -> gpu0: no peer access (cudaDeviceCanAccessPeer = 0)";
      o.started_at = "2026-11-30T10:00:00.000Z";
    }
    r.records.push_back(bench::build_record(c, o, policy));
  }
  r.not_run = {{"collectives/all_reduce/gpu0+gpu1/bytes=4294967296", "not in the quick suite"}};
  r.warnings = {"2 GPUs: P2P and collectives measured across gpu0+gpu1"};
  return r;
}

}  // namespace gpusizer::test
