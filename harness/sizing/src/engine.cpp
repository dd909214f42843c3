#include "gpusizer/sizing/engine.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "gpusizer/sizing/plan_print.hpp"
#include "purchase.hpp"
#include "roofline.hpp"

namespace gpusizer::sizing {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = 1024.0 * kMiB;

std::string fmt(double v, int precision = 4) {
  std::ostringstream s;
  s.precision(precision);
  s << v;
  return s.str();
}

std::string money(double usd) {
  return format_usd(usd);
}

const MeasuredRate* user_rate(const Workload& w, const std::string& accelerator,
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
                                  const Workload& w, const CapabilityTable& table,
                                  const Catalog& catalog, const EngineOptions& options) {
  TypeCapacity tc;
  PlanRow& row = tc.row;
  row.instance_type = type.type;
  row.kind = acc.kind;
  row.accelerator = acc.id;
  const double memory_per_accelerator = static_cast<double>(type.accelerator_memory_mib) * kMiB;
  const int needed_by_memory =
      static_cast<int>(std::ceil(w.memory_bytes_per_replica / memory_per_accelerator - 1e-12));
  const int g = w.gpus_per_replica.value_or(std::max(1, needed_by_memory));
  if (w.memory_bytes_per_replica > g * memory_per_accelerator) {
    tc.why = "a replica needs " + fmt(w.memory_bytes_per_replica / kGiB) + " GiB, " +
             std::to_string(g) + " x " + fmt(memory_per_accelerator / kGiB) +
             " GiB does not hold it";
    return tc;
  }
  if (g > type.accelerator_count) {
    tc.why = "a replica needs " + std::to_string(g) + " accelerators (memory " +
             fmt(w.memory_bytes_per_replica / kGiB) + " GiB), the type has " +
             std::to_string(type.accelerator_count);
    return tc;
  }
  row.gpus_per_replica = g;
  row.replicas_per_instance = type.accelerator_count / g;
  if (const MeasuredRate* r = user_rate(w, acc.id, std::nullopt, type.type)) {
    row.units_per_second_per_replica = r->units_per_second;
    row.binding = "user-measured rate";
    row.basis = "user-measured rate (" + r->source + ")";
    row.power_note = "not measured (user-measured rate carries no power)";
  } else if (w.work) {
    const DeviceCapability* device = table.gpu(acc.id);
    auto rl = detail::roofline(*w.work, device, &acc.peaks, g, table, catalog,
                               options.default_efficiency);
    if (!rl.ok) {
      tc.why = (device == nullptr ? "no report for " + acc.id + " and " : acc.id + ": ") + rl.why;
      return tc;
    }
    row.units_per_second_per_replica = rl.units_per_second;
    row.binding = rl.binding;
    row.evidence = rl.evidence;
    row.estimated = rl.estimated;
    if (rl.estimated) {
      std::string notes;
      for (const auto& n : rl.estimate_notes) notes += (notes.empty() ? "" : "; ") + n;
      row.basis = "estimated: " + notes;
      row.power_note = "not measured (estimated)";
    } else {
      row.basis = "measured (reports)";
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
                            " accelerators per replica (" + fmt(w.memory_bytes_per_replica / kGiB) +
                            " GiB per replica)");
      row.binding = "memory capacity";
    }
  } else {
    tc.why = "no user-measured rate for " + acc.id + " and no work_per_unit to estimate from";
    return tc;
  }
  row.units_per_second_per_instance = row.units_per_second_per_replica * row.replicas_per_instance;
  tc.ok = true;
  return tc;
}

