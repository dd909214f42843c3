#include "gpusizer/sizing/engine.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "gpusizer/sizing/dates.hpp"
#include "gpusizer/text.hpp"
#include "mig_rows.hpp"
#include "purchase.hpp"
#include "roofline.hpp"
#include "summary.hpp"
#include "uncertainty.hpp"

namespace gpusizer::sizing {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = 1024.0 * kMiB;

// A row sized from the user's own measured rate: no roofline, no power, no samples to spread.
void use_user_rate(PlanRow& row, const MeasuredRate& rate) {
  row.units_per_second_per_replica = rate.units_per_second;
  row.binding = "user-measured rate";
  row.basis = "user-measured rate (" + rate.source + ")";
  row.power_note = "not measured (user-measured rate carries no power)";
  row.spread = detail::no_spread("user-measured rate: no samples");
}

std::optional<double> per_joule(double units_per_second, std::optional<double> watts) {
  if (!watts || *watts <= 0) return std::nullopt;
  return units_per_second / *watts;
}

// Capacity of one instance type before prices: rate per replica and per instance.
struct TypeCapacity {
  bool ok = false;
  std::string why;
  PlanRow row;  // everything but cost
};

TypeCapacity evaluate_accelerated(const InstanceTypeInfo& type, const Accelerator& acc,
                                  const Demand& w, const CapabilityTable& table,
                                  const Catalog& catalog, const EngineOptions& options) {
  TypeCapacity tc;
  PlanRow& row = tc.row;
  row.instance_type = type.type;
  row.kind = acc.kind;
  row.accelerator = acc.id;
  const double memory_per_accelerator =
      usable_accelerator_memory(type, acc, table, row.memory_basis);
  row.memory_per_accelerator_bytes = memory_per_accelerator;
  const int needed_by_memory =
      static_cast<int>(std::ceil(w.memory_bytes_per_replica / memory_per_accelerator - 1e-12));
  const int g = w.gpus_per_replica.value_or(std::max(1, needed_by_memory));
  if (w.memory_bytes_per_replica > g * memory_per_accelerator) {
    tc.why = "a replica needs " + short_number(w.memory_bytes_per_replica / kGiB) + " GiB, " +
             std::to_string(g) + " x " + short_number(memory_per_accelerator / kGiB) +
             " GiB does not hold it (" + row.memory_basis + ")";
    return tc;
  }
  // A replica given more accelerators (gpus_per_replica) than the instance has spans
  // ceil(g / per instance) instances; its collectives then cross the network (the inter-node term
  // of the roofline). A replica whose memory alone needs more is not split unasked.
  if (g > type.accelerator_count && !w.gpus_per_replica) {
    tc.why = "a replica needs " + std::to_string(g) + " accelerators (memory " +
             short_number(w.memory_bytes_per_replica / kGiB) + " GiB, " + row.memory_basis +
             "), the type has " + std::to_string(type.accelerator_count) +
             " (set gpus_per_replica to " + std::to_string(g) + " to span instances)";
    return tc;
  }
  const int span = g > type.accelerator_count
                       ? (g + type.accelerator_count - 1) / std::max(1, type.accelerator_count)
                       : 1;
  row.gpus_per_replica = g;
  row.instances_per_replica = span;
  row.replicas_per_instance = span > 1 ? 0 : type.accelerator_count / g;
  if (span > 1) {
    row.reasons.push_back("a replica spans " + std::to_string(span) + " instances: ceil(" +
                          std::to_string(g) + " accelerators / " +
                          std::to_string(type.accelerator_count) + " per " + type.type + ")" +
                          (g % type.accelerator_count != 0
                               ? ", " + std::to_string(span * type.accelerator_count - g) +
                                     " accelerators of them idle"
                               : std::string()));
  }
  row.reasons.push_back("memory fit: " + short_number(w.memory_bytes_per_replica / kGiB) +
                        " GiB per replica on " + std::to_string(g) + " x " +
                        short_number(memory_per_accelerator / kGiB) + " GiB (" + row.memory_basis +
                        ")");
  if (const MeasuredRate* r = detail::user_rate(w, acc.id, std::nullopt, type.type)) {
    use_user_rate(row, *r);
  } else if (w.work) {
    const DeviceCapability* device = table.gpu(acc.id);
    const auto passes = detail::roofline_passes(device, [&](const DeviceCapability* d) {
      return detail::roofline(*w.work, d, &acc.peaks, g, table, catalog, options.default_efficiency,
                              span, type.network_mbps * 1e6 / 8);
    });
    const detail::RooflineResult& rl = passes.point;
    if (!rl.ok) {
      tc.why = (device == nullptr ? "no report for " + acc.id + " and " : acc.id + ": ") + rl.why;
      return tc;
    }
    row.spread = passes.spread;
    row.units_per_second_per_replica = rl.units_per_second;
    row.binding = rl.binding;
    row.evidence = rl.evidence;
    row.estimated = rl.estimated;
    if (rl.estimated) {
      row.label = PlanLabel::estimated;
      std::string notes;
      for (const auto& n : rl.estimate_notes) notes += (notes.empty() ? "" : "; ") + n;
      row.basis = "estimated: " + notes;
      if (!acc.peaks.caveat.empty()) row.basis += " [" + acc.peaks.caveat + "]";
      if (!acc.peaks.source.empty()) {
        row.reasons.push_back("datasheet peaks of " + acc.id + ": " + acc.peaks.source);
      }
      row.power_note = "not measured (estimated)";
      row.spread = detail::no_spread("estimated from datasheet peaks: nothing measured to spread");
    } else {
      row.basis = "measured (reports)";
      if (device->mig_mode == Concurrency::concurrent) {
        row.basis = "measured (reports, all GPUs loaded concurrently)";
        row.reasons.push_back(acc.id +
                              ": per-GPU figures measured with every GPU of the machine loaded "
                              "at once (gpusizer run --gpu-mode), preferred over one-at-a-time "
                              "figures: shared power, cooling and host link, as in production");
      }
      row.units_per_joule =
          per_joule(rl.units_per_second, rl.binding_power_watts
                                             ? std::optional<double>(*rl.binding_power_watts * g)
                                             : std::nullopt);
      row.power_note = row.units_per_joule
                           ? "accelerator board power (NVML) of the binding record, x " +
                                 std::to_string(g) + " GPU(s)"
                           : "not measured (no telemetry on the binding record)";
    }
    if (!w.gpus_per_replica && needed_by_memory > 1) {
      row.reasons.push_back("memory capacity sets " + std::to_string(g) +
                            " accelerators per replica (" +
                            short_number(w.memory_bytes_per_replica / kGiB) + " GiB per replica)");
      row.binding = "memory capacity";
    }
  } else {
    tc.why = "no user-measured rate for " + acc.id + " and no work_per_unit to estimate from";
    return tc;
  }
  row.units_per_second_per_instance =
      span > 1 ? row.units_per_second_per_replica / span
               : row.units_per_second_per_replica * row.replicas_per_instance;
  if (span > 1 && w.work && w.work->collective_bytes > 0) {
    row.reasons.push_back("binding term: " + row.binding +
                          (row.binding == "collectives (inter-node)"
                               ? " (the network between the replica's instances)"
                               : " (inside each instance)"));
  }
  tc.ok = true;
  return tc;
}

// The CPU measurement a general-purpose type is sized from: one measured on this very type,
// else one measured on a type of the same family, else one with a recorded instance type, else
// the first CPU measured.
const DeviceCapability* cpu_basis(const InstanceTypeInfo& type, const CapabilityTable& table,
                                  const Catalog& catalog, bool& same_type) {
  const auto cpus = table.cpus();
  same_type = false;
  for (const auto* c : cpus) {
    if (c->instance_type == type.type) {
      same_type = true;
      return c;
    }
  }
  for (const auto* c : cpus) {
    const InstanceTypeInfo* t =
        c->instance_type.empty() ? nullptr : catalog.find_instance(c->instance_type);
    if (t != nullptr && t->family == type.family) return c;
  }
  for (const auto* c : cpus) {
    if (!c->instance_type.empty()) return c;
  }
  return cpus.empty() ? nullptr : cpus.front();
}

TypeCapacity evaluate_cpu(const InstanceTypeInfo& type, const Demand& w,
                          const CapabilityTable& table, const Catalog& catalog,
                          const EngineOptions& options) {
  TypeCapacity tc;
  PlanRow& row = tc.row;
  row.instance_type = type.type;
  row.kind = HardwareKind::cpu;
  row.accelerator = type.cpu_model;
  if (w.memory_bytes_per_replica > type.memory_gib * kGiB) {
    tc.why = "a replica needs " + short_number(w.memory_bytes_per_replica / kGiB) +
             " GiB, the type has " + short_number(type.memory_gib) + " GiB RAM";
    return tc;
  }
  row.replicas_per_instance = 1;
  if (const MeasuredRate* r = detail::user_rate(w, "", std::nullopt, type.type)) {
    use_user_rate(row, *r);
  } else if (w.work) {
    bool same_type = false;
    const DeviceCapability* cpu = cpu_basis(type, table, catalog, same_type);
    if (cpu == nullptr || cpu->logical_cpus <= 0) {
      tc.why = "no CPU report (run gpusizer on a CPU to measure one)";
      return tc;
    }
    const double scale = same_type ? 1.0 : static_cast<double>(type.vcpu) / cpu->logical_cpus;
    // A CPU runs reduced-precision float work (bf16, fp16, tf32, fp8) in fp32 unless measured
    // otherwise: size it with the measured fp32 GEMM rate and say so.
    WorkPerUnit work = *w.work;
    const bool reduced = work.dtype == "bf16" || work.dtype == "fp16" || work.dtype == "tf32" ||
                         work.dtype == "fp8_e4m3";
    if (work.flops > 0 && reduced && cpu->flops.count(work.dtype) == 0 &&
        cpu->flops.count("fp32") != 0) {
      row.reasons.push_back("the CPU report has no " + work.dtype +
                            " GEMM: the CPU is sized running the work in fp32, at its measured "
                            "fp32 GEMM rate (a CPU with native " +
                            work.dtype + " units may do better; measure it)");
      work.dtype = "fp32";
    }
    const auto passes = detail::roofline_passes(cpu, [&](const DeviceCapability* d) {
      return detail::roofline(work, d, nullptr, scale, table, catalog, options.default_efficiency);
    });
    const detail::RooflineResult& rl = passes.point;
    if (!rl.ok) {
      tc.why = "CPU report: " + rl.why;
      return tc;
    }
    row.spread = passes.spread;
    row.units_per_second_per_replica = rl.units_per_second;
    row.binding = rl.binding;
    row.evidence = rl.evidence;
    const std::string measured_on =
        "\"" + cpu->report_name + "\", " + std::to_string(cpu->logical_cpus) + " logical CPUs" +
        (cpu->instance_type.empty() ? "" : ", on " + cpu->instance_type) + ", in " +
        cpu->report_file;
    if (same_type) {
      row.label = PlanLabel::measured;
      row.basis = "measured on this instance type (" + measured_on + ")";
    } else {
      row.label = PlanLabel::scaled;
      row.basis = "scaled from the CPU measured (" + measured_on + ") x " +
                  std::to_string(type.vcpu) + " / " + std::to_string(cpu->logical_cpus) +
                  " vCPUs; the instance's CPU model may differ";
    }
    row.units_per_joule =
        per_joule(rl.units_per_second, rl.binding_power_watts
                                           ? std::optional<double>(*rl.binding_power_watts * scale)
                                           : std::nullopt);
    row.power_note = row.units_per_joule ? (same_type ? "CPU package power (RAPL)"
                                                      : "CPU package power (RAPL) scaled per vCPU")
                                         : "not measured";
  } else {
    tc.why = "no user-measured rate for " + type.type + " and no work_per_unit";
    return tc;
  }
  row.units_per_second_per_instance = row.units_per_second_per_replica;
  tc.ok = true;
  return tc;
}

void add_rows(const TypeCapacity& tc, const InstanceTypeInfo& type, const Demand& w,
              const EngineOptions& options, const std::string& region, Plan& plan) {
  const int span = tc.row.instances_per_replica;
  // The count model at a per-replica rate (the point, or an end of the measured spread).
  const auto model_at = [&](double rate) {
    detail::CountModel model;
    model.per_replica_rate = rate;
    model.replicas_per_instance = tc.row.replicas_per_instance;
    model.accelerators_per_replica = tc.row.gpus_per_replica;
    if (span <= 1) return model;
    // Replicas spanning instances: count whole groups of `span` instances.
    model.replicas_per_instance = 1;
    model.instances_per_replica = span;
    model.count = [&w, rate, span](double loss) {
      const long long replicas = detail::replicas_needed(w, rate, loss) +
                                 (w.redundancy_unit == RedundancyUnit::replicas ? w.redundancy : 0);
      const long long n =
          replicas * span + (w.redundancy_unit == RedundancyUnit::replicas ? 0 : w.redundancy);
      return static_cast<int>(std::min<long long>(n, 1000000000));
    };
    model.spare = [&w, &tc, &type, rate, span](OptionCost& c, double loss) {
      c.needed_replicas = detail::replicas_needed(w, rate, loss);
      c.spare_replicas = std::max(0, c.instances / span - c.needed_replicas);
      c.spare_unit = SpareUnit::accelerators;
      c.spare_accelerators = std::max(
          0, c.instances * type.accelerator_count - c.needed_replicas * tc.row.gpus_per_replica);
      c.spare_usd_per_hour = c.spare_accelerators * c.price.usd_per_hour /
                             static_cast<double>(std::max(1, type.accelerator_count));
    };
    return model;
  };
  for (auto& row : detail::priced_rows(tc.row, type, w, model_at, options, region, plan.excluded))
    plan.rows.push_back(std::move(row));
}

// Slices of `profile` one GPU holds (7 x 1g, 4 x 1g.2x, 3 x 2g, 2 x 3g, 1 x 4g/7g).
}  // namespace

