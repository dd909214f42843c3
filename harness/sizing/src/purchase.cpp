#include "purchase.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "gpusizer/sizing/dates.hpp"
#include "gpusizer/text.hpp"

namespace gpusizer::sizing {

std::optional<int> capacity_block_days(int wanted_days) {
  if (wanted_days < 1) return 1;
  if (wanted_days <= 14) return wanted_days;
  int days = (wanted_days + 6) / 7 * 7;
  if (days > 182) return std::nullopt;
  return days;
}

std::vector<int> capacity_block_split(int instances) {
  std::vector<int> blocks;
  if (instances < 1 || instances > 256) return blocks;
  int left = instances;
  while (left >= 64) {
    blocks.push_back(64);
    left -= 64;
  }
  for (int size = 32; size >= 1; size /= 2) {
    if (left >= size) {
      blocks.push_back(size);
      left -= size;
    }
  }
  return blocks;
}

namespace detail {

int replicas_needed(const Demand& workload, double per_replica_rate, double loss) {
  const double usable = per_replica_rate * workload.utilization_target * (1.0 - loss);
  double n = std::ceil(workload.target_rate / usable - 1e-9);
  if (n < 1) n = 1;
  if (n > 1e9) return 1000000000;
  return static_cast<int>(n);
}

int instances_needed(const Demand& workload, double per_replica_rate, int replicas_per_instance,
                     double loss) {
  const long long needed = replicas_needed(workload, per_replica_rate, loss);
  const long long per = std::max(1, replicas_per_instance);
  long long n = workload.redundancy_unit == RedundancyUnit::replicas
                    ? (needed + workload.redundancy + per - 1) / per
                    : (needed + per - 1) / per + workload.redundancy;
  return static_cast<int>(std::min<long long>(n, 1000000000));
}

std::int64_t today_of(const EngineOptions& options) {
  return options.today ? *options.today : today_utc();
}

std::optional<int> price_age_days(const Price& price, std::int64_t today) {
  auto day = as_of_day(price.as_of);
  if (!day) return std::nullopt;
  return static_cast<int>(today - *day);
}

namespace {

std::string money(double usd) {
  return format_usd(usd);
}

// The block's hours and, with an offering, its own start and end and when termination starts.
BlockSchedule block_schedule(int billed_days, const Price& price) {
  BlockSchedule s;
  s.billed_hours = billed_days * 24.0;
  s.usable_hours = s.billed_hours - kCapacityBlockTerminationMinutes / 60.0;
  if (price.offering) {
    s.start = price.offering->start_date;
    s.end = price.offering->end_date;
    if (auto end = parse_timestamp(s.end)) {
      s.termination_starts = format_timestamp(*end - kCapacityBlockTerminationMinutes * 60);
    }
  }
  return s;
}

void spare_of(OptionCost& c, const InstanceTypeInfo& type, const Demand& workload,
              const CountModel& model, double loss) {
  c.needed_replicas = replicas_needed(workload, model.per_replica_rate, loss);
  const int provisioned = c.instances * model.replicas_per_instance;
  c.spare_replicas = std::max(0, provisioned - c.needed_replicas);
  if (type.accelerator && type.accelerator_count > 0) {
    c.spare_unit = SpareUnit::accelerators;
    c.spare_accelerators = std::max(0, c.instances * type.accelerator_count -
                                           c.needed_replicas * model.accelerators_per_replica);
    c.spare_usd_per_hour =
        c.spare_accelerators * c.price.usd_per_hour / static_cast<double>(type.accelerator_count);
  } else {
    c.spare_unit = SpareUnit::instances;
    c.spare_accelerators = 0;
    c.spare_usd_per_hour = c.spare_replicas * c.price.usd_per_hour;
  }
}

void offering_notes(OptionCost& c, const Demand& workload, std::int64_t today) {
  const CapacityOffer& o = *c.price.offering;
  c.notes.push_back("capacity block offer" + (o.id.empty() ? "" : " " + o.id) + ": " +
                    std::to_string(o.instance_count) + " instance(s) in " + o.availability_zone +
                    ", " + o.start_date + " to " + o.end_date + " (" +
                    significant(o.duration_hours, 6) + " h), upfront " + money(o.upfront_fee_usd) +
                    ": " + money(o.upfront_fee_usd) + " / (" + std::to_string(o.instance_count) +
                    " x " + significant(o.duration_hours, 6) + " h) per instance-hour");
  if (c.instances > o.instance_count) {
    c.notes.push_back("the plan needs " + std::to_string(c.instances) +
                      " instances, the offer holds " + std::to_string(o.instance_count) +
                      ": search again with --instance-count " + std::to_string(c.instances) +
                      " (the price may differ)");
  }
  if (c.billed_days && std::fabs(o.duration_hours - *c.billed_days * 24.0) > 1e-6) {
    c.notes.push_back("the offer lasts " + significant(o.duration_hours, 6) + " h, the window is " +
                      std::to_string(*c.billed_days) + " days (" +
                      std::to_string(*c.billed_days * 24) +
                      " h): search again with --capacity-duration-hours " +
                      std::to_string(*c.billed_days * 24) + " (the price may differ)");
  }
  (void)workload;
  if (auto start = as_of_day(o.start_date); start && *start < today) {
    c.notes.push_back("the offer started on " + o.start_date +
                      ", before today: it can no longer be bought as offered");
  }
}

}  // namespace

std::vector<OptionCost> price_options(const InstanceTypeInfo& type, const Demand& workload,
                                      const CountModel& model, const EngineOptions& options,
                                      const std::string& region, std::vector<Excluded>& excluded) {
  auto needed = [&](double loss) {
    return model.count ? model.count(loss)
                       : instances_needed(workload, model.per_replica_rate,
                                          model.replicas_per_instance, loss);
  };
  const std::int64_t today = today_of(options);
  std::vector<OptionCost> out;
  const Price* on_demand = nullptr;
  if (auto it = type.prices.find("on_demand"); it != type.prices.end()) on_demand = &it->second;
  if (on_demand == nullptr) {
    excluded.push_back({type.type, "on_demand",
                        "no on-demand price in " + region +
                            " (import one: aws pricing get-products ... --region us-east-1, then "
                            "gpusizer catalog import-aws <file> --region " +
                            region + ")"});
  }
  for (const PurchaseOption kind : all_values<PurchaseOption>()) {
    const std::string option(to_string(kind));
    auto it = type.prices.find(option);
    if (it == type.prices.end()) continue;
    const Price& price = it->second;
    double loss = 0;
    OptionCost c;
    c.option = option;
    c.price = price;
    if (kind == PurchaseOption::spot) {
      if (!workload.spot_allowed()) {
        excluded.push_back(
            {type.type, option, "spot excluded: the workload does not tolerate interruptions"});
        continue;
      }
      loss = workload.interruption_overhead;
      c.notes.push_back("spot: " + std::to_string(static_cast<int>(std::lround(loss * 100))) +
                        "% of throughput assumed lost to interruptions" +
                        (workload.interruptions == Interruptions::tolerable_with_checkpoint
                             ? " and checkpoints"
                             : ""));
    }
    if (is_window_option(kind) && !workload.window) {
      excluded.push_back(
          {type.type, option,
           option + " is paid for a whole window: give reservation_window in the workload"});
      continue;
    }
    c.instances = needed(loss);
    if (options.max_instances && c.instances > *options.max_instances) {
      excluded.push_back({type.type, option,
                          "needs " + std::to_string(c.instances) +
                              " instances, more than --max-instances " +
                              std::to_string(*options.max_instances),
                          c.instances});
      continue;
    }
    if (kind == PurchaseOption::capacity_block && model.instances_per_replica > 64) {
      excluded.push_back({type.type, option,
                          "a replica spans " + std::to_string(model.instances_per_replica) +
                              " instances, more than the 64 one capacity block (one cluster) "
                              "holds"});
      continue;
    }
    if (kind == PurchaseOption::capacity_block && capacity_block_split(c.instances).empty()) {
      excluded.push_back(
          {type.type, option,
           "needs " + std::to_string(c.instances) +
               " instances: EC2 capacity blocks hold at most 64 instances per block and 256 "
               "across blocks (" +
               std::to_string((c.instances + 63) / 64) + " blocks of at most 64 would be needed)"});
      continue;
    }
    const double n = c.instances;
    c.usd_per_hour = n * price.usd_per_hour;
    c.units_per_dollar = model.per_replica_rate * model.replicas_per_instance * (1.0 - loss) *
                         3600.0 / price.usd_per_hour / model.instances_per_replica;
    const bool committed = is_window_option(kind) || kind == PurchaseOption::savings_plan ||
                           kind == PurchaseOption::reserved;
    c.usd_per_month = c.usd_per_hour * (committed ? kDefaultHoursPerMonth : workload.hours());
    if (committed && !is_window_option(kind)) {
      c.notes.push_back(option + ": paid every hour of the term (730 h/month), used or not");
    }
    if (workload.window) {
      const double window_hours = workload.window->days * 24.0;
      const double busy_hours = window_hours * workload.window->busy_fraction;
      if (kind == PurchaseOption::capacity_block) {
        auto days = capacity_block_days(workload.window->days);
        if (!days) {
          excluded.push_back({type.type, option, "capacity blocks last at most 182 days"});
          continue;
        }
        c.blocks = capacity_block_split(c.instances);
        if (model.instances_per_replica > 1) {
          const int span = model.instances_per_replica;
          const bool whole = std::all_of(c.blocks.begin(), c.blocks.end(),
                                         [span](int b) { return b % span == 0; });
          c.notes.push_back(
              "capacity block: the whole cluster of " + std::to_string(c.instances) +
              " instances is reserved; each replica spans " + std::to_string(span) +
              " of them, which must sit in one block (one EFA cluster)" +
              (whole ? ""
                     : ": these block sizes split a replica across blocks, reserve sizes "
                       "that are multiples of " +
                           std::to_string(span)));
        }
        c.billed_days = *days;
        if (*days != workload.window->days) {
          c.notes.push_back("capacity block: " + std::to_string(workload.window->days) +
                            " days rounded up to " + std::to_string(*days) +
                            " (7-day steps beyond 14 days)");
        }
        if (c.blocks.size() > 1) {
          std::string sizes;
          for (int b : c.blocks) sizes += (sizes.empty() ? "" : "+") + std::to_string(b);
          c.notes.push_back("capacity block sizes are 1, 2, 4, ..., 64 instances: " + sizes);
        }
        c.block_schedule = block_schedule(*days, price);
        c.notes.push_back(
            std::string("capacity blocks end at ") + kCapacityBlockEndUtc +
            " UTC; EC2 starts terminating instances " +
            std::to_string(kCapacityBlockTerminationMinutes) +
            " minutes before the end: " + short_number(c.block_schedule->usable_hours) +
            " of the " + short_number(c.block_schedule->billed_hours) + " h billed are usable");
        c.window_usd = c.usd_per_hour * (*days * 24.0);
      } else if (is_window_option(kind) || committed) {
        c.window_usd = c.usd_per_hour * window_hours;
      } else {
        c.window_usd = c.usd_per_hour * busy_hours;
      }
      if (is_window_option(kind) && on_demand != nullptr) {
        c.break_even_busy_fraction = price.usd_per_hour / on_demand->usd_per_hour;
        const int od_instances = needed(0);
        c.on_demand_window_usd = od_instances * on_demand->usd_per_hour * busy_hours;
        // Cheaper or dearer is read from the two window costs, not from the ratio alone: a
        // capacity block rounded up to whole 7-day steps (20 days billed as 21) moves the point
        // where it pays off above the price ratio.
        const bool cheaper = *c.window_usd < *c.on_demand_window_usd;
        std::ostringstream note;
        note << option << ": break-even busy fraction " << short_number(*c.break_even_busy_fraction)
             << " (reservation $/h / on-demand $/h)";
        if (c.billed_days && *c.billed_days != workload.window->days) {
          note << "; with " << *c.billed_days << " days billed for " << workload.window->days
               << " days used it is "
               << short_number(*c.break_even_busy_fraction * *c.billed_days /
                               workload.window->days);
        }
        note << "; at busy fraction " << short_number(workload.window->busy_fraction) << " it is "
             << (cheaper ? "cheaper" : "dearer") << " than on-demand (" << money(*c.window_usd)
             << " vs " << money(*c.on_demand_window_usd) << " over the window)";
        c.notes.push_back(note.str());
      } else if (is_window_option(kind)) {
        c.notes.push_back(option + ": no on-demand price to compute a break-even against");
      }
    }
    if (kind == PurchaseOption::capacity_block && price.offering)
      offering_notes(c, workload, today);
    if (price.illustrative)
      c.notes.push_back(option + " price is an illustrative snapshot (" + price.as_of +
                        "): " + price.note);
    c.price_age_days = price_age_days(price, today);
    c.price_stale = c.price_age_days && *c.price_age_days > options.max_price_age_days;
    if (!c.price_age_days) {
      c.notes.push_back(option + " price has no usable date (as_of \"" + price.as_of +
                        "\"): its age is unknown");
    } else if (c.price_stale) {
      c.notes.push_back(option + " price is STALE: as of " + price.as_of + ", " +
                        std::to_string(*c.price_age_days) + " days old (more than " +
                        std::to_string(options.max_price_age_days) + ")");
    }
    if (model.spare) {
      model.spare(c, loss);
    } else {
      spare_of(c, type, workload, model, loss);
    }
    c.quota = quota_need(type.family, kind, c.instances, type.vcpu, options.quotas);
    if (c.quota && c.quota->quota_vcpus && c.quota->vcpus > *c.quota->quota_vcpus) {
      std::ostringstream note;
      note << "needs " << c.quota->vcpus << " vCPUs of \"" << c.quota->name << "\" ("
           << c.quota->code << "), the account's " << (c.quota->aws_default ? "AWS default " : "")
           << "quota is " << *c.quota->quota_vcpus << ": request an increase first";
      c.notes.push_back(note.str());
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace detail
}  // namespace gpusizer::sizing