TypeCapacity evaluate_cpu(const InstanceTypeInfo& type, const Workload& w,
                          const CapabilityTable& table, const Catalog& catalog,
                          const EngineOptions& options) {
  TypeCapacity tc;
  PlanRow& row = tc.row;
  row.instance_type = type.type;
  row.kind = "cpu";
  row.accelerator = type.cpu_model;
  if (w.memory_bytes_per_replica > type.memory_gib * kGiB) {
    tc.why = "a replica needs " + fmt(w.memory_bytes_per_replica / kGiB) + " GiB, the type has " +
             fmt(type.memory_gib) + " GiB RAM";
    return tc;
  }
  row.replicas_per_instance = 1;
  if (const MeasuredRate* r = user_rate(w, "", std::nullopt, type.type)) {
    row.units_per_second_per_replica = r->units_per_second;
    row.binding = "user-measured rate";
    row.basis = "user-measured rate (" + r->source + ")";
    row.power_note = "not measured (user-measured rate carries no power)";
  } else if (w.work) {
    const DeviceCapability* cpu = table.cpu();
    if (cpu == nullptr || cpu->logical_cpus <= 0) {
      tc.why = "no CPU report (run gpusizer on a CPU to measure one)";
      return tc;
    }
    const double scale = static_cast<double>(type.vcpu) / cpu->logical_cpus;
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
    auto rl =
        detail::roofline(work, cpu, nullptr, scale, table, catalog, options.default_efficiency);
    if (!rl.ok) {
      tc.why = "CPU report: " + rl.why;
      return tc;
    }
    row.units_per_second_per_replica = rl.units_per_second;
    row.binding = rl.binding;
    row.evidence = rl.evidence;
    row.basis = "measured (CPU report, scaled per vCPU: " + std::to_string(type.vcpu) + " / " +
                std::to_string(cpu->logical_cpus) + " logical CPUs of \"" + cpu->report_name +
                "\")";
    row.units_per_joule =
        per_joule(rl.units_per_second, rl.binding_power_watts
                                           ? std::optional<double>(*rl.binding_power_watts * scale)
                                           : std::nullopt);
    row.power_note =
        row.units_per_joule ? "CPU package power (RAPL) scaled per vCPU" : "not measured";
  } else {
    tc.why = "no user-measured rate for " + type.type + " and no work_per_unit";
    return tc;
  }
  row.units_per_second_per_instance = row.units_per_second_per_replica;
  tc.ok = true;
  return tc;
}

bool profile_smaller(const MigProfile& a, const MigProfile& b) {
  if (a.compute_slices != b.compute_slices) return a.compute_slices < b.compute_slices;
  return a.memory_slices < b.memory_slices;
}

void add_rows(const TypeCapacity& tc, const InstanceTypeInfo& type, const Workload& w,
              const EngineOptions& options, Plan& plan) {
  auto costs =
      detail::price_options(type, w, tc.row.units_per_second_per_instance, options, plan.excluded);
  for (auto& c : costs) {
    PlanRow row = tc.row;
    row.cost = std::move(c);
    row.rank_usd = row.cost.window_usd ? *row.cost.window_usd : row.cost.usd_per_month;
    plan.rows.push_back(std::move(row));
  }
}

}  // namespace

std::optional<MigChoice> choose_mig_profile(const Workload& w, const Accelerator& acc,
                                            const CapabilityTable& table, std::string& why) {
  std::vector<MigProfile> profiles = acc.mig_profiles;
  std::sort(profiles.begin(), profiles.end(), profile_smaller);
  why = "no MIG profile of " + acc.id + " qualifies:";
  for (const auto& p : profiles) {
    if (p.name.find("+me") != std::string::npos) continue;  // media profiles are for NVDEC work
    if (static_cast<double>(p.memory_mib) * kMiB < w.memory_bytes_per_replica) {
      why += " " + p.name + " too small;";
      continue;
    }
    MigChoice choice;
    choice.profile = p;
    if (const MeasuredRate* r = user_rate(w, acc.id, p.name, "")) {
      choice.units_per_second_per_slice = r->units_per_second;
      choice.binding = "user-measured rate";
      choice.basis = "user-measured rate (" + r->source + ")";
    } else if (const DeviceCapability* d = table.mig(acc.id, p.name); d != nullptr && w.work) {
      auto rl = detail::roofline(*w.work, d, nullptr, 1.0, table, Catalog{}, DefaultEfficiency{});
      if (!rl.ok) {
        why += " " + p.name + ": " + rl.why + ";";
        continue;
      }
      choice.units_per_second_per_slice = rl.units_per_second;
      choice.binding = rl.binding;
      choice.evidence = rl.evidence;
      choice.basis = "measured (reports, MIG mode " + d->mig_mode + ")";
      choice.units_per_joule = std::nullopt;  // per-slice power is not observable (shared board)
    } else {
      why += " " + p.name + " not measured;";
      continue;
    }
    if (w.min_rate_per_slice && choice.units_per_second_per_slice < *w.min_rate_per_slice) {
      why += " " + p.name + " below min_rate_per_slice;";
      continue;
    }
    choice.slices = detail::instances_needed(w, choice.units_per_second_per_slice, 0);
    return choice;
  }
  return std::nullopt;
}