double usable_accelerator_memory(const InstanceTypeInfo& type, const Accelerator& acc,
                                 const CapabilityTable& table, std::string& basis) {
  const double catalog_bytes = static_cast<double>(type.accelerator_memory_mib) * kMiB;
  if (const DeviceCapability* d = table.gpu(acc.id); d != nullptr && d->memory_bytes > 0) {
    basis = "measured usable memory " + short_number(static_cast<double>(d->memory_bytes) / kGiB) +
            " GiB per " + acc.id + " (" + d->memory_source + "; catalog " +
            short_number(catalog_bytes / kGiB) + " GiB)";
    return static_cast<double>(d->memory_bytes);
  }
  if (acc.kind != HardwareKind::gpu) {
    basis = "catalog " + short_number(catalog_bytes / kGiB) + " GiB per " + acc.id +
            " (not measured; no CUDA context on a Neuron device)";
    return catalog_bytes;
  }
  const double usable = std::max(0.0, catalog_bytes - kCudaContextReserveMiB * kMiB);
  basis = "catalog " + short_number(catalog_bytes / kGiB) + " GiB per " + acc.id + " - " +
          short_number(kCudaContextReserveMiB / 1024.0) +
          " GiB reserved for the CUDA context = " + short_number(usable / kGiB) +
          " GiB (not measured)";
  return usable;
}

