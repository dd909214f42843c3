// Bad catalogs, overlays and workloads fail with the one-line errors of the shared loading
// path: "<file>: <json pointer>: <what was expected>".
#include <gtest/gtest.h>

#include "fixtures.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/sizing/catalog.hpp"
#include "gpusizer/sizing/demand.hpp"

using namespace gpusizer::sizing;
using namespace sizing_test;

namespace {

std::string catalog_error(const nlohmann::json& j) {
  auto path = write_json("bad-catalog.json", j);
  try {
    load_catalog(path);
  } catch (const gpusizer::InputError& e) {
    return e.what();
  }
  return "no error";
}

std::string workload_error(const nlohmann::json& j) {
  auto path = write_json("bad-workload.json", j);
  try {
    load_demand(path);
  } catch (const gpusizer::InputError& e) {
    return e.what();
  }
  return "no error";
}

void expect_one_line(const std::string& message, const std::string& starts) {
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_EQ(message.rfind(starts, 0), 0u) << message;
}

}  // namespace

TEST(SizingInputErrors, BadCatalogs) {
  const std::string file = (temp_dir() / "bad-catalog.json").string();
  auto c = test_catalog();
  c["instances"][0]["prices"]["on_demand"]["usd_per_hour"] = 0;  // unknown must be absent
  expect_one_line(
      catalog_error(c),
      file + ": /instances/0/prices/on_demand/usd_per_hour: expected a positive number");
  c = test_catalog();
  c["instances"][1]["prices"]["bargain"] = c["instances"][0]["prices"]["spot"];
  expect_one_line(catalog_error(c),
                  file + ": /instances/1/prices/bargain: unknown purchase option");
  c = test_catalog();
  c["instances"][0]["prices"]["spot"].erase("as_of");
  expect_one_line(catalog_error(c),
                  file + ": /instances/0/prices/spot/as_of: missing required field");
  c = test_catalog();
  c["instances"][2]["accelerator"] = "Z9";
  expect_one_line(catalog_error(c), file + ": /instances/2/accelerator: unknown accelerator");
  c = test_catalog();
  c["instances"][0]["vcpus"] = 4;
  expect_one_line(catalog_error(c), file + ": /instances/0/vcpus: unknown field");
  c = test_catalog();
  c["schema_version"] = 2;
  expect_one_line(catalog_error(c),
                  file + ": /schema_version: unsupported catalog schema_version 2");
  expect_one_line(catalog_error(nlohmann::json::array()),
                  file + ": /: expected a gpusizer catalog");
}

// Every sizing document starts with schema_version 1 and its own kind (input_checks.hpp).
TEST(SizingInputErrors, DocumentHeaders) {
  const std::string catalog_file = (temp_dir() / "bad-catalog.json").string();
  auto c = test_catalog();
  c["kind"] = "gpusizer.workload";
  expect_one_line(catalog_error(c), catalog_file +
                                        ": /kind: expected \"gpusizer.catalog\", got the string "
                                        "\"gpusizer.workload\"");
  const std::string workload_file = (temp_dir() / "bad-workload.json").string();
  auto w = base_workload();
  w["schema_version"] = "1";
  expect_one_line(workload_error(w),
                  workload_file +
                      ": /schema_version: unsupported workload schema_version the string \"1\" "
                      "(this gpusizer reads version 1)");
  w = base_workload();
  w["kind"] = "gpusizer.catalog";
  expect_one_line(workload_error(w), workload_file + ": /kind: expected \"gpusizer.workload\"");
  nlohmann::json o{{"schema_version", 3},
                   {"kind", "gpusizer.catalog-overlay"},
                   {"region", "us-east-1"},
                   {"prices", nlohmann::json::array()}};
  const std::string overlay_file = write_json("header-overlay.json", o);
  auto overlay_error = [&] {
    try {
      load_overlay(overlay_file);
    } catch (const gpusizer::InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  expect_one_line(overlay_error(), overlay_file +
                                       ": /schema_version: unsupported overlay schema_version 3 "
                                       "(this gpusizer reads version 1)");
  o["schema_version"] = 1;
  o["kind"] = "gpusizer.catalog";
  write_json("header-overlay.json", o);
  expect_one_line(overlay_error(), overlay_file + ": /kind: expected \"gpusizer.catalog-overlay\"");
}

TEST(SizingInputErrors, BadOverlay) {
  auto cj = test_catalog();
  Catalog c = catalog_from_json(gpusizer::JsonInput(cj, "c.json"));
  nlohmann::json o{{"schema_version", 1},
                   {"kind", "gpusizer.catalog-overlay"},
                   {"region", "us-east-1"},
                   {"prices",
                    {{{"instance_type", "nope.x"},
                      {"option", "capacity_block"},
                      {"usd_per_hour", 1.5},
                      {"source", "quote"},
                      {"as_of", "2026-02-01"}}}}};
  auto path = write_json("overlay.json", o);
  try {
    apply_overlay(c, load_overlay(path), path);
    FAIL();
  } catch (const gpusizer::InputError& e) {
    expect_one_line(
        e.what(),
        path + ": /prices/0/instance_type: instance type \"nope.x\" is not in the catalog");
  }
  o["prices"][0]["instance_type"] = "t2.x";
  apply_overlay(c, load_overlay(write_json("overlay.json", o)), path);
  EXPECT_DOUBLE_EQ(c.find_instance("t2.x")->prices.at("capacity_block").usd_per_hour, 1.5);
  o["prices"][0]["option"] = "cheap";
  try {
    load_overlay(write_json("overlay.json", o));
    FAIL();
  } catch (const gpusizer::InputError& e) {
    expect_one_line(e.what(), path + ": /prices/0/option: expected one of on_demand");
  }
}

TEST(SizingInputErrors, BadWorkloads) {
  const std::string file = (temp_dir() / "bad-workload.json").string();
  auto w = base_workload();
  w["utilization_target"] = 1.5;
  expect_one_line(workload_error(w), file + ": /utilization_target: expected a fraction in (0, 1]");
  w = base_workload();
  w["target_rate"].erase("unit");
  expect_one_line(workload_error(w), file + ": /target_rate/unit: missing required field");
  w = base_workload();
  w.erase("work_per_unit");
  expect_one_line(workload_error(w),
                  file + ": /: expected \"work_per_unit\" or \"measured_rates\"");
  w = base_workload();
  w["interruptions"] = "sometimes";
  expect_one_line(workload_error(w), file + ": /interruptions: expected one of not_tolerable");
  w = base_workload();
  w["reservation_window"] = {{"days", 400}, {"busy_fraction", 0.5}};
  expect_one_line(workload_error(w), file + ": /reservation_window/days: expected 1..182 days");
  w = base_workload();
  w["allowed"] = {"gpu", "tpu"};
  expect_one_line(workload_error(w), file + ": /allowed/1: expected one of gpu");
  w = base_workload();
  w["work_per_unit"]["flop"] = 1;
  expect_one_line(workload_error(w), file + ": /work_per_unit/flop: unknown field");
  auto path = write_json("not-json.json", nlohmann::json());
  std::ofstream(path) << "{ \"schema_version\": 1,";
  try {
    load_demand(path);
    FAIL();
  } catch (const gpusizer::InputError& e) {
    expect_one_line(e.what(), path + ": not valid JSON");
  }
}
