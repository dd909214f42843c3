#include "gpusizer/sizing/combined_mig.hpp"

#include "gpusizer/sizing/engine.hpp"

namespace gpusizer::sizing {

std::vector<CombinedMigPacking> combine_mig(const std::vector<Demand>& workloads,
                                            const CapabilityTable& table, const Catalog& catalog) {
  std::vector<CombinedMigPacking> all;
  for (const auto& acc : catalog.accelerators) {
    if (acc.mig_profiles.empty()) continue;
    CombinedMigPacking combined;
    combined.accelerator = acc.id;
    std::vector<MigProfile> demand;
    bool every = true;
    for (const auto& w : workloads) {
      std::string why;
      auto choice =
          w.allows(HardwareKind::mig) ? choose_mig_profile(w, acc, table, why) : std::nullopt;
      if (!choice) {
        every = false;
        break;
      }
      demand.insert(demand.end(), static_cast<std::size_t>(choice->slices), choice->profile);
      combined.workloads.push_back({w.name, choice->profile.name, choice->slices});
    }
    if (!every) continue;
    combined.packing = pack_mig(demand);
    const int gpus = static_cast<int>(combined.packing.gpus.size());
    for (const auto& t : catalog.instances) {
      if (t.accelerator != acc.id) continue;
      CombinedMigPacking::Instances i{
          t.type, (gpus + t.accelerator_count - 1) / t.accelerator_count, std::nullopt};
      auto od = t.prices.find("on_demand");
      if (od != t.prices.end()) i.on_demand_usd_per_hour = i.instances * od->second.usd_per_hour;
      combined.instance_types.push_back(i);
    }
    all.push_back(std::move(combined));
  }
  return all;
}

nlohmann::json to_json(const CombinedMigPacking& c) {
  nlohmann::json chosen = nlohmann::json::array();
  for (const auto& w : c.workloads) {
    chosen.push_back({{"workload", w.workload}, {"profile", w.profile}, {"slices", w.slices}});
  }
  nlohmann::json layouts = nlohmann::json::array();
  for (const auto& g : c.packing.gpus) layouts.push_back(g.describe());
  nlohmann::json types = nlohmann::json::array();
  for (const auto& t : c.instance_types) {
    nlohmann::json j{{"instance_type", t.instance_type}, {"instances", t.instances}};
    if (t.on_demand_usd_per_hour) j["on_demand_usd_per_hour"] = *t.on_demand_usd_per_hour;
    types.push_back(j);
  }
  return {{"accelerator", c.accelerator},
          {"workloads", chosen},
          {"gpus", static_cast<int>(c.packing.gpus.size())},
          {"layouts", layouts},
          {"stranded_compute_slices", c.packing.stranded_compute_slices},
          {"stranded_memory_slices", c.packing.stranded_memory_slices},
          {"mig_parted_config", mig_parted_config(c.packing, "gpusizer-combined")},
          {"instance_types", types}};
}

}  // namespace gpusizer::sizing
