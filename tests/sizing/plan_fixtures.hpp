// The sizing tests' shortcuts around the engine: the test catalog and a workload read through
// the real loaders, and a plan's row by instance type and purchase option.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "fixtures.hpp"
#include "gpusizer/json_input.hpp"
#include "gpusizer/sizing/engine.hpp"

namespace sizing_test {

inline gpusizer::sizing::Catalog catalog(nlohmann::json j = test_catalog()) {
  return gpusizer::sizing::catalog_from_json(gpusizer::JsonInput(j, "test-catalog.json"));
}

inline gpusizer::sizing::Demand workload(const nlohmann::json& j) {
  return gpusizer::sizing::demand_from_json(gpusizer::JsonInput(j, "w.json"));
}

// The whole-GPU row (not a MIG slice) of `type` bought as `option`, or null.
inline const gpusizer::sizing::PlanRow* row(const gpusizer::sizing::Plan& p,
                                            const std::string& type, const std::string& option) {
  for (const auto& r : p.rows) {
    if (r.instance_type == type && r.cost.option == option && !r.mig_profile) return &r;
  }
  return nullptr;
}

}  // namespace sizing_test
