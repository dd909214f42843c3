#include "mig_rows.hpp"

#include <algorithm>
#include <cmath>

#include "gpusizer/text.hpp"
#include "purchase.hpp"
#include "roofline.hpp"
#include "summary.hpp"
#include "uncertainty.hpp"

namespace gpusizer::sizing {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = 1024.0 * kMiB;

bool profile_smaller(const MigProfile& a, const MigProfile& b) {
  if (a.compute_slices != b.compute_slices) return a.compute_slices < b.compute_slices;
  return a.memory_slices < b.memory_slices;
}

int slices_per_gpu(const MigProfile& profile) {
  int n = 1;
  while (n < kMigComputeSlices &&
         place_on_one_gpu(std::vector<MigProfile>(static_cast<std::size_t>(n + 1), profile))) {
    ++n;
  }
  return n;
}

}  // namespace

namespace detail {

const MeasuredRate* user_rate(const Demand& w, const std::string& accelerator,
                              const std::optional<std::string>& mig_profile,
                              const std::string& instance_type) {
  for (const auto& r : w.measured_rates) {
    if (r.instance_type && *r.instance_type == instance_type && !r.mig_profile) return &r;
  }
  for (const auto& r : w.measured_rates) {
    if (!accelerator.empty() && r.accelerator == accelerator && r.mig_profile == mig_profile &&
        !r.instance_type) {
      return &r;
    }
  }
  return nullptr;
}

void add_mig_rows(const InstanceTypeInfo& type, const Accelerator& acc, const MigChoice& choice,
                  const Demand& w, const EngineOptions& options, const std::string& region,
                  Plan& plan) {
  std::vector<MigProfile> demand(static_cast<std::size_t>(choice.slices), choice.profile);
  MigPacking packing = pack_mig(demand);
  const int gpus = static_cast<int>(packing.gpus.size());
  PlanRow row;
  row.instance_type = type.type;
  row.kind = HardwareKind::mig;
  row.accelerator = acc.id;
  row.mig_profile = choice.profile.name;
  row.basis = choice.basis;
  row.binding = choice.binding;
  row.evidence = choice.evidence;
  row.spread = choice.spread;
  row.gpus_per_replica = 1;
  row.mig_slices = choice.slices;
  row.memory_per_accelerator_bytes = choice.memory_bytes;
  row.memory_basis = choice.memory_basis;
  row.power_note = "not measured per slice (NVML power is per physical GPU)";
  row.units_per_second_per_replica = choice.units_per_second_per_slice;
  // Full load of one instance: as many slices of the profile as one GPU holds, not just the
  // slices this workload asked for.
  const int per_gpu = slices_per_gpu(choice.profile);
  row.replicas_per_instance = per_gpu * type.accelerator_count;
  row.units_per_second_per_instance = choice.units_per_second_per_slice * row.replicas_per_instance;
  const int instances = (gpus + type.accelerator_count - 1) / type.accelerator_count;
  row.reasons.push_back("MIG " + choice.profile.name +
                        " is the smallest profile that holds a replica" +
                        (w.min_rate_per_slice ? " and meets min_rate_per_slice" : "") + ": " +
                        std::to_string(choice.slices) + " slices on " + std::to_string(gpus) +
                        " GPU(s), " + std::to_string(instances) + " instance(s)");
  row.reasons.push_back("memory fit: " + short_number(w.memory_bytes_per_replica / kGiB) +
                        " GiB per replica in " + short_number(choice.memory_bytes / kGiB) +
                        " GiB (" + choice.memory_basis + ")");
  if (const int idle = instances * type.accelerator_count - gpus; idle > 0) {
    row.reasons.push_back(std::to_string(idle) + " of the " +
                          std::to_string(instances * type.accelerator_count) +
                          " GPUs are not used by this workload (paid for all the same; pack "
                          "more workloads onto them with several --workload files)");
  }
  // Slices for a rate and a loss (spot, an end of the measured spread): needed + k slices,
  // repacked; instances follow from GPUs.
  const double point = choice.units_per_second_per_slice;
  auto gpus_for = [&](double rate, double loss) {
    if (loss <= 0 && rate == point) return gpus;
    const int n = detail::replicas_needed(w, rate, loss) + w.redundancy;
    return static_cast<int>(
        pack_mig(std::vector<MigProfile>(static_cast<std::size_t>(n), choice.profile)).gpus.size());
  };
  const auto model_at = [&](double rate) {
    detail::CountModel model;
    model.per_replica_rate = rate;
    model.replicas_per_instance = row.replicas_per_instance;
    model.accelerators_per_replica = 1;
    model.count = [&, rate](double loss) {
      return (gpus_for(rate, loss) + type.accelerator_count - 1) / type.accelerator_count;
    };
    model.spare = [&, rate](OptionCost& c, double loss) {
      c.spare_unit = SpareUnit::slices;
      c.needed_replicas = detail::replicas_needed(w, rate, loss);
      const int provisioned = per_gpu * c.instances * type.accelerator_count;
      c.spare_replicas = std::max(0, provisioned - c.needed_replicas);
      c.spare_accelerators =
          std::max(0, c.instances * type.accelerator_count - gpus_for(rate, loss));
      c.spare_usd_per_hour =
          provisioned > 0 ? c.usd_per_hour * c.spare_replicas / static_cast<double>(provisioned)
                          : 0;
    };
    return model;
  };
  row.mig = packing;
  for (auto& r : detail::priced_rows(row, type, w, model_at, options, region, plan.excluded))
    plan.rows.push_back(std::move(r));
}

}  // namespace detail

