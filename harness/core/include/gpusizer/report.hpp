// The report model: what one `gpusizer run` measured, with full provenance. Measurement code
// produces these structs; printers and the sizing engine read them; report_io.hpp writes and
// reads them as schema-versioned JSON (reports/schema/report.schema.json).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusizer/stats.hpp"
#include "gpusizer/telemetry_window.hpp"
#include "gpusizer/vocabulary.hpp"

namespace gpusizer {

inline constexpr int kReportSchemaVersion = 1;

// Something a benchmark runs on.
struct Target {
  std::string id;  // "cpu", "gpu0", "gpu0/mig-1g.18gb-gi7-ci0"
  TargetKind kind = TargetKind::cpu;
  std::string name;  // model: "NVIDIA H200", "AMD EPYC 9R14 96-Core Processor"
  std::optional<std::string> uuid;
  std::optional<int> index;                              // CUDA device index for GPUs
  std::optional<std::string> parent;                     // parent GPU's target id for MIG slices
  std::optional<std::string> mig_profile;                // "1g.18gb"
  std::uint64_t memory_bytes = 0;                        // device memory (GPU/MIG) or RAM (CPU)
  nlohmann::json attributes = nlohmann::json::object();  // cores, NUMA, cc, SMs, clocks, PCIe...
  std::optional<std::string>
      host{};  // fleet reports: the id of the host it sits in (Report::hosts)
};

// The EC2 instance identity document and its PKCS7 signature as IMDSv2 served them (`run --imds`),
// byte for byte: `gpusizer verify` checks the signature against AWS's certificate for the
// document's region (instance_identity.hpp, docs/report-integrity.md).
struct InstanceIdentity {
  std::string document;      // dynamic/instance-identity/document (JSON text, as served)
  std::string pkcs7;         // dynamic/instance-identity/pkcs7 (base64 DER, no PEM armour)
  std::string retrieved_at;  // ISO 8601 UTC: when this run read them
};

struct InstanceType {
  std::string value;   // "p5.48xlarge"
  std::string source;  // "--instance-type" | "EC2 instance metadata (IMDSv2)" | ...
  std::optional<InstanceIdentity> identity{};  // --imds: the signed identity of the instance
};

struct Host {
  std::string hostname;
  std::string os;      // PRETTY_NAME from /etc/os-release
  std::string kernel;  // uname -r
  std::string cpu_model;
  int logical_cpus = 0;
  int numa_nodes = 0;
  std::uint64_t memory_bytes = 0;
  std::optional<InstanceType> instance_type;
  std::string id{};  // fleet reports (Report::hosts): unique, the prefix of its targets' ids
  std::vector<int> ranks{};  // fleet reports measured under MPI: the world ranks on this host
  std::string source{};      // fleet reports: where its part came from ("a.json", "MPI ranks 0-7")
};

struct Metric {
  std::string name;  // "bandwidth", "throughput", "fraction_of_peak", "energy_per_op"
  double value = 0;
  std::string unit;         // "B/s", "FLOP/s", "1", "J", "B/J", "FLOP/J"
  std::string description;  // how it was computed: byte/FLOP rule and which time
};

struct Verification {
  VerificationStatus status = VerificationStatus::not_applicable;
  std::string method;  // "sampled entries vs double-precision reference"
  std::string detail;  // "max rel error 3.1e-7 (tolerance 1e-5) over 4096 entries"
};

struct Timing {
  Timer timer = Timer::steady_clock;
  CacheMode cache_mode = CacheMode::hot;  // JSON "mode"
  std::uint64_t ops_per_sample = 1;
  std::vector<double> samples_seconds;  // per-operation time of each sample
  Summary seconds_per_op;               // statistics of samples_seconds
  double measured_seconds = 0;          // total timed time (all samples)
  // Why sampling stopped: "converged" | "noise_stable" | "time_cap" | "sample_cap", with
  // "+telemetry_window" when held on to fill the telemetry window; the distinct reasons of
  // several repetitions are joined by ',' (bench/sampler.hpp).
  std::string stop_reason;
};

// The machine's 1-minute load average (/proc/loadavg) when a benchmark started and ended: what
// else was running, to explain a noisy result. Includes the benchmark's own threads at the end.
struct LoadAverage {
  double start = 0;
  double end = 0;
};

struct Record {
  std::string id;  // unique key in a report: the Google Benchmark name
  Family family = Family::memory;
  std::string operation;  // "stream_triad", "h2d_pinned", "bf16", "all_reduce", "p2p_ce_read"...
  // Target::id of each target it ran on: one, or several for p2p and collectives. The report's
  // "target" key joins them with '+' (join_target_ids).
  std::vector<std::string> targets;
  nlohmann::json parameters = nlohmann::json::object();  // bytes, m/n/k, dtype, chunk...
  RecordStatus status = RecordStatus::ok;
  std::string reason;           // why skipped / what error
  std::vector<Metric> metrics;  // the first one is the headline figure
  double bytes_per_op = 0;
  double flops_per_op = 0;
  std::string work_rule;  // "bytes = 3 x 8 B x N (BabelStream triad weight)", "FLOP = 2*M*N*K"
  std::optional<Timing> timing;
  Verification verification;
  std::map<std::string, std::string> details;  // algorithm name, I/O mode, NUMA node...
  std::optional<TelemetryWindow> telemetry;
  std::vector<std::string> flags;  // "throttled", "high_variance", "ecc_errors_during_run", ...
  std::string started_at;          // ISO 8601 UTC
  double duration_seconds = 0;     // wall time including set-up and verification
  int repetitions = 1;             // Google Benchmark repetitions of the whole measurement
  Concurrency concurrency = Concurrency::not_stated;  // MIG slices only; JSON "mode"
  std::optional<LoadAverage> load_average;            // absent where /proc/loadavg cannot be read

