#include <gtest/gtest.h>

#include <sstream>

#include "gpusizer/printers.hpp"

namespace gpusizer {
namespace {

TEST(Printers, FormatsWithDecimalPrefixes) {
  EXPECT_EQ(format_value(4.3e12, "B/s"), "4.300 TB/s");
  EXPECT_EQ(format_value(812.5e12, "FLOP/s"), "812.5 TFLOP/s");
  EXPECT_EQ(format_value(55.2e9, "B/s"), "55.20 GB/s");
  EXPECT_EQ(format_value(0.0032, "s"), "3.200 ms");
  EXPECT_EQ(format_value(0.912, "1"), "0.912");
}

TEST(Printers, TableCsvEscapesAndMarkdownAligns) {
  Table t({"a", "b"});
  t.add_row({"x,y", "say \"hi\""});
  t.right_align(1);
  std::ostringstream csv, md;
  t.render(csv, TextFormat::csv);
  t.render(md, TextFormat::md);
  EXPECT_EQ(csv.str(), "a,b\n\"x,y\",\"say \"\"hi\"\"\"\n");
  EXPECT_EQ(md.str(), "| a | b |\n| --- | ---: |\n| x,y | say \"hi\" |\n");
}

TEST(Printers, HtmlEscapesAndKeepsProvenance) {
  Table t({"a<b", "n"});
  t.add_row({"x & \"y\"", "1"});
  t.right_align(1);
  std::ostringstream html;
  t.render(html, TextFormat::html);
  EXPECT_EQ(
      html.str(),
      "<table>\n<thead><tr><th>a&lt;b</th><th>n</th></tr></thead>\n<tbody>\n"
      "<tr><td>x &amp; &quot;y&quot;</td><td class=\"num\">1</td></tr>\n</tbody>\n</table>\n");
  Report r;
  r.tool = {"gpusizer", "0.1.0", "abc123"};
  r.host.hostname = "node<1>";
  r.host.instance_type = InstanceType{"p5.48xlarge", "--instance-type"};
  r.warnings = {"GPUs: none"};
  std::ostringstream page;
  print_report(r, page, TextFormat::html);
  const std::string p = page.str();
  EXPECT_EQ(p.rfind("<!DOCTYPE html>", 0), 0u);
  // Headed by the instance type when it is known; the host name escaped in the summary.
  EXPECT_NE(p.find("<h1>gpusizer report: p5.48xlarge</h1>"), std::string::npos);
  EXPECT_NE(p.find("node&lt;1&gt;"), std::string::npos);
  EXPECT_EQ(p.find("node<1>"), std::string::npos);
  EXPECT_NE(p.find("gpusizer 0.1.0 (abc123)"), std::string::npos);
  EXPECT_NE(p.find("p5.48xlarge <span class=\"why\">(--instance-type)</span>"), std::string::npos);
  EXPECT_NE(p.find("<li>GPUs: none</li>"), std::string::npos);
}

Report one_record_report(double value) {
  Report r;
  Record rec;
  rec.id = "gemm/bf16/gpu0/square";
  rec.family = Family::gemm;
  rec.operation = "bf16";
  rec.targets = {"gpu0"};
  rec.status = RecordStatus::ok;
  rec.metrics = {{"throughput", value, "FLOP/s", ""}};
  r.records = {rec};
  return r;
}

TEST(Printers, ComparisonShowsRatioToFirst) {
  // No timing samples in these records: no noise test.
  std::vector<NamedReport> reports{{"h100.json", one_record_report(700e12)},
                                   {"h200.json", one_record_report(770e12)}};
  std::ostringstream out;
  print_comparison(reports, out, TextFormat::csv);
  EXPECT_EQ(out.str(),
            "benchmark,parameters,unit,h100.json,h200.json,ratio 2/1,2 vs 1\n"
            "gemm/bf16 gpu0,,FLOP/s,700.0 TFLOP/s,770.0 TFLOP/s,1.100,too few samples\n");
}

}  // namespace
}  // namespace gpusizer