std::optional<MigChoice> choose_mig_profile(const Demand& w, const Accelerator& acc,
                                            const CapabilityTable& table, std::string& why) {
  std::vector<MigProfile> profiles = acc.mig_profiles;
  std::sort(profiles.begin(), profiles.end(), profile_smaller);
  why = "no MIG profile of " + acc.id + " qualifies:";
  for (const auto& p : profiles) {
    if (p.name.find("+me") != std::string::npos) continue;  // media profiles are for NVDEC work
    const DeviceCapability* d = table.mig(acc.id, p.name);
    double memory = 0;
    std::string memory_basis;
    if (d != nullptr && d->memory_bytes > 0) {
      memory = static_cast<double>(d->memory_bytes);
      memory_basis = "measured usable memory of " + p.name + " (" + d->memory_source + ")";
    } else {
      memory = std::max(0.0, (static_cast<double>(p.memory_mib) - kCudaContextReserveMiB) * kMiB);
      memory_basis = "catalog " + short_number(static_cast<double>(p.memory_mib) / 1024.0) +
                     " GiB - " + short_number(kCudaContextReserveMiB / 1024.0) +
                     " GiB CUDA context reserve";
    }
    if (memory < w.memory_bytes_per_replica) {
      why += " " + p.name + " too small (" + short_number(memory / kGiB) + " GiB usable);";
      continue;
    }
    MigChoice choice;
    choice.profile = p;
    choice.memory_bytes = memory;
    choice.memory_basis = memory_basis;
    if (const MeasuredRate* r = detail::user_rate(w, acc.id, p.name, "")) {
      choice.units_per_second_per_slice = r->units_per_second;
      choice.binding = "user-measured rate";
      choice.basis = "user-measured rate (" + r->source + ")";
      choice.spread = detail::no_spread("user-measured rate: no samples");
    } else if (d != nullptr && w.work) {
      const auto passes = detail::roofline_passes(d, [&](const DeviceCapability* device) {
        return detail::roofline(*w.work, device, nullptr, 1.0, table, Catalog{},
                                DefaultEfficiency{});
      });
      const detail::RooflineResult& rl = passes.point;
      if (!rl.ok) {
        why += " " + p.name + ": " + rl.why + ";";
        continue;
      }
      choice.units_per_second_per_slice = rl.units_per_second;
      choice.binding = rl.binding;
      choice.evidence = rl.evidence;
      choice.basis = "measured (reports, MIG mode " + std::string(to_string(d->mig_mode)) + ")";
      choice.units_per_joule = std::nullopt;  // per-slice power is not observable (shared board)
      choice.spread = passes.spread;
    } else {
      why += " " + p.name + " not measured;";
      continue;
    }
    if (w.min_rate_per_slice && choice.units_per_second_per_slice < *w.min_rate_per_slice) {
      why += " " + p.name + " below min_rate_per_slice;";
      continue;
    }
    // MIG counts redundancy in slices (a slice is the replica).
    choice.slices = detail::replicas_needed(w, choice.units_per_second_per_slice, 0) + w.redundancy;
    return choice;
  }
  return std::nullopt;
}

}  // namespace gpusizer::sizing
