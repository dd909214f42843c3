// `recommend` and `catalog` end to end through the library entry points, on the shipped catalog.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "fixtures.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/sizing/commands.hpp"

using namespace gpusizer::sizing;
using namespace sizing_test;

namespace {

const std::string kCatalog = std::string(GPUSIZER_SOURCE_DIR) + "/data/catalog/aws-us-east-1.json";

std::string h100_report() {
  auto t = gpu_target("gpu0", "NVIDIA H100 80GB HBM3");
  auto gemm = record("gemm/bf16/8192", "gemm", "bf16", {"gpu0"}, "throughput", 700e12, "FLOP/s");
  gemm.parameters = {{"m", 8192}, {"n", 8192}, {"k", 8192}};
  gemm.telemetry = gpusizer::TelemetryWindow{};
  gemm.telemetry->source = gpusizer::TelemetrySource::nvml;
  gemm.telemetry->scope = "GPU board power (NVML)";
  gemm.telemetry->power_mean_watts = 600;
  return save("h100-report.json", report_with({t}, {gemm}));
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST(SizingRecommend, TableAndPlanJsonWithEvidence) {
  auto w = base_workload();
  w["target_rate"]["value"] = 1000;
  RecommendOptions o;
  o.workloads = {write_json("llm.json", w)};
  o.reports = {h100_report()};
  o.catalog.catalog = kCatalog;
  o.out = std::string(GPUSIZER_BINARY_DIR) + "/tests/sizing/plan-from-recommend-test.json";
  std::ostringstream out;
  ASSERT_EQ(run_recommend(o, out), 0) << out.str();
  // H100 700 TFLOP/s / 1e12 FLOP = 700 req/s per GPU; p5.4xlarge (1 GPU, $6.88/h):
  // ceil(1000 / (700 x 0.7 = 490)) = ceil(2.04) = 3 -> $20.64/h, x 730 = $15,067.20/month.
  // p5.48xlarge: 8 x 700 = 5600 -> 1 instance, $55.04/h. perf/W = 700 / 600 W = 1.167 req/J.
  const std::string text = out.str();
  EXPECT_NE(text.find("$15,067.20"), std::string::npos) << text;
  EXPECT_NE(text.find("1.167 req/J"), std::string::npos) << text;
  EXPECT_NE(text.find("Top plan: 3 x p5.4xlarge on_demand, $20.64/h, $15,067.20/month"),
            std::string::npos)
      << text;
  auto plan = nlohmann::json::parse(read(o.out));
  EXPECT_EQ(plan["kind"], "gpusizer.plan");
  const auto& top = plan["options"][0];
  EXPECT_EQ(top["instance_type"], "p5.4xlarge");
  EXPECT_EQ(top["cost"]["instances"], 3);
  EXPECT_EQ(top["cost"]["price"]["as_of"], "2026-07-20");
  EXPECT_EQ(top["evidence"][0]["record_id"], "gemm/bf16/8192");
  EXPECT_EQ(top["evidence"][0]["report_sha256"], gpusizer::sha256_hex(read(o.reports[0])));
  EXPECT_EQ(plan["reports"][0]["sha256"], gpusizer::sha256_hex(read(o.reports[0])));
  // p5e.48xlarge has no on-demand price in us-east-1: said, not zero.
  bool p5e = false;
  for (const auto& e : plan["excluded"])
    p5e = p5e || (e["instance_type"] == "p5e.48xlarge" && e.value("option", "") == "on_demand");
  EXPECT_TRUE(p5e);
  // Markdown for a ticket.
  o.format = gpusizer::TextFormat::md;
  o.out.clear();
  std::ostringstream md;
  run_recommend(o, md);
  EXPECT_NE(md.str().find("| 1 "), std::string::npos) << md.str();
  // Unreachable within --max-instances 2 on every type but the 8-GPU ones.
  o.max_instances = 0;
  EXPECT_THROW(run_recommend(o, md), gpusizer::InputError);
}

TEST(SizingRecommend, CatalogListingAndImport) {
  CatalogOptions o;
  o.catalog.catalog = kCatalog;
  o.accelerator = "h200";
  std::ostringstream out;
  ASSERT_EQ(run_catalog(o, out), 0);
  EXPECT_NE(out.str().find("p5en.48xlarge"), std::string::npos);
  EXPECT_NE(out.str().find("no price in us-east-1"), std::string::npos);  // p5e: none at all
  EXPECT_EQ(out.str().find("p5.48xlarge "), std::string::npos);
  o.accelerator.clear();
  o.max_price = 0.2;
  std::ostringstream cheap;
  run_catalog(o, cheap);
  EXPECT_NE(cheap.str().find("c7i.xlarge"), std::string::npos);  // $0.1785
  EXPECT_EQ(cheap.str().find("m7i.xlarge"), std::string::npos);  // $0.2016
  o.format = gpusizer::TextFormat::csv;                          // recommend only
  EXPECT_THROW(run_catalog(o, cheap), gpusizer::InputError);
}