Plan make_plan(const Workload& w, const CapabilityTable& table, const Catalog& catalog,
               const EngineOptions& options) {
  Plan plan;
  plan.workload_name = w.name;
  plan.workload_file = w.source_file;
  plan.unit = w.unit;
  plan.target_rate = w.target_rate;
  plan.utilization_target = w.utilization_target;
  plan.redundancy = w.redundancy;
  plan.hours_per_month = w.hours();
  plan.catalog_region = catalog.region;
  if (w.window) {
    plan.window_days = w.window->days;
    plan.window_busy_fraction = w.window->busy_fraction;
  }
  plan.warnings = table.warnings;
  plan.assumptions.push_back("instances = ceil(target " + fmt(w.target_rate) + " " + w.unit +
                             "/s / (per-instance rate x utilization target " +
                             fmt(w.utilization_target) + ")) + redundancy " +
                             std::to_string(w.redundancy) + " (N+k)");
  plan.assumptions.push_back("on-demand and spot cost = $/h x " + fmt(w.hours()) + " h/month" +
                             (w.hours_per_month ? " (from the workload)"
                              : w.window        ? " (730 h x busy fraction)"
                                                : " (730 h = 8760 h / 12)"));
  plan.assumptions.push_back(
      "perf/$ = units per dollar at full load of one instance; perf/W = units per "
      "joule of accelerator board power (NVML), not wall power");
  plan.assumptions.push_back(
      "estimated rows use datasheet peaks x the efficiency measured on the "
      "nearest measured accelerator (else defaults: compute " +
      fmt(options.default_efficiency.compute) + ", memory bandwidth " +
      fmt(options.default_efficiency.memory_bandwidth) + ", host link " +
      fmt(options.default_efficiency.host_link) + ", collectives " +
      fmt(options.default_efficiency.collectives) + "); they rank below every measured row");
  bool cpu_used = false;
  for (const auto& type : catalog.instances) {
    if (!type.accelerator) {
      if (!w.allows("cpu")) continue;
      auto tc = evaluate_cpu(type, w, table, catalog, options);
      if (!tc.ok) {
        plan.excluded.push_back({type.type, "", tc.why});
        continue;
      }
      cpu_used = true;
      add_rows(tc, type, w, options, plan);
      continue;
    }
    const Accelerator* acc = catalog.find_accelerator(*type.accelerator);
    if (w.allows(acc->kind)) {
      auto tc = evaluate_accelerated(type, *acc, w, table, catalog, options);
      if (tc.ok) {
        add_rows(tc, type, w, options, plan);
      } else {
        plan.excluded.push_back({type.type, "", tc.why});
      }
    }
    if (w.allows("mig") && !acc->mig_profiles.empty() && w.gpus_per_replica.value_or(1) == 1) {
      std::string why;
      auto choice = choose_mig_profile(w, *acc, table, why);
      if (!choice) continue;  // reported once per accelerator below
      std::vector<MigProfile> demand(static_cast<std::size_t>(choice->slices), choice->profile);
      MigPacking packing = pack_mig(demand);
      const int gpus = static_cast<int>(packing.gpus.size());
      TypeCapacity tc;
      PlanRow& row = tc.row;
      row.instance_type = type.type;
      row.kind = "mig";
      row.accelerator = acc->id;
      row.mig_profile = choice->profile.name;
      row.basis = choice->basis;
      row.binding = choice->binding;
      row.evidence = choice->evidence;
      row.gpus_per_replica = 1;
      row.mig_slices = choice->slices;
      row.power_note = "not measured per slice (NVML power is per physical GPU)";
      row.units_per_second_per_replica = choice->units_per_second_per_slice;
      // Full load of one instance: as many slices of the profile as one GPU holds (7 x 1g,
      // 4 x 1g.2x, 3 x 2g, 2 x 3g, 1 x 4g/7g), not just the slices this workload asked for.
      int slices_per_gpu = 1;
      while (slices_per_gpu < kMigComputeSlices &&
             place_on_one_gpu(std::vector<MigProfile>(static_cast<std::size_t>(slices_per_gpu + 1),
                                                      choice->profile))) {
        ++slices_per_gpu;
      }
      row.replicas_per_instance = slices_per_gpu * type.accelerator_count;
      row.units_per_second_per_instance =
          choice->units_per_second_per_slice * row.replicas_per_instance;
      const int instances = (gpus + type.accelerator_count - 1) / type.accelerator_count;
      row.reasons.push_back("MIG " + choice->profile.name +
                            " is the smallest profile that holds a replica" +
                            (w.min_rate_per_slice ? " and meets min_rate_per_slice" : "") + ": " +
                            std::to_string(choice->slices) + " slices on " + std::to_string(gpus) +
                            " GPU(s), " + std::to_string(instances) + " instance(s)");
      if (const int idle = instances * type.accelerator_count - gpus; idle > 0) {
        row.reasons.push_back(std::to_string(idle) + " of the " +
                              std::to_string(instances * type.accelerator_count) +
                              " GPUs are not used by this workload (paid for all the same; pack "
                              "more workloads onto them with several --workload files)");
      }
      // Cost the packed GPUs: instances follow from GPUs, not from the per-instance formula.
      auto count = [&](double loss) {
        if (loss <= 0) return instances;
        // Spot loses throughput: more slices, repacked.
        const int n = detail::instances_needed(w, choice->units_per_second_per_slice, loss);
        MigPacking more =
            pack_mig(std::vector<MigProfile>(static_cast<std::size_t>(n), choice->profile));
        return (static_cast<int>(more.gpus.size()) + type.accelerator_count - 1) /
               type.accelerator_count;
      };
      auto costs = detail::price_options(type, w, row.units_per_second_per_instance, options,
                                         plan.excluded, count);
      for (auto& c : costs) {
        PlanRow r = row;
        r.mig = packing;
        r.cost = std::move(c);
        r.rank_usd = r.cost.window_usd ? *r.cost.window_usd : r.cost.usd_per_month;
        plan.rows.push_back(std::move(r));
      }
    }
  }
  if (w.allows("mig")) {
    for (const auto& acc : catalog.accelerators) {
      if (acc.mig_profiles.empty()) continue;
      std::string why;
      if (!choose_mig_profile(w, acc, table, why))
        plan.excluded.push_back({"MIG " + acc.id, "", why});
    }
  }
  std::stable_sort(plan.rows.begin(), plan.rows.end(), [](const PlanRow& a, const PlanRow& b) {
    if (a.estimated != b.estimated) return !a.estimated;
    if (a.rank_usd != b.rank_usd) return a.rank_usd < b.rank_usd;
    return a.instance_type < b.instance_type;
  });
  // Plain sentences.
  if (plan.rows.empty()) {
    plan.summary.push_back(
        "No plan: no instance type in the catalog can serve this workload (see the excluded "
        "list).");
    // The two common causes, said plainly.
    const Excluded* fewest = nullptr;
    for (const auto& e : plan.excluded) {
      if (e.instances_needed > 0 &&
          (fewest == nullptr || e.instances_needed < fewest->instances_needed))
        fewest = &e;
    }
    if (fewest != nullptr && options.max_instances) {
      plan.summary.push_back("The target is unreachable within --max-instances " +
                             std::to_string(*options.max_instances) +
                             ": the fewest instances any option needs is " +
                             std::to_string(fewest->instances_needed) + " (" +
                             fewest->instance_type + " " + fewest->option + ").");
    }
    double largest_bytes = 0;
    std::string largest;
    for (const auto& type : catalog.instances) {
      double bytes = 0;
      if (!type.accelerator) {
        if (!w.allows("cpu")) continue;
        bytes = type.memory_gib * kGiB;
      } else {
        const Accelerator* acc = catalog.find_accelerator(*type.accelerator);
        if (acc == nullptr || !(w.allows(acc->kind) || w.allows("mig"))) continue;
        const int usable = w.gpus_per_replica
                               ? std::min(*w.gpus_per_replica, type.accelerator_count)
                               : type.accelerator_count;
        bytes = usable * static_cast<double>(type.accelerator_memory_mib) * kMiB;
      }
      if (bytes > largest_bytes) {
        largest_bytes = bytes;
        largest = type.type;
      }
    }
    if (w.memory_bytes_per_replica > largest_bytes) {
      plan.summary.push_back(
          "Nothing fits the memory: a replica needs " + fmt(w.memory_bytes_per_replica / kGiB) +
          " GiB and the largest "
          "allowed instance type holds " +
          fmt(largest_bytes / kGiB) + " GiB" + (largest.empty() ? "" : " (" + largest + ")") + ".");
    }
    return plan;
  }
  const PlanRow& top = plan.rows.front();
  plan.summary.push_back(
      "Top plan: " + std::to_string(top.cost.instances) + " x " + top.instance_type +
      (top.mig_profile ? " (MIG " + *top.mig_profile + ")" : "") + " " + top.cost.option + ", " +
      money(top.cost.usd_per_hour) + "/h, " + money(top.cost.usd_per_month) + "/month" +
      (top.cost.window_usd ? ", " + money(*top.cost.window_usd) + " over the window" : "") +
      (top.estimated ? " (ESTIMATED: no measured option qualified)" : "") + ".");
  // Measured options rank first, but a cheaper estimate must not go unmentioned.
  const PlanRow* cheaper_estimate = nullptr;
  if (!top.estimated) {
    for (const auto& r : plan.rows) {
      if (r.estimated && r.rank_usd < top.rank_usd &&
          (cheaper_estimate == nullptr || r.rank_usd < cheaper_estimate->rank_usd)) {
        cheaper_estimate = &r;
      }
    }
  }
  if (cheaper_estimate != nullptr) {
    plan.summary.push_back(
        "Cheaper on paper but ESTIMATED (no measurement of " + cheaper_estimate->accelerator +
        "): " + std::to_string(cheaper_estimate->cost.instances) + " x " +
        cheaper_estimate->instance_type + " " + cheaper_estimate->cost.option + " at " +
        money(cheaper_estimate->rank_usd) + " vs " + money(top.rank_usd) +
        " for the top plan; measure that type (gpusizer run on it) before choosing.");
  }
  if (cpu_used) {
    const PlanRow* best_cpu = nullptr;
    const PlanRow* best_acc = nullptr;
    for (const auto& r : plan.rows) {
      if (r.estimated) continue;
      if (r.kind == "cpu" && best_cpu == nullptr) best_cpu = &r;
      if (r.kind != "cpu" && best_acc == nullptr) best_acc = &r;
    }
    const bool estimate_beats_cpu = best_cpu != nullptr && cheaper_estimate != nullptr &&
                                    cheaper_estimate->kind != "cpu" &&
                                    cheaper_estimate->rank_usd < best_cpu->rank_usd;
    if (estimate_beats_cpu && (best_acc == nullptr || best_cpu->rank_usd < best_acc->rank_usd)) {
      plan.summary.push_back("A general-purpose instance is the cheapest MEASURED option (" +
                             std::to_string(best_cpu->cost.instances) + " x " +
                             best_cpu->instance_type + " at " + money(best_cpu->rank_usd) +
                             "), but the estimate above says an accelerator may serve "
                             "the load for less.");
    } else if (best_cpu != nullptr &&
               (best_acc == nullptr || best_cpu->rank_usd < best_acc->rank_usd)) {
      plan.summary.push_back(
          "A general-purpose instance serves the load for less than any accelerator: " +
          std::to_string(best_cpu->cost.instances) + " x " + best_cpu->instance_type + " " +
          best_cpu->cost.option + " at " + money(best_cpu->rank_usd) +
          (best_acc ? " vs " + money(best_acc->rank_usd) + " for " + best_acc->instance_type : "") +
          ".");
    } else if (best_cpu != nullptr) {
      plan.summary.push_back(
          "CPU option evaluated: cheapest is " + std::to_string(best_cpu->cost.instances) + " x " +
          best_cpu->instance_type + " at " + money(best_cpu->rank_usd) + ", dearer than " +
          best_acc->instance_type + " at " + money(best_acc->rank_usd) + ".");
    }
    plan.assumptions.push_back(
        "CPU types: the measured CPU's rates are scaled per vCPU (instance vCPUs / "
        "logical CPUs of the measured host); the instance's CPU model may differ");
  }
  return plan;
}

}  // namespace gpusizer::sizing
