// `gpusizer devices --json`: the NVML inventory as JSON (built with or without nvml.h).
#include "gpusizer/telemetry/nvml_inventory.hpp"

namespace gpusizer::telemetry {

nlohmann::json to_json(const NvmlInventory& inv) {
  using nlohmann::json;
  if (!inv.available)
    return json{{"available", false}, {"unavailable_reason", inv.unavailable_reason}};
  json gpus = json::array();
  for (const auto& g : inv.gpus) {
    json j{{"id", g.id},     {"index", g.index},       {"uuid", g.uuid},
           {"name", g.name}, {"mig_mode", g.mig_mode}, {"mig_pending_mode", g.mig_pending_mode}};
    if (g.power_limit_watts) j["power_limit_watts"] = *g.power_limit_watts;
    if (g.default_sm_clock_mhz) {
      j["default_sm_clock_mhz"] = *g.default_sm_clock_mhz;
      j["default_sm_clock_source"] = g.default_sm_clock_source;
    }
    if (g.max_sm_clock_mhz) j["max_sm_clock_mhz"] = *g.max_sm_clock_mhz;
    if (g.max_memory_clock_mhz) j["max_memory_clock_mhz"] = *g.max_memory_clock_mhz;
    json migs = json::array();
    for (const auto& m : g.mig_devices) {
      migs.push_back({{"uuid", m.uuid},
                      {"profile", m.profile},
                      {"profile_source", m.profile_source},
                      {"gpu_instance_id", m.gpu_instance_id},
                      {"compute_instance_id", m.compute_instance_id},
                      {"sm_count", m.sm_count},
                      {"gpu_instance_slices", m.gpu_instance_slices},
                      {"memory_bytes", m.memory_bytes}});
    }
    j["mig_devices"] = migs;
    if (!g.mig_enumeration_error.empty()) j["mig_enumeration_error"] = g.mig_enumeration_error;
    gpus.push_back(std::move(j));
  }
  return json{{"available", true},
              {"library", inv.library},
              {"driver_version", inv.driver_version},
              {"gpus", gpus},
              {"notes", inv.notes}};
}

}  // namespace gpusizer::telemetry
