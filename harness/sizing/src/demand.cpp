#include "gpusizer/sizing/demand.hpp"

#include <algorithm>

#include "gpusizer/error.hpp"
#include "gpusizer/sizing/catalog.hpp"
#include "input_checks.hpp"

namespace gpusizer::sizing {

bool Demand::allows(HardwareKind kind) const {
  return std::find(allowed.begin(), allowed.end(), kind) != allowed.end();
}

double Demand::hours() const {
  if (hours_per_month) return *hours_per_month;
  if (window) return kDefaultHoursPerMonth * window->busy_fraction;
  return kDefaultHoursPerMonth;
}

namespace {

WorkPerUnit work_from_json(const JsonInput& in) {
  in.allow_only({"flops", "dtype", "device_memory_bytes", "host_to_device_bytes", "io_bytes",
                 "collective_bytes", "collective_operation"});
  WorkPerUnit w;
  w.flops = in.optional_non_negative("flops").value_or(0);
  w.dtype = in.optional_string("dtype").value_or("bf16");
  w.device_memory_bytes = in.optional_non_negative("device_memory_bytes").value_or(0);
  w.host_to_device_bytes = in.optional_non_negative("host_to_device_bytes").value_or(0);
  w.io_bytes = in.optional_non_negative("io_bytes").value_or(0);
  w.collective_bytes = in.optional_non_negative("collective_bytes").value_or(0);
  w.collective_operation = in.optional_string("collective_operation").value_or("all_reduce");
  if (w.flops == 0 && w.device_memory_bytes == 0 && w.host_to_device_bytes == 0 &&
      w.io_bytes == 0 && w.collective_bytes == 0) {
    in.fail("expected at least one non-zero amount of work per unit");
  }
  return w;
}

}  // namespace

Demand demand_from_json(const JsonInput& in) {
  if (!in.is_object())
    in.fail("expected a gpusizer workload (a JSON object), got " + describe_json(in.raw()));
  in.allow_only({"$schema", "schema_version", "kind", "name", "description", "target_rate",
                 "work_per_unit", "measured_rates", "memory_bytes_per_replica", "gpus_per_replica",
                 "utilization_target", "redundancy", "redundancy_unit", "hours_per_month",
                 "reservation_window", "interruptions", "interruption_overhead", "allowed",
                 "min_rate_per_slice"});
  detail::check_document_header(in, "workload", kWorkloadSchemaVersion, "gpusizer.workload");
  Demand w;
  w.source_file = in.source();
  w.name = in.at("name").non_empty_string();
  auto rate = in.at("target_rate");
  rate.allow_only({"value", "unit"});
  w.target_rate = rate.at("value").positive();
  w.unit = rate.at("unit").non_empty_string();
  if (auto work = in.find("work_per_unit")) w.work = work_from_json(*work);
  if (auto rates = in.find("measured_rates")) {
    for (const auto& r : rates->items()) {
      r.allow_only({"accelerator", "mig_profile", "instance_type", "units_per_second", "source"});
      MeasuredRate m;
      m.accelerator = r.optional_string("accelerator").value_or("");
      m.mig_profile = r.optional_string("mig_profile");
      m.instance_type = r.optional_string("instance_type");
      if (m.accelerator.empty() && !m.instance_type) {
        r.fail("expected \"accelerator\" or \"instance_type\"");
      }
      if (m.mig_profile && m.accelerator.empty())
        r.at("mig_profile").fail("a MIG rate needs \"accelerator\"");
      m.units_per_second = r.at("units_per_second").positive();
      m.source = r.at("source").non_empty_string();
      w.measured_rates.push_back(std::move(m));
    }
  }
  if (!w.work && w.measured_rates.empty()) {
    in.fail("expected \"work_per_unit\" or \"measured_rates\" (nothing to size from)");
  }
  w.memory_bytes_per_replica = in.at("memory_bytes_per_replica").positive();
  if (auto g = in.find("gpus_per_replica")) {
    w.gpus_per_replica = static_cast<int>(g->count());
    if (*w.gpus_per_replica < 1) g->fail("expected at least 1");
  }
  if (auto u = in.find("utilization_target")) {
    w.utilization_target = u->positive();
    if (w.utilization_target > 1)
      u->fail("expected a fraction in (0, 1], got " + describe_json(u->raw()));
  }
  if (auto k = in.find("redundancy")) w.redundancy = static_cast<int>(k->count());
  if (auto u = in.find("redundancy_unit")) w.redundancy_unit = u->enumerated<RedundancyUnit>();
  if (auto h = in.find("hours_per_month")) {
    w.hours_per_month = h->positive();
    if (*w.hours_per_month > 744) h->fail("expected at most 744 hours in a month");
  }
  if (auto win = in.find("reservation_window")) {
    win->allow_only({"days", "busy_fraction"});
    ReservationWindow rw;
    rw.days = static_cast<int>(win->at("days").count());
    if (rw.days < 1 || rw.days > 182) win->at("days").fail("expected 1..182 days");
    rw.busy_fraction = win->at("busy_fraction").positive();
    if (rw.busy_fraction > 1) win->at("busy_fraction").fail("expected a fraction in (0, 1]");
    w.window = rw;
  }
  if (auto i = in.find("interruptions")) w.interruptions = i->enumerated<Interruptions>();
  if (auto o = in.find("interruption_overhead")) {
    w.interruption_overhead = o->non_negative();
    if (w.interruption_overhead >= 1) o->fail("expected a fraction in [0, 1)");
  }
  if (auto a = in.find("allowed")) {
    for (const auto& item : a->items()) {
      w.allowed.push_back(item.enumerated<HardwareKind>());
    }
  } else {
    const auto all = all_values<HardwareKind>();
    w.allowed.assign(all.begin(), all.end());
  }
  w.min_rate_per_slice = in.optional_positive("min_rate_per_slice");
  return w;
}

void check_demand_names(const Demand& workload, const Catalog& catalog) {
  for (std::size_t i = 0; i < workload.measured_rates.size(); ++i) {
    const MeasuredRate& r = workload.measured_rates[i];
    const std::string where = workload.source_file + ": /measured_rates/" + std::to_string(i) + "/";
    const Accelerator* acc = nullptr;
    if (!r.accelerator.empty()) {
      acc = catalog.find_accelerator(r.accelerator);
      if (acc == nullptr) {
        std::string known;
        for (const auto& a : catalog.accelerators) known += (known.empty() ? "" : ", ") + a.id;
        throw InputError(where + "accelerator: unknown accelerator \"" + r.accelerator +
                         "\" (the catalog has: " + known + ")");
      }
    }
    if (r.mig_profile && acc != nullptr) {
      const bool known = std::any_of(acc->mig_profiles.begin(), acc->mig_profiles.end(),
                                     [&](const MigProfile& p) { return p.name == *r.mig_profile; });
      if (!known) {
        std::string names;
        for (const auto& p : acc->mig_profiles) names += (names.empty() ? "" : ", ") + p.name;
        throw InputError(where + "mig_profile: " + acc->id + " has no MIG profile \"" +
                         *r.mig_profile + "\"" +
                         (names.empty() ? " (it has none)" : " (it has: " + names + ")"));
      }
    }
    if (r.instance_type && catalog.find_instance(*r.instance_type) == nullptr) {
      throw InputError(where + "instance_type: instance type \"" + *r.instance_type +
                       "\" is not in the catalog");
    }
  }
}

Demand load_demand(const std::filesystem::path& file) {
  nlohmann::json doc = JsonInput::parse_file(file, input_kinds::workload);
  return demand_from_json(JsonInput(doc, file.string()));
}

}  // namespace gpusizer::sizing
