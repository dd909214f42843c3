// Records above a physical ceiling the report knows are flagged "implausible" on load. The
// ceilings here are written out by hand from the H200 facts in reports/examples/h200-quick.json.
#include <gtest/gtest.h>

#include <algorithm>

#include "gpusizer/plausibility.hpp"
#include "gpusizer/report_io.hpp"

namespace gpusizer {
namespace {

constexpr double kHbm = 4.814304e12;  // theoretical_memory_bytes_per_second of the H200
constexpr double kPcie = 6.3015e10;   // pcie_bytes_per_second_per_direction (Gen5 x16)

Report h200_report() {
  Report r;
  Target gpu;
  gpu.id = "gpu0";
  gpu.kind = TargetKind::gpu;
  gpu.name = "NVIDIA H200";
  gpu.attributes = {{"theoretical_memory_bytes_per_second", kHbm},
                    {"pcie_bytes_per_second_per_direction", kPcie}};
  Target cpu;
  cpu.id = "cpu";
  cpu.kind = TargetKind::cpu;
  cpu.name = "AMD EPYC";
  r.targets = {gpu, cpu};
  return r;
}

// A record whose headline is `rate` and whose timing agrees with it (bytes / median = rate).
Record rate_record(const std::string& family, const std::string& op, const std::string& target,
                   double rate, const std::string& unit = "B/s") {
  Record rec;
  rec.id = family + "/" + op + "/" + target;
  rec.family = *parse<Family>(family);
  rec.operation = op;
  rec.targets = {target};
  rec.status = RecordStatus::ok;
  const double work = 1e9;
  (unit == "B/s" ? rec.bytes_per_op : rec.flops_per_op) = work;
  Timing t;
  t.timer = Timer::steady_clock;
  t.cache_mode = CacheMode::hot;
  t.seconds_per_op.median = work / rate;
  rec.timing = t;
  rec.metrics.push_back({unit == "B/s" ? "bandwidth" : "throughput", rate, unit, ""});
  return rec;
}

bool flagged(const Record& r) {
  return std::count(r.flags.begin(), r.flags.end(), "implausible") == 1 &&
         r.details.count("implausible") == 1;
}

TEST(Plausibility, StreamAboveTheoreticalMemoryBandwidth) {
  Report r = h200_report();
  r.records.push_back(rate_record("memory", "stream_triad", "gpu0", 4.127e12));  // measured
  r.records.push_back(rate_record("memory", "stream_triad", "gpu0", 1.1 * kHbm * 0.999));
  r.records.push_back(rate_record("memory", "stream_copy", "gpu0", 4.127e13));  // edited x10
  EXPECT_FALSE(implausibility(r.records[0], r));
  EXPECT_FALSE(implausibility(r.records[1], r));  // within the 10 % margin
  auto why = implausibility(r.records[2], r);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("theoretical memory bandwidth"), std::string::npos) << *why;
  EXPECT_NE(why->find("8.572x"), std::string::npos) << *why;  // 4.127e13 / 4.814304e12
}

TEST(Plausibility, CopiesAgainstTheirOwnCeilings) {
  Report r = h200_report();
  // D2D counts N bytes and moves 2N: its ceiling is half the memory bandwidth (2.407e12).
  EXPECT_FALSE(implausibility(rate_record("memory", "d2d", "gpu0", 2.6e12), r));
  EXPECT_TRUE(implausibility(rate_record("memory", "d2d", "gpu0", 2.7e12), r));
  // Host <-> device: the PCIe peak per direction (x 1.1 = 6.93e10); bidirectional: twice it.
  EXPECT_FALSE(implausibility(rate_record("memory", "h2d_pinned", "gpu0", 6.9e10), r));
  EXPECT_TRUE(implausibility(rate_record("memory", "d2h_pageable", "gpu0", 7.0e10), r));
  EXPECT_FALSE(implausibility(rate_record("memory", "bidirectional_pinned", "gpu0", 1.38e11), r));
  EXPECT_TRUE(implausibility(rate_record("memory", "bidirectional_pinned", "gpu0", 1.39e11), r));
  EXPECT_TRUE(implausibility(rate_record("io", "storage_to_device", "gpu0", 7.0e10), r));
  // The CPU has no memory ceiling in its facts: 1e12 B/s is left to the other checks.
  EXPECT_FALSE(implausibility(rate_record("memory", "stream_triad", "cpu", 1e12), r));
}

TEST(Plausibility, GemmAboveTheDatasheetPeakItsRecordStates) {
  Report r = h200_report();
  Record gemm = rate_record("gemm", "bf16", "gpu0", 6.816e14, "FLOP/s");
  gemm.metrics.push_back(
      {"fraction_of_peak", 6.816e14 / 9.89e14, "1",
       "median rate / 9.89e+14 FLOP/s (NVIDIA H200 SXM datasheet (bf16, dense))"});
  EXPECT_FALSE(implausibility(gemm, r));
  // The headline edited x10 (timing and fraction left alone): above the stated peak.
  Record edited = gemm;
  edited.metrics[0].value *= 10;
  edited.timing->seconds_per_op.median /= 10;  // even with the timing edited to match
  auto why = implausibility(edited, r);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("the peak its fraction_of_peak states"), std::string::npos) << *why;
  // A fraction of peak above 1.1 is itself impossible.
  Record over = gemm;
  over.metrics[1].value = 1.2;
  ASSERT_TRUE(implausibility(over, r));
  EXPECT_EQ(implausibility(over, r)->rfind("fraction_of_peak 1.2 is above 1", 0), 0u);
}

TEST(Plausibility, HeadlineAboveWhatItsOwnTimingGives) {
  Report r = h200_report();
  Record cpu = rate_record("gemm", "fp32", "cpu", 2.487e11, "FLOP/s");
  EXPECT_FALSE(implausibility(cpu, r));
  cpu.metrics[0].value *= 10;  // no peak, no device fact: the timing still says 2.487e11
  auto why = implausibility(cpu, r);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("its own timing"), std::string::npos) << *why;
}

TEST(Plausibility, SkippedAndErrorRecordsAreNeverFlagged) {
  Report r = h200_report();
  Record skipped = rate_record("memory", "stream_copy", "gpu0", 4e13);
  skipped.status = RecordStatus::skipped;
  EXPECT_FALSE(implausibility(skipped, r));
  skipped.status = RecordStatus::error;
  EXPECT_FALSE(implausibility(skipped, r));
}

TEST(Plausibility, LoadFlagsOnceAndKeepsTheReason) {
  Report r = h200_report();
  r.schema_version = kReportSchemaVersion;
  r.tool = {"gpusizer", "0.1.0", "abc"};
  r.started_at = "2026-11-30T10:00:00.000Z";
  r.status = ReportStatus::complete;
  r.suite = "quick";
  r.records.push_back(rate_record("memory", "stream_triad", "gpu0", 4.127e12));
  r.records.push_back(rate_record("memory", "stream_copy", "gpu0", 4.127e13));
  const std::string text = to_json(r).dump();
  Report loaded = load_report_text(text, "edited.json");
  EXPECT_FALSE(is_implausible(loaded.records[0]));
  EXPECT_TRUE(flagged(loaded.records[1]));
  // Written back and loaded again (as --resume does): still one flag.
  Report again = load_report_text(to_json(loaded).dump(), "again.json");
  EXPECT_TRUE(flagged(again.records[1]));
  flag_implausible_records(again);
  EXPECT_TRUE(flagged(again.records[1]));
}

}  // namespace
}  // namespace gpusizer