  const Metric* metric(const std::string& name) const;
};

// A record's target ids as the report's "target" key, record ids and printed tables show them:
// joined by '+' ("gpu0+gpu1", "a:gpu0+b:gpu0"). The one place they are joined; the report reader
// splits the key once (report_json.cpp).
std::string join_target_ids(const std::vector<std::string>& ids);

struct ToolInfo {
  std::string name = "gpusizer";
  std::string version;
  std::string git_revision;
};

// One `gpusizer run` that wrote this report: the first, then each --resume. Its provenance (tool,
// host, suite, GPUs), how it ended, and the ids of the records it measured, so a report resumed
// elsewhere (--allow-mixed-resume) says which records came from where, and a stop's warning can
// leave `warnings` once a later run completes the report.
struct RunSession {
  std::string started_at;
  std::string finished_at;                      // empty while running
  ReportStatus status = ReportStatus::running;  // how this run ended, as Report::status
  std::string stop_reason;  // "interrupted by signal SIGTERM", "time budget", ... or ""
  ToolInfo tool;
  std::string hostname;
  std::string suite;
  std::vector<std::string> devices;  // "gpu0: NVIDIA H200 (GPU-…)": the GPUs this run saw
  std::string differs;               // --allow-mixed-resume: what differs from the report's own
  std::vector<std::string> records;  // ids of the records this run measured
};

struct Report {
  int schema_version = kReportSchemaVersion;
  ToolInfo tool;
  std::vector<std::string> command_line;
  std::string started_at;
  std::string finished_at;  // empty while running
  ReportStatus status = ReportStatus::running;
  std::string suite;
  nlohmann::json settings = nlohmann::json::object();  // the run's options, as given
  Host host;  // the machine that wrote the report (a fleet report: its first host, rank 0's)
  // Fleet reports only (gpusizer merge, or an MPI run): every host, each with its instance type;
  // each target names its host and its id starts with "<host id>:". Empty for one machine.
  std::vector<Host> hosts;
  std::vector<Target> targets;
  std::vector<Record> records;
  // Benchmarks planned but not run (time budget, deadline, interruption), with the reason.
  std::vector<std::pair<std::string, std::string>> not_run;
  std::vector<std::string> warnings;
  // Per-target facts measured once per run (e.g. idle power), keyed by target id.
  nlohmann::json target_telemetry = nlohmann::json::object();
  std::vector<RunSession> history;  // oldest first; empty in reports older than this field
  // Why a report read back did not hold its record chain (record_chain.hpp): set by the loader,
  // written to integrity.breaks, carried into fleet reports; so a report edited by hand and then
  // resumed or merged never verifies. Empty for a report written start to end by gpusizer.
  std::vector<std::string> integrity_breaks;

  const Record* find_record(const std::string& id) const;
  const Target* find_target(const std::string& id) const;
  // The host a target sits in: its fleet host, else `host`.
  const Host& host_of(const Target& target) const;
};

}  // namespace gpusizer
