// Printers never pass text from a report to the output raw (ESC[2J in a hostname must not clear
// the screen), and `compare` is computed apart from printing.
#include <gtest/gtest.h>

#include <sstream>

#include "gpusizer/printers.hpp"
#include "terminal_safe.hpp"

namespace gpusizer {
namespace {

// ESC[2J (clear screen), BEL, CR, CSI as a C1 control in UTF-8, and a byte that is not UTF-8.
const std::string kHostile =
    "x\x1b[2J\a\r\xc2\x9b"
    "1m\xff";
const std::string kShown = "x\\x1b[2J\\x07\\x0d\\u009b1m\\xff";

using gpusizer::testing::terminal_safe;

Report hostile_report() {
  Report r;
  r.tool = {"gpusizer", "0.1.0", "abc123"};
  r.suite = "quick";
  r.status = ReportStatus::complete;
  r.host.hostname = kHostile;
  Target t;
  t.id = "gpu0";
  t.kind = TargetKind::gpu;
  t.name = "GPU " + kHostile;
  r.targets = {t};
  Record rec;
  rec.id = "memory/copy/gpu0";
  rec.family = Family::memory;
  rec.operation = "copy";
  rec.targets = {"gpu0"};
  rec.status = RecordStatus::ok;
  rec.parameters = {{"label", kHostile}};
  rec.metrics = {{"bandwidth", 1e12, "B/s", ""}};
  r.records = {rec};
  r.not_run = {{"gemm/" + kHostile, "reason " + kHostile}};
  r.warnings = {"warning " + kHostile};
  return r;
}

TEST(PrintersEscape, ReportInEveryTextFormat) {
  for (TextFormat f : {TextFormat::table, TextFormat::md, TextFormat::csv, TextFormat::html}) {
    std::ostringstream out;
    print_report(hostile_report(), out, f);
    const std::string text = out.str();
    EXPECT_TRUE(terminal_safe(text)) << static_cast<int>(f) << "\n" << text;
    EXPECT_NE(text.find("label=" + kShown), std::string::npos) << text;  // parameters
    if (f != TextFormat::csv) {
      EXPECT_NE(text.find("warning " + kShown), std::string::npos) << text;
      EXPECT_NE(text.find("reason " + kShown), std::string::npos) << text;
    }
    if (f == TextFormat::table || f == TextFormat::html) {
      EXPECT_NE(text.find("gpusizer report: " + kShown), std::string::npos) << text;
    }
    if (f == TextFormat::html) {
      EXPECT_NE(text.find("GPU " + kShown), std::string::npos) << text;
    }
  }
}

TEST(PrintersEscape, JsonEscapesC0AndC1AndReplacesInvalidUtf8) {
  std::ostringstream report, targets, comparison;
  print_report(hostile_report(), report, TextFormat::json);
  EXPECT_TRUE(terminal_safe(report.str())) << report.str();
  EXPECT_NE(report.str().find("x\\u001b[2J\\u0007\\r\\u009b1m\xef\xbf\xbd"), std::string::npos)
      << report.str();
  print_targets(hostile_report().targets, targets, TextFormat::json);
  EXPECT_TRUE(terminal_safe(targets.str())) << targets.str();
  print_comparison({{"a", hostile_report()}, {"b" + kHostile, hostile_report()}}, comparison,
                   TextFormat::json);
  EXPECT_TRUE(terminal_safe(comparison.str())) << comparison.str();
}

TEST(PrintersEscape, TargetsAndComparison) {
  std::ostringstream targets;
  print_targets(hostile_report().targets, targets, TextFormat::table);
  EXPECT_TRUE(terminal_safe(targets.str())) << targets.str();
  EXPECT_NE(targets.str().find("GPU " + kShown), std::string::npos);
  std::vector<NamedReport> reports{{"a" + kHostile + ".json", hostile_report()},
                                   {"b.json", hostile_report()}};
  for (TextFormat f : {TextFormat::table, TextFormat::md, TextFormat::csv, TextFormat::html}) {
    std::ostringstream out;
    print_comparison(reports, out, f);
    EXPECT_TRUE(terminal_safe(out.str())) << out.str();
    EXPECT_NE(out.str().find("a" + kShown + ".json"), std::string::npos) << out.str();
  }
}

Record headline(const std::string& id, RecordStatus status, double value) {
  Record r;
  r.id = id;
  r.family = Family::gemm;
  r.operation = "bf16";
  r.targets = {"gpu0"};
  r.status = status;
  if (status == RecordStatus::ok || status == RecordStatus::failed)
    r.metrics = {{"throughput", value, "FLOP/s", ""}};
  return r;
}

TEST(PrintersEscape, ComparisonIsComputedWithoutPrinting) {
  Report a, b, c;
  a.records = {headline("x", RecordStatus::ok, 400e12), headline("y", RecordStatus::skipped, 0)};
  b.records = {headline("y", RecordStatus::ok, 10e12), headline("x", RecordStatus::ok, 500e12)};
  c.records = {headline("z", RecordStatus::failed, 7e12),
               headline("x", RecordStatus::failed, 300e12)};
  const std::vector<NamedReport> reports{{"a", a}, {"b", b}, {"c", c}};
  const std::vector<ComparisonRow> rows = compare_reports(reports);
  ASSERT_EQ(rows.size(), 3u);  // first-seen order: x, y (a), z (c)
  EXPECT_EQ(rows[0].first->id, "x");
  EXPECT_EQ(rows[1].first->id, "y");
  EXPECT_EQ(rows[1].first->status, RecordStatus::skipped);  // from a, where y was first seen
  EXPECT_EQ(rows[2].first->id, "z");
  // x: 400, 500, 300 (failed still has a value): ratios 500/400 = 1.25, 300/400 = 0.75.
  ASSERT_EQ(rows[0].values.size(), 3u);
  EXPECT_EQ(rows[0].values[0].value, 400e12);
  EXPECT_FALSE(rows[0].values[0].ratio_to_first);
  EXPECT_DOUBLE_EQ(*rows[0].values[1].ratio_to_first, 1.25);
  EXPECT_DOUBLE_EQ(*rows[0].values[2].ratio_to_first, 0.75);
  EXPECT_EQ(rows[0].unit, "FLOP/s");
  // y: skipped in a (a record, no value), 10e12 in b with no ratio (no base), absent in c.
  EXPECT_NE(rows[1].values[0].record, nullptr);
  EXPECT_FALSE(rows[1].values[0].value);
  EXPECT_EQ(rows[1].values[1].value, 10e12);
  EXPECT_FALSE(rows[1].values[1].ratio_to_first);
  EXPECT_EQ(rows[1].values[2].record, nullptr);
  // z: only in c.
  EXPECT_EQ(rows[2].values[0].record, nullptr);
  EXPECT_EQ(rows[2].values[2].value, 7e12);
}

}  // namespace
}  // namespace gpusizer