Plan make_plan(const Demand& w, const CapabilityTable& table, const Catalog& catalog,
               const EngineOptions& options) {
  Plan plan;
  plan.workload_name = w.name;
  plan.workload_file = w.source_file;
  plan.unit = w.unit;
  plan.target_rate = w.target_rate;
  plan.utilization_target = w.utilization_target;
  plan.redundancy = w.redundancy;
  plan.redundancy_unit = w.redundancy_unit;
  plan.hours_per_month = w.hours();
  plan.catalog_region = catalog.region;
  plan.prices_checked_on = format_day(detail::today_of(options));
  plan.max_price_age_days = options.max_price_age_days;
  if (w.window) {
    plan.window_days = w.window->days;
    plan.window_busy_fraction = w.window->busy_fraction;
  }
  plan.warnings = table.warnings;
  plan.assumptions.push_back(
      "instances = " +
      std::string(w.redundancy_unit == RedundancyUnit::replicas
                      ? "ceil((replicas needed + redundancy " + std::to_string(w.redundancy) +
                            " replicas) / replicas per instance)"
                      : "ceil(replicas needed / replicas per instance) + redundancy " +
                            std::to_string(w.redundancy) + " instances (N+k)") +
      ", replicas needed = ceil(target " + short_number(w.target_rate) + " " + w.unit +
      "/s / (per-replica rate x utilization target " + short_number(w.utilization_target) +
      ")); MIG counts redundancy in slices");
  plan.assumptions.push_back(
      "spare = capacity paid for beyond the replicas the target needs at the utilization "
      "target: accelerators (GPU/Neuron types, at the per-accelerator share of the price), "
      "instances (CPU types) or slice positions (MIG)");
  plan.assumptions.push_back("on-demand and spot cost = $/h x " + short_number(w.hours()) +
                             " h/month" +
                             (w.hours_per_month ? " (from the workload)"
                              : w.window        ? " (730 h x busy fraction)"
                                                : " (730 h = 8760 h / 12)"));
  plan.assumptions.push_back(
      "perf/$ = units per dollar at full load of one instance; perf/W = units per "
      "joule of accelerator board power (NVML), not wall power");
  plan.assumptions.push_back(
      "estimated rows use datasheet peaks x the efficiency measured on the "
      "nearest measured accelerator (else defaults: compute " +
      short_number(options.default_efficiency.compute) + ", memory bandwidth " +
      short_number(options.default_efficiency.memory_bandwidth) + ", host link " +
      short_number(options.default_efficiency.host_link) + ", collectives " +
      short_number(options.default_efficiency.collectives) +
      "); estimated and scaled rows rank below every measured row");
  plan.assumptions.push_back(
      "accelerator memory: the measured usable memory when a report has the accelerator, else "
      "the catalog figure minus " +
      short_number(kCudaContextReserveMiB / 1024.0) + " GiB for the CUDA context (GPUs)");
  plan.assumptions.push_back("prices older than " + std::to_string(options.max_price_age_days) +
                             " days on " + plan.prices_checked_on + " are marked stale");
  bool cpu_used = false;
  for (const auto& type : catalog.instances) {
    if (!type.accelerator) {
      if (!w.allows(HardwareKind::cpu)) continue;
      auto tc = evaluate_cpu(type, w, table, catalog, options);
      if (!tc.ok) {
        plan.excluded.push_back({type.type, "", tc.why});
        continue;
      }
      cpu_used = true;
      add_rows(tc, type, w, options, catalog.region, plan);
      continue;
    }
    const Accelerator* acc = catalog.find_accelerator(*type.accelerator);
    if (w.allows(acc->kind)) {
      auto tc = evaluate_accelerated(type, *acc, w, table, catalog, options);
      if (tc.ok) {
        add_rows(tc, type, w, options, catalog.region, plan);
      } else {
        plan.excluded.push_back({type.type, "", tc.why});
      }
    }
    if (w.allows(HardwareKind::mig) && !acc->mig_profiles.empty() &&
        w.gpus_per_replica.value_or(1) == 1) {
      std::string why;
      auto choice = choose_mig_profile(w, *acc, table, why);
      if (!choice) continue;  // reported once per accelerator below
      detail::add_mig_rows(type, *acc, *choice, w, options, catalog.region, plan);
    }
  }
  if (w.allows(HardwareKind::mig)) {
    std::vector<std::string> seen;
    for (const auto& type : catalog.instances) {
      const Accelerator* acc =
          type.accelerator ? catalog.find_accelerator(*type.accelerator) : nullptr;
      if (acc == nullptr || acc->mig_profiles.empty()) continue;
      if (std::find(seen.begin(), seen.end(), acc->id) != seen.end()) continue;
      seen.push_back(acc->id);
      std::string why;
      if (!choose_mig_profile(w, *acc, table, why))
        plan.excluded.push_back({"MIG " + acc->id, "", why});
    }
  }
  std::stable_sort(plan.rows.begin(), plan.rows.end(), [](const PlanRow& a, const PlanRow& b) {
    const bool a_measured = a.label == PlanLabel::measured;
    const bool b_measured = b.label == PlanLabel::measured;
    if (a_measured != b_measured) return a_measured;
    if (a.rank_usd != b.rank_usd) return a.rank_usd < b.rank_usd;
    return a.instance_type < b.instance_type;
  });
  detail::write_summary(plan, w, table, catalog, options, cpu_used);
  detail::mark_ties(plan);
  return plan;
}

}  // namespace gpusizer::sizing
