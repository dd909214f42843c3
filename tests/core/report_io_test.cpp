#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "gpusizer/error.hpp"
#include "gpusizer/report_io.hpp"

namespace gpusizer {
namespace {

Report sample_report() {
  Report r;
  r.tool = {"gpusizer", "0.1.0", "abc123"};
  r.command_line = {"gpusizer", "run", "--suite=quick"};
  r.started_at = "2026-11-30T10:00:00.000Z";
  r.finished_at = "2026-11-30T10:01:00.000Z";
  r.status = ReportStatus::complete;
  r.suite = "quick";
  r.host = {"node-1",
            "Debian GNU/Linux 12",
            "6.1.0 x86_64",
            "AMD EPYC",
            2,
            1,
            1ull << 34,
            InstanceType{"p5.48xlarge", "--instance-type"}};
  Target cpu{"cpu",        TargetKind::cpu, "AMD EPYC", std::nullopt,         std::nullopt,
             std::nullopt, std::nullopt,    1ull << 34, {{"logical_cpus", 2}}};
  Target gpu{"gpu0",
             TargetKind::gpu,
             "NVIDIA H200",
             "GPU-1234",
             0,
             std::nullopt,
             std::nullopt,
             150ull << 30,
             {{"compute_capability", "9.0"}}};
  Target mig{"gpu0/mig-1g.18gb-gi7-ci0",
             TargetKind::mig,
             "NVIDIA H200 MIG 1g.18gb",
             "MIG-abcd",
             std::nullopt,
             "gpu0",
             "1g.18gb",
             18ull << 30,
             nlohmann::json::object()};
  r.targets = {cpu, gpu, mig};
  Record rec;
  rec.id = "memory/stream_triad/cpu/bytes=1048576";
  rec.family = Family::memory;
  rec.operation = "stream_triad";
  rec.targets = {"cpu"};
  rec.parameters = {{"array_bytes", 1048576}};
  rec.status = RecordStatus::ok;
  rec.metrics = {{"bandwidth", 1.5e10, "B/s", "3 x 8 B x N / median"}};
  rec.bytes_per_op = 3.0 * 1048576;
  rec.work_rule = "bytes = 3 x 8 B x N";
  Timing t;
  t.timer = Timer::steady_clock;
  t.cache_mode = CacheMode::hot;
  t.ops_per_sample = 4;
  t.samples_seconds = {0.001, 0.0011, 0.0012};
  t.seconds_per_op = summarize(t.samples_seconds);
  t.measured_seconds = 0.0133;
  t.stop_reason = "converged";
  rec.timing = t;
  rec.verification = {VerificationStatus::passed, "scalar replay", "max rel error 0"};
  rec.details = {{"threads", "2"}};
  TelemetryWindow w;
  w.source = TelemetrySource::nvml;
  w.scope = "GPU board power (NVML)";
  w.duration_seconds = 1.5;
  w.sample_count = 60;
  w.sample_period_seconds = 0.025;
  w.energy_joules = 900;
  w.power_mean_watts = 600;
  w.throttle_reasons = {"sw_power_cap"};
  w.throttled = true;
  w.ecc_corrected_delta = 0;
  w.remapped_rows_corrected_delta = 2;
  w.remapped_rows_uncorrected_delta = 1;
  w.row_remap_pending = true;
  w.row_remap_failure = true;
  w.retired_pages_delta = 3;
  w.retired_pages_pending = true;
  w.memory_errors_during_run = true;
  rec.telemetry = w;
  rec.flags = {"throttled"};
  rec.started_at = "2026-11-30T10:00:01.000Z";
  rec.duration_seconds = 0.5;
  rec.load_average = LoadAverage{0.52, 1.75};
  Record skipped;
  skipped.id = "gemm/fp8_e4m3/cpu/square";
  skipped.family = Family::gemm;
  skipped.operation = "fp8_e4m3";
  skipped.targets = {"cpu"};
  skipped.status = RecordStatus::skipped;
  skipped.reason = "OpenBLAS multiplies fp32 and fp64 only";
  skipped.started_at = "2026-11-30T10:00:02.000Z";
  r.records = {rec, skipped};
  r.not_run = {{"io/storage_to_host/cpu", "time budget"}};
  r.warnings = {"GPUs: none"};
  r.target_telemetry = {{"gpu0", {{"idle_power_watts", 74.5}}}};
  return r;
}

std::string load_error(const std::string& text) {
  auto doc = JsonInput::parse_text(text, "r.json");
  try {
    report_from_json(JsonInput(doc, "r.json"));
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ReportIo, RoundTripsEveryField) {
  Report r = sample_report();
  nlohmann::json j = to_json(r);
  Report back = report_from_json(JsonInput(j, "mem"));
  EXPECT_EQ(to_json(back), j);
  EXPECT_EQ(back.records[0].telemetry->energy_joules.value(), 900);
  const TelemetryWindow& w = *back.records[0].telemetry;
  EXPECT_EQ(w.remapped_rows_corrected_delta.value(), 2u);
  EXPECT_EQ(w.remapped_rows_uncorrected_delta.value(), 1u);
  EXPECT_TRUE(w.row_remap_pending);
  EXPECT_TRUE(w.row_remap_failure);
  EXPECT_EQ(w.retired_pages_delta.value(), 3u);
  EXPECT_TRUE(w.retired_pages_pending);
  EXPECT_TRUE(w.memory_errors_during_run);
  EXPECT_EQ(j["records"][0]["telemetry"]["remapped_rows_corrected_delta"], 2);
  EXPECT_EQ(j["records"][0]["telemetry"]["memory_errors_during_run"], true);
  EXPECT_EQ(back.targets[2].parent.value(), "gpu0");
  EXPECT_EQ(back.host.instance_type->value, "p5.48xlarge");
  EXPECT_EQ(j["records"][0]["load_average"], (nlohmann::json{{"start", 0.52}, {"end", 1.75}}));
  EXPECT_EQ(back.records[0].load_average->end, 1.75);
  EXPECT_FALSE(j["records"][1].contains("load_average"));  // not read: absent, not zero
  EXPECT_FALSE(back.records[1].load_average);
}

TEST(ReportIo, RejectsUnknownSchemaVersion) {
  nlohmann::json j = to_json(sample_report());
  j["schema_version"] = 2;
  EXPECT_EQ(load_error(j.dump()),
            "r.json: /schema_version: unsupported report schema_version 2 (this gpusizer reads "
            "version 1)");
}

TEST(ReportIo, RejectsBadRecords) {
  nlohmann::json j = to_json(sample_report());
  j["records"][0]["metrics"][0]["value"] = -3;
  EXPECT_EQ(load_error(j.dump()),
            "r.json: /records/0/metrics/0/value: expected a non-negative number, got -3");
  j = to_json(sample_report());
  j["records"][1]["id"] = j["records"][0]["id"];
  EXPECT_EQ(load_error(j.dump()).rfind("r.json: /records/1/id: duplicate record id", 0), 0u);
  j = to_json(sample_report());
  j["records"][0]["metrics"] = nlohmann::json::array();
  EXPECT_EQ(load_error(j.dump()),
            "r.json: /records/0/metrics: a record with status \"ok\" needs at least one metric");
  j = to_json(sample_report());
  j["records"][0]["status"] = "great";
  EXPECT_EQ(load_error(j.dump()),
            "r.json: /records/0/status: expected one of ok, failed, error, skipped, got the "
            "string \"great\"");
  j = to_json(sample_report());
  j["targets"][2].erase("parent");
  EXPECT_EQ(load_error(j.dump()),
            "r.json: /targets/2: a target of kind \"mig\" needs \"parent\" and \"mig_profile\"");
  j = to_json(sample_report());
  j["records"][0]["load_average"]["start"] = -0.5;
  EXPECT_EQ(load_error(j.dump()),
            "r.json: /records/0/load_average/start: expected a non-negative number, got -0.5");
  j = to_json(sample_report());
  j["records"][0]["load_average"].erase("end");
  EXPECT_EQ(load_error(j.dump()), "r.json: /records/0/load_average/end: missing required field");
  EXPECT_EQ(load_error("[1, 2]"),
            "r.json: /: expected a gpusizer report (a JSON object), got an array");
}

TEST(ReportIo, SaveIsAtomicAndLeavesNoTemporaryFiles) {
  auto dir = std::filesystem::temp_directory_path() / ("gpusizer-io-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto file = dir / "r.json";
  save_report(sample_report(), file);
  save_report(sample_report(), file);  // overwrite
  Report back = load_report(file);
  EXPECT_EQ(back.records.size(), 2u);
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 1u);
  EXPECT_THROW(save_report(sample_report(), dir / "missing-folder" / "r.json"), RuntimeError);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gpusizer
