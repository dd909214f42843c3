// The inline SVG charts and the report page, at the unit level (the browser test is
// tests/cli/report_page.sh): marks counted, scales, escaping, blanks explained.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "gpusizer/report_page.hpp"
#include "gpusizer/svg_chart.hpp"

namespace gpusizer {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

TEST(SvgChart, BarsPeaksAndEscapedLabels) {
  std::vector<ChartBar> bars = {{"bf16 8192³", 681.6, "681.6 TFLOP/s", 989.0, "", ""},
                                {"<b>fp8</b>", 1222.0, "1.222 PFLOP/s", std::nullopt, "", ""},
                                {"fp64", 55.0, "55 TFLOP/s", 67.0, "failed", ""}};
  const std::string svg = svg_bar_chart("GEMM & co", "TFLOP/s", bars, "datasheet peak");
  EXPECT_EQ(count(svg, "<rect class=\"bar"), 3u);
  EXPECT_EQ(count(svg, "<rect class=\"bar failed\""), 1u);
  EXPECT_EQ(count(svg, "<line class=\"peak\""), 2u);
  EXPECT_NE(svg.find("&lt;b&gt;fp8&lt;/b&gt;"), std::string::npos);
  EXPECT_EQ(svg.find("<b>fp8"), std::string::npos);
  EXPECT_NE(svg.find("GEMM &amp; co"), std::string::npos);
  EXPECT_NE(svg.find("datasheet peak"), std::string::npos);  // the caption names the ticks
  // Axis: the largest value (1222) on a nice scale: 0, 500, 1000, 1500.
  EXPECT_NE(svg.find(">1500</text>"), std::string::npos) << svg;
  EXPECT_EQ(svg.find(">2000</text>"), std::string::npos);
  // Widths proportional: 681.6 / 1500 of the 330-wide bar area.
  EXPECT_NE(svg.find("width=\"150.0\""), std::string::npos) << svg;
}

TEST(SvgChart, LinesOnALogAxisWithAPeakRule) {
  std::vector<ChartSeries> series = {
      {"all_reduce", {{1024, 1}, {1048576, 50}, {1073741824, 180}}, ""},
      {"all_gather", {{1024, 0.5}, {1048576, 40}, {1073741824, 170}}, ""}};
  const std::string svg =
      svg_line_chart("busbw", "bytes", "GB/s", series, {{false, 200, "NVLink peak"}}, true);
  EXPECT_EQ(count(svg, "<circle class=\"point\""), 6u);
  EXPECT_EQ(count(svg, "<path class=\"line"), 2u);
  EXPECT_EQ(count(svg, "<line class=\"peak\""), 1u);
  EXPECT_NE(svg.find("NVLink peak"), std::string::npos);
}

Record measured(const std::string& op, double value, std::optional<double> power) {
  Record r;
  r.id = "memory/" + op + "/gpu0";
  r.family = Family::memory;
  r.operation = op;
  r.targets = {"gpu0"};
  r.status = RecordStatus::ok;
  r.parameters = {{"bytes", 1073741824}};
  r.metrics = {{"bandwidth", value, "B/s", ""}, {"fraction_of_peak", 0.5, "1", ""}};
  r.verification.status = VerificationStatus::passed;
  if (power) {
    TelemetryWindow w;
    w.source = TelemetrySource::nvml;
    w.power_mean_watts = power;
    r.telemetry = w;
  }
  return r;
}

TEST(ReportPage, SummaryChartsBlanksExplainedAndWarningsFolded) {
  Report report;
  report.status = ReportStatus::stopped;
  report.suite = "quick";
  report.host.hostname = "ip-10-0-0-1";
  Target gpu;
  gpu.id = "gpu0";
  gpu.kind = TargetKind::gpu;
  gpu.name = "NVIDIA H100 80GB HBM3";
  report.targets = {gpu};
  report.records = {measured("d2d", 2e12, 300.0), measured("h2d_pinned", 50e9, std::nullopt)};
  report.records[1].flags = {"power_capped", "made_up_flag"};
  report.warnings = {"driver is old", "driver is old", "driver is old", "other"};
  report.not_run = {{"gemm/bf16/gpu0", "deadline 2026-12-01T10:55:00Z"}};
  std::ostringstream out;
  print_report_page(report, {"r.json", "abc123"}, out);
  const std::string page = out.str();
  EXPECT_NE(page.find("1 × NVIDIA H100 80GB HBM3"), std::string::npos);
  EXPECT_NE(page.find("status-stopped"), std::string::npos);
  EXPECT_NE(page.find("SHA-256 <code>abc123</code>"), std::string::npos);
  // d2d on the device-memory chart, h2d on the host-link chart, plus the power chart.
  EXPECT_EQ(count(page, "<svg "), 3u);
  EXPECT_EQ(count(page, "<rect class=\"bar"), 3u);
  // The blank power cell says why, and the footnote counts it.
  EXPECT_NE(page.find("No power figure: no telemetry for this target (1 benchmark)"),
            std::string::npos);
  // Flags in words with a legend; an unknown flag is shown as it is.
  EXPECT_NE(page.find("<code>power_capped</code>"), std::string::npos);
  EXPECT_NE(page.find("at the power cap"), std::string::npos);
  EXPECT_NE(page.find("<code>made_up_flag</code>"), std::string::npos);
  // Warnings folded: once, with the count.
  EXPECT_EQ(count(page, "driver is old"), 1u);
  EXPECT_NE(page.find("(×3)"), std::string::npos);
  EXPECT_NE(page.find("deadline 2026-12-01T10:55:00Z"), std::string::npos);
  // Nothing to fetch.
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.find("src="), std::string::npos);
}

TEST(ReportPage, FlagWordsKnownAndUnknown) {
  EXPECT_EQ(flag_in_words("made_up"), "made_up");
  EXPECT_EQ(flag_in_words("throttled").rfind("throttled:", 0), 0u);
}

}  // namespace
}  // namespace gpusizer
