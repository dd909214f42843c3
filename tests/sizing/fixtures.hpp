// Test fixtures for the sizing tests: small catalogs, workloads and reports written to a
// temporary folder through the real writers (save_report), read back through the real loaders.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusizer/report.hpp"
#include "gpusizer/report_io.hpp"

namespace sizing_test {

inline std::filesystem::path temp_dir() {
  auto dir =
      std::filesystem::temp_directory_path() / ("gpusizer-sizing-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

inline std::string write_json(const std::string& name, const nlohmann::json& j) {
  auto path = temp_dir() / name;
  std::ofstream(path) << j.dump(2);
  return path.string();
}

inline gpusizer::Target gpu_target(const std::string& id, const std::string& name) {
  gpusizer::Target t;
  t.id = id;
  t.kind = gpusizer::TargetKind::gpu;
  t.name = name;
  t.memory_bytes = 80ull << 30;
  return t;
}

// A MIG slice of GPU target `parent`, named as CUDA and NVML name it ("<model> MIG <profile>").
inline gpusizer::Target mig_target(const std::string& id, const std::string& model,
                                   const std::string& profile, const std::string& parent) {
  gpusizer::Target t;
  t.id = id;
  t.kind = gpusizer::TargetKind::mig;
  t.name = model + " MIG " + profile;
  t.parent = parent;
  t.mig_profile = profile;
  return t;
}

inline gpusizer::Record record(const std::string& id, const std::string& family,
                               const std::string& operation, std::vector<std::string> targets,
                               const std::string& metric, double value, const std::string& unit) {
  gpusizer::Record r;
  r.id = id;
  r.family = *gpusizer::parse<gpusizer::Family>(family);
  r.operation = operation;
  r.targets = std::move(targets);
  r.status = gpusizer::RecordStatus::ok;
  r.metrics.push_back({metric, value, unit, "test"});
  r.started_at = "2026-01-01T00:00:00Z";
  return r;
}

inline gpusizer::Report report_with(std::vector<gpusizer::Target> targets,
                                    std::vector<gpusizer::Record> records) {
  gpusizer::Report rep;
  rep.tool.version = "0.1.0";
  rep.tool.git_revision = "test";
  rep.started_at = "2026-01-01T00:00:00Z";
  rep.status = gpusizer::ReportStatus::complete;
  rep.suite = "quick";
  rep.host.logical_cpus = 8;
  rep.targets = std::move(targets);
  rep.records = std::move(records);
  return rep;
}

inline std::string save(const std::string& name, const gpusizer::Report& rep) {
  auto path = temp_dir() / name;
  gpusizer::save_report(rep, path);
  return path.string();
}

// One accelerator "TG" (report name "Test GPU", bf16 peak 200 TFLOP/s, memory 4 TB/s) with MIG
// profiles of H200 shape, one "EG" (estimated: never measured, bf16 peak 400 TFLOP/s), and
// instance types with round prices.
inline nlohmann::json test_catalog() {
  using nlohmann::json;
  auto price = [](double usd) {
    return json{{"usd_per_hour", usd}, {"source", "test"}, {"as_of", "2026-01-01"}};
  };
  json mig = json::array(
      {{{"name", "1g.18gb"}, {"compute_slices", 1}, {"memory_slices", 1}, {"memory_mib", 18432}},
       {{"name", "1g.35gb"}, {"compute_slices", 1}, {"memory_slices", 2}, {"memory_mib", 35840}},
       {{"name", "2g.35gb"}, {"compute_slices", 2}, {"memory_slices", 2}, {"memory_mib", 35840}},
       {{"name", "3g.71gb"}, {"compute_slices", 3}, {"memory_slices", 4}, {"memory_mib", 72704}},
       {{"name", "4g.71gb"}, {"compute_slices", 4}, {"memory_slices", 4}, {"memory_mib", 72704}},
       {{"name", "7g.141gb"},
        {"compute_slices", 7},
        {"memory_slices", 8},
        {"memory_mib", 144384}}});
  json accs =
      json::array({{{"id", "TG"},
                    {"kind", "gpu"},
                    {"report_names", {"Test GPU"}},
                    {"peaks",
                     {{"flops_per_second", {{"bf16", 200e12}}},
                      {"memory_bandwidth_bytes_per_second", 4e12},
                      {"source", "test"}}},
                    {"mig_profiles", mig}},
                   {{"id", "EG"},
                    {"kind", "gpu"},
                    {"report_names", json::array()},
                    {"peaks", {{"flops_per_second", {{"bf16", 400e12}}}, {"source", "test"}}}}});
  auto gpu_type = [&](const std::string& type, const std::string& acc, int n, json prices) {
    return json{{"type", type},
                {"family", type.substr(0, type.find('.'))},
                {"accelerator", acc},
                {"accelerator_count", n},
                {"accelerator_memory_mib", 81920},
                {"vcpu", 16},
                {"memory_gib", 128},
                {"prices", prices},
                {"spec_source", "test"}};
  };
  json instances = json::array(
      {gpu_type("t1.x", "TG", 1,
                {{"on_demand", price(10)}, {"spot", price(3)}, {"capacity_block", price(6)}}),
       gpu_type("t2.x", "TG", 2, {{"on_demand", price(20)}}),
       gpu_type("t8.x", "TG", 8, {{"on_demand", price(80)}}),
       gpu_type("e1.x", "EG", 1, {{"on_demand", price(4)}}),
       {{"type", "c1.large"},
        {"family", "c1"},
        {"vcpu", 4},
        {"memory_gib", 32},
        {"cpu_model", "test cpu"},
        {"prices", {{"on_demand", price(0.5)}}},
        {"spec_source", "test"}}});
  return {{"schema_version", 1}, {"kind", "gpusizer.catalog"}, {"region", "us-east-1"},
          {"currency", "USD"},   {"accelerators", accs},       {"instances", instances}};
}

inline nlohmann::json base_workload() {
  return {{"schema_version", 1},
          {"kind", "gpusizer.workload"},
          {"name", "test"},
          {"target_rate", {{"value", 140}, {"unit", "req"}}},
          {"work_per_unit", {{"flops", 1e12}, {"dtype", "bf16"}}},
          {"memory_bytes_per_replica", 10737418240.0},
          {"utilization_target", 0.7},
          {"allowed", {"gpu"}}};
}

// A MIG-only workload on TG: 25 GiB per replica (1g.18gb is too small, 1g.35gb holds it), N+1
// counted in slices, 30 req/s user-measured per 1g.35gb slice.
inline nlohmann::json mig_workload_json(double target_rate = 140) {
  auto w = base_workload();
  w["target_rate"]["value"] = target_rate;
  w["memory_bytes_per_replica"] = 25.0 * 1073741824.0;
  w["allowed"] = {"mig"};
  w["redundancy"] = 1;
  w["measured_rates"] = {{{"accelerator", "TG"},
                          {"mig_profile", "1g.35gb"},
                          {"units_per_second", 30},
                          {"source", "my vLLM run"}}};
  return w;
}

}  // namespace sizing_test
