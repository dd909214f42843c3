// compare: the noise test per row (verdicts and p-values worked out with scipy, see
// stats_test.cpp), short report names, which rows are noisy, and what the printer shows.
#include <gtest/gtest.h>

#include <sstream>

#include "gpusizer/comparison.hpp"
#include "gpusizer/printers.hpp"

namespace gpusizer {
namespace {

Record timed(const std::string& id, double value, std::vector<double> samples) {
  Record r;
  r.id = id;
  r.family = Family::gemm;
  r.operation = "bf16";
  r.targets = {"gpu0"};
  r.status = RecordStatus::ok;
  r.metrics = {{"throughput", value, "FLOP/s", ""}};
  Timing t;
  t.samples_seconds = std::move(samples);
  t.seconds_per_op = summarize(t.samples_seconds);
  r.timing = t;
  return r;
}

Report on(const std::string& host, std::optional<std::string> instance_type,
          std::vector<Record> records) {
  Report r;
  r.host.hostname = host;
  r.host.logical_cpus = 2;
  if (instance_type) r.host.instance_type = InstanceType{*instance_type, "--instance-type"};
  r.records = std::move(records);
  return r;
}

const std::vector<double> kLow{1, 2, 3, 4, 5};    // per-op seconds
const std::vector<double> kHigh{6, 7, 8, 9, 10};  // every one above kLow: p = 0.0121857...
const std::vector<double> kA{1.00, 1.02, 0.99, 1.01, 1.03, 0.98, 1.00, 1.02, 1.01};
const std::vector<double> kB{1.01, 0.99, 1.04, 1.00, 1.02, 0.97, 1.03, 1.01};  // p = 0.8076

TEST(NoiseTest, HigherTimesAreSlowerLowerAreFaster) {
  const NoiseTest slower = noise_test(timed("x", 2, kLow), timed("x", 1, kHigh));
  EXPECT_EQ(slower.verdict, NoiseVerdict::slower);
  EXPECT_NEAR(slower.p_value.value(), 0.012185780355344813, 1e-12);
  EXPECT_EQ(verdict_text(slower), "slower (p = 0.012)");
  EXPECT_TRUE(slower.rough());  // 5 samples a side, fewer than 9
  const NoiseTest faster = noise_test(timed("x", 1, kHigh), timed("x", 2, kLow));
  EXPECT_EQ(faster.verdict, NoiseVerdict::faster);
  EXPECT_EQ(verdict_text(faster), "faster (p = 0.012)");
}

TEST(NoiseTest, OverlappingSamplesAreTheSameWithinNoise) {
  const NoiseTest t = noise_test(timed("x", 1, kA), timed("x", 1, kB));
  EXPECT_EQ(t.verdict, NoiseVerdict::same_within_noise);
  EXPECT_NEAR(t.p_value.value(), 0.8075669579611612, 1e-12);
  EXPECT_EQ(verdict_text(t), "same within noise");
  EXPECT_EQ(t.samples_first, 9u);
  EXPECT_EQ(t.samples, 8u);
  EXPECT_TRUE(t.rough());
  EXPECT_FALSE(noise_test(timed("x", 1, kA), timed("x", 1, kA)).rough());  // 9 and 9
}

TEST(NoiseTest, TinyPValuesAndTooFewSamples) {
  // scipy: p = 0.0001806347208075351 for these (twice as slow, same spread).
  const std::vector<double> c{10.0, 10.4, 9.8, 10.1, 10.3, 9.9, 10.2, 10.0, 10.5, 9.7};
  const std::vector<double> d{20.0, 20.8, 19.6, 20.2, 20.6, 19.8, 20.4, 20.0, 21.0, 19.4};
  EXPECT_EQ(verdict_text(noise_test(timed("x", 2, c), timed("x", 1, d))), "slower (p < 0.001)");
  // 3 against 3 can give p = 0.081 at best: too few to tell, whatever the samples say.
  const NoiseTest three = noise_test(timed("x", 1, {1, 2, 3}), timed("x", 1, {7, 8, 9}));
  EXPECT_EQ(three.verdict, NoiseVerdict::too_few_samples);
  EXPECT_FALSE(three.p_value);
  EXPECT_EQ(verdict_text(three), "too few samples");
  Record untimed = timed("x", 1, {});
  untimed.timing.reset();
  EXPECT_EQ(noise_test(timed("x", 1, kA), untimed).verdict, NoiseVerdict::too_few_samples);
  // 4 against 4, apart: scipy 0.0304, enough.
  EXPECT_EQ(noise_test(timed("x", 1, {1, 2, 3, 4}), timed("x", 1, {5, 6, 7, 8})).verdict,
            NoiseVerdict::slower);
}

TEST(Comparison, ShortNamesAreInstanceTypesElseHostsAndDistinct) {
  const std::vector<NamedReport> reports{{"runs/a.json", on("node-1", std::nullopt, {})},
                                         {"b.json", on("node-2", "p5.48xlarge", {})},
                                         {"c.json", on("node-3", "p5.48xlarge", {})},
                                         {"d.json", on("node-1", std::nullopt, {})},
                                         {"e.json", on("", std::nullopt, {})}};
  EXPECT_EQ(report_short_names(reports),
            (std::vector<std::string>{"node-1#1", "p5.48xlarge#1", "p5.48xlarge#2", "node-1#2",
                                      "e.json"}));
  EXPECT_EQ(report_machine_name(reports[1].report), "p5.48xlarge");
}

TEST(Comparison, NoisyRowsAreDifferencesOnOneMachineOrHighVariance) {
  Record flagged = timed("v", 1, kA);
  flagged.flags = {"high_variance"};
  const std::vector<NamedReport> same_machine{
      {"a.json", on("node-1", std::nullopt, {timed("x", 2, kLow), timed("y", 1, kA), flagged})},
      {"b.json", on("node-1", std::nullopt, {timed("x", 1, kHigh), timed("y", 1, kB)})}};
  const std::vector<ComparisonRow> rows = compare_reports(same_machine);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_TRUE(rows[0].noisy);   // slower on the same machine
  EXPECT_FALSE(rows[1].noisy);  // the same within noise
  EXPECT_TRUE(rows[2].noisy);   // high_variance (and absent from b: no test)
  EXPECT_FALSE(rows[2].values[1].noise);
  EXPECT_DOUBLE_EQ(rows[0].values[1].ratio_to_first.value(), 0.5);
  EXPECT_EQ(rows[0].values[1].noise->verdict, NoiseVerdict::slower);
  EXPECT_FALSE(rows[0].values[0].noise);  // the first report is the reference
  // Different instance types: a difference is what was asked about, not noise.
  const std::vector<NamedReport> two_types{
      {"a.json", on("node-1", "g6e.xlarge", {timed("x", 2, kLow)})},
      {"b.json", on("node-2", "p5.48xlarge", {timed("x", 1, kHigh)})}};
  EXPECT_FALSE(compare_reports(two_types)[0].noisy);
}

std::vector<NamedReport> noisy_pair() {
  Record a = timed("x", 100e12, kLow);
  a.load_average = LoadAverage{0.1, 0.3};
  Record b = timed("x", 50e12, kHigh);
  b.load_average = LoadAverage{3.2, 3.41};
  return {{"a.json", on("node-1", std::nullopt, {a})}, {"b.json", on("node-1", std::nullopt, {b})}};
}

TEST(ComparisonPrint, TextHasLegendVerdictAndLoadOfNoisyRows) {
  std::ostringstream out;
  print_comparison(noisy_pair(), out, TextFormat::table);
  const std::string text = out.str();
  EXPECT_EQ(text.rfind("report 1, node-1#1: a.json\nreport 2, node-1#2: b.json\nbenchmark", 0), 0u)
      << text;
  EXPECT_NE(text.find("  node-1#1  "), std::string::npos) << text;
  EXPECT_NE(text.find("  ratio 2/1  2 vs 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("100.0 TFLOP/s  50.00 TFLOP/s      0.500  slower (p = 0.012) *\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\n* fewer than 9 samples on a side: a rough p-value"), std::string::npos)
      << text;
  EXPECT_NE(text.find("\nload: gemm/bf16 gpu0: 1-minute load average at start -> end: node-1#1 "
                      "0.10 -> 0.30 (2 logical CPUs), node-1#2 3.20 -> 3.41 (2 logical CPUs)\n"),
            std::string::npos)
      << text;
}

TEST(ComparisonPrint, CsvIsTheTableAloneHeadedByFiles) {
  std::ostringstream out;
  print_comparison(noisy_pair(), out, TextFormat::csv);
  EXPECT_EQ(out.str(),
            "benchmark,parameters,unit,a.json,b.json,ratio 2/1,2 vs 1\n"
            "gemm/bf16 gpu0,,FLOP/s,100.0 TFLOP/s,50.00 TFLOP/s,0.500,slower (p = 0.012) *\n");
}

TEST(ComparisonPrint, JsonCarriesTheTest) {
  std::ostringstream out;
  print_comparison(noisy_pair(), out, TextFormat::json);
  const auto j = nlohmann::json::parse(out.str());
  const auto& row = j.at(0);
  EXPECT_EQ(row["id"], "x");
  EXPECT_EQ(row["noisy"], true);
  const auto& first = row["values"][0];
  EXPECT_EQ(first["name"], "node-1#1");
  EXPECT_EQ(first["samples"], 5);
  EXPECT_FALSE(first.contains("verdict"));
  const auto& later = row["values"][1];
  EXPECT_EQ(later["report"], "b.json");
  EXPECT_EQ(later["verdict"], "slower");
  EXPECT_NEAR(later["p_value"].get<double>(), 0.012185780355344813, 1e-12);
  EXPECT_DOUBLE_EQ(later["ratio_to_first"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(later["load_average"]["start"].get<double>(), 3.2);
}

TEST(ComparisonPrint, FitsTheWidthByCuttingBenchmarkAndParameters) {
  std::vector<NamedReport> reports = noisy_pair();
  for (auto& nr : reports) {
    nr.report.records[0].parameters = {{"m", 16384},
                                       {"n", 16384},
                                       {"k", 16384},
                                       {"dtype", "bf16"},
                                       {"layout", "row_major_with_a_long_name"}};
  }
  std::ostringstream wide, narrow;
  print_comparison(reports, wide, TextFormat::table);
  print_comparison(reports, narrow, TextFormat::table, 100);
  const auto longest = [](const std::string& text) {
    std::size_t most = 0;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("load:", 0) == 0 || line.rfind("*", 0) == 0) continue;  // notes wrap
      std::size_t n = 0;
      for (unsigned char c : line) n += (c & 0xC0) != 0x80;
      most = std::max(most, n);
    }
    return most;
  };
  EXPECT_GT(longest(wide.str()), 100u) << wide.str();
  EXPECT_EQ(longest(narrow.str()), 100u) << narrow.str();
  EXPECT_NE(narrow.str().find("\xe2\x80\xa6"), std::string::npos);
  // The figures and the verdict are never cut.
  EXPECT_NE(narrow.str().find("100.0 TFLOP/s  50.00 TFLOP/s      0.500  slower (p = 0.012) *\n"),
            std::string::npos)
      << narrow.str();
}

}  // namespace
}  // namespace gpusizer
