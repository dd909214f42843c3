// `monitor --names dcgm|cloudwatch` against the tools' own files (tests/telemetry/data, with
// their sources): every dcgm-exporter family gpusizer writes is one of dcgm-exporter's default
// counters with its type and help text; a Grafana dashboard of dcgm-exporter and a CloudWatch
// agent configuration find the metric names they query in gpusizer's output.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "fake_nvml_env.hpp"
#include "gpusizer/telemetry/monitor.hpp"
#include "monitor_runs.hpp"
#include "prometheus_text.hpp"

namespace gpusizer::telemetry {
namespace {

std::string data_file(const std::string& name) {
  return std::string(GPUSIZER_SOURCE_DIR) + "/tests/telemetry/data/" + name;
}

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t");
  const auto b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

struct Counter {
  std::string type;
  std::string help;
};

// dcgm-exporter's counters file: "FIELD, type, help" (help may hold commas).
std::map<std::string, Counter> default_counters() {
  std::ifstream in(data_file("dcgm-exporter/default-counters.csv"));
  EXPECT_TRUE(in) << "missing test data";
  std::map<std::string, Counter> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const auto a = line.find(',');
    const auto b = line.find(',', a + 1);
    out[trim(line.substr(0, a))] = {trim(line.substr(a + 1, b - a - 1)), trim(line.substr(b + 1))};
  }
  return out;
}

std::string dcgm_output() {
  test::use_fake_nvml("h200_traces.json", 11.5);
  return test::monitor_output(test::one_sample("prometheus", "dcgm"));
}

TEST(MonitorNames, EveryDcgmFamilyIsADefaultCounterWithItsTypeAndHelp) {
  const auto counters = default_counters();
  ASSERT_GT(counters.size(), 20u);
  const std::string text = dcgm_output();
  static const std::regex type(R"(# TYPE (\S+) (\S+))");
  static const std::regex help(R"(# HELP (\S+) (.+))");
  std::set<std::string> families;
  std::smatch m;
  for (const auto& line : test::lines_of(text)) {
    if (std::regex_match(line, m, type)) {
      families.insert(m[1]);
      ASSERT_TRUE(counters.count(m[1])) << m[1] << " is not a dcgm-exporter default counter";
      EXPECT_EQ(counters.at(m[1]).type, m[2]) << line;
    } else if (std::regex_match(line, m, help)) {
      ASSERT_TRUE(counters.count(m[1])) << line;
      EXPECT_EQ(counters.at(m[1]).help, m[2]) << line;
    }
  }
  EXPECT_EQ(families.size(), 9u) << text;
  // The driver version is a label field there and a label here.
  EXPECT_EQ(counters.at("DCGM_FI_DRIVER_VERSION").type, "label");
  EXPECT_NE(text.find(",DCGM_FI_DRIVER_VERSION=\"570.86.15\"}"), std::string::npos) << text;
}

// The dashboard's panels and variables query these names; each one gpusizer can give from NVML
// is in its output with the `gpu` label the dashboard filters on. DCGM_FI_PROF_* are DCGM
// profiling counters, which NVML does not have (docs/monitoring.md says so).
TEST(MonitorNames, DcgmExporterDashboardFindsItsMetrics) {
  std::ifstream in(data_file("dcgm-exporter/dashboard-queries.txt"));
  ASSERT_TRUE(in);
  std::set<std::string> queried;
  static const std::regex name(R"(DCGM_FI_[A-Z0-9_]+)");
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    for (std::sregex_iterator it(line.begin(), line.end(), name), end; it != end; ++it)
      queried.insert(it->str());
  }
  ASSERT_EQ(queried.size(), 6u);
  const auto samples = test::parse_prometheus(dcgm_output());
  for (const auto& q : queried) {
    if (q.rfind("DCGM_FI_PROF_", 0) == 0) continue;
    bool found = false;
    for (const auto& [series, value] : samples) found |= series.rfind(q + "{gpu=\"0\",", 0) == 0;
    EXPECT_TRUE(found) << q;
  }
}

// The CloudWatch agent's sample nvidia_gpu configuration: each measurement is a metric
// nvidia_smi_<measurement> in gpusizer's EMF output under --names cloudwatch.
TEST(MonitorNames, CloudWatchAgentConfigFindsItsMetrics) {
  std::ifstream in(data_file("cloudwatch-agent/validNvidiaGpuConfig.json"));
  ASSERT_TRUE(in);
  const auto config = nlohmann::json::parse(in);
  const auto& measurements = config["metrics"]["metrics_collected"]["nvidia_gpu"]["measurement"];
  ASSERT_EQ(measurements.size(), 3u);
  test::use_fake_nvml("h200_traces.json", 11.5);
  MonitorOptions o = test::one_sample("emf", "cloudwatch");
  o.emf_namespace = "CWAgent";
  const auto line = nlohmann::json::parse(test::lines_of(test::monitor_output(o)).at(0));
  std::set<std::string> declared;
  for (const auto& m : line["_aws"]["CloudWatchMetrics"][0]["Metrics"]) declared.insert(m["Name"]);
  for (const auto& m : measurements) {
    const std::string metric = "nvidia_smi_" + m.get<std::string>();
    EXPECT_TRUE(declared.count(metric)) << metric;
    EXPECT_TRUE(line[metric].is_number()) << metric;
  }
}

// docs/monitoring.md: every metric, dimension and label its code blocks (agent configuration,
// alarms, alert rules) use is in gpusizer's output, on a machine with a MIG GPU and a whole one.
TEST(MonitorNames, DocsConfigurationsFindTheirMetrics) {
  std::ifstream in(std::string(GPUSIZER_SOURCE_DIR) + "/docs/monitoring.md");
  ASSERT_TRUE(in);
  std::set<std::string> metrics, dimensions, labels;
  std::string block, lang;
  bool inside = false;
  static const std::regex metric(R"((nvidia_smi_[a-z_]+|DCGM_FI_[A-Z_]+))");
  static const std::regex dimension(R"(Name=([A-Za-z_]+),Value=)");
  static const std::regex label(R"(\$labels\.([A-Za-z_]+)|([A-Za-z_]+)!="")");
  auto scan = [&](const std::string& text, const std::regex& re, std::set<std::string>& into) {
    for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it)
      into.insert((*it)[1].matched ? (*it)[1].str() : (*it)[2].str());
  };
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("```", 0) == 0) {
      if (inside && lang == "json") {
        const auto j = nlohmann::json::parse(block);
        const auto ptr =
            nlohmann::json::json_pointer("/metrics/metrics_collected/nvidia_gpu/measurement");
        if (j.contains(ptr))
          for (const auto& m : j[ptr]) metrics.insert("nvidia_smi_" + m.get<std::string>());
      }
      scan(block, metric, metrics);
      scan(block, dimension, dimensions);
      scan(block, label, labels);
      inside = !inside;
      lang = line.substr(3);
      block.clear();
    } else if (inside) {
      block += line + "\n";
    }
  }
  ASSERT_GE(metrics.size(), 8u);
  ASSERT_GE(dimensions.size(), 5u);
  ASSERT_GE(labels.size(), 4u);
  test::use_fake_nvml("mig_idle.json", 2.0);
  auto run = [](const std::string& format, const std::string& names) {
    return test::monitor_output(test::one_sample(format, names));
  };
  std::set<std::string> emf_metrics, emf_dimensions;
  for (const auto& line : test::lines_of(run("emf", "cloudwatch"))) {
    const auto j = nlohmann::json::parse(line);
    for (const auto& m : j["_aws"]["CloudWatchMetrics"][0]["Metrics"])
      emf_metrics.insert(m["Name"]);
    for (const auto& d : j["_aws"]["CloudWatchMetrics"][0]["Dimensions"][0])
      emf_dimensions.insert(d);
  }
  const std::string prometheus = run("prometheus", "dcgm");
  for (const auto& m : metrics) {
    if (m.rfind("nvidia_smi_", 0) == 0)
      EXPECT_TRUE(emf_metrics.count(m)) << m;
    else
      EXPECT_NE(prometheus.find("\n" + m + "{"), std::string::npos) << m;
  }
  for (const auto& d : dimensions) EXPECT_TRUE(emf_dimensions.count(d)) << d;
  for (const auto& l : labels) {
    EXPECT_TRUE(prometheus.find("{" + l + "=\"") != std::string::npos ||
                prometheus.find("," + l + "=\"") != std::string::npos)
        << l;
  }
}

}  // namespace
}  // namespace gpusizer::telemetry
