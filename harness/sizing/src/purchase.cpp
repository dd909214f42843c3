#include "purchase.hpp"

#include <cmath>
#include <sstream>

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

int instances_needed(const Workload& workload, double per_instance_rate, double loss) {
  double usable = per_instance_rate * workload.utilization_target * (1.0 - loss);
  double n = std::ceil(workload.target_rate / usable - 1e-9);
  if (n < 1) n = 1;
  if (n > 1e9) return 1000000000;
  return static_cast<int>(n) + workload.redundancy;
}

namespace {

std::string money(double usd) {
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(2);
  s << "$" << usd;
  return s.str();
}

}  // namespace

std::vector<OptionCost> price_options(const InstanceTypeInfo& type, const Workload& workload,
                                      double per_instance_rate, const EngineOptions& options,
                                      std::vector<Excluded>& excluded,
                                      const std::function<int(double loss)>& count) {
  auto needed = [&](double loss) {
    return count ? count(loss) : instances_needed(workload, per_instance_rate, loss);
  };
  std::vector<OptionCost> out;
  const Price* on_demand = nullptr;
  if (auto it = type.prices.find("on_demand"); it != type.prices.end()) on_demand = &it->second;
  if (on_demand == nullptr) {
    excluded.push_back({type.type, "on_demand",
                        "no on-demand price in the catalog for " + type.type + " in this region"});
  }
  for (const char* name : kPurchaseOptions) {
    const std::string option = name;
    auto it = type.prices.find(option);
    if (it == type.prices.end()) continue;
    const Price& price = it->second;
    double loss = 0;
    OptionCost c;
    c.option = option;
    c.price = price;
    if (option == "spot") {
      if (!workload.spot_allowed()) {
        excluded.push_back(
            {type.type, option, "spot excluded: the workload does not tolerate interruptions"});
        continue;
      }
      loss = workload.interruption_overhead;
      c.notes.push_back(
          "spot: " + std::to_string(static_cast<int>(std::lround(loss * 100))) +
          "% of throughput assumed lost to interruptions" +
          (workload.interruptions == "tolerable_with_checkpoint" ? " and checkpoints" : ""));
    }
    if (is_window_option(option) && !workload.window) {
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
    const double n = c.instances;
    c.usd_per_hour = n * price.usd_per_hour;
    c.units_per_dollar = per_instance_rate * (1.0 - loss) * 3600.0 / price.usd_per_hour;
    const bool committed =
        is_window_option(option) || option == "savings_plan" || option == "reserved";
    c.usd_per_month = c.usd_per_hour * (committed ? kDefaultHoursPerMonth : workload.hours());
    if (committed && !is_window_option(option)) {
      c.notes.push_back(option + ": paid every hour of the term (730 h/month), used or not");
    }
    if (workload.window) {
      const double window_hours = workload.window->days * 24.0;
      const double busy_hours = window_hours * workload.window->busy_fraction;
      if (option == "capacity_block") {
        auto days = capacity_block_days(workload.window->days);
        if (!days) {
          excluded.push_back({type.type, option, "capacity blocks last at most 182 days"});
          continue;
        }
        c.blocks = capacity_block_split(c.instances);
        if (c.blocks.empty()) {
          excluded.push_back(
              {type.type, option, "capacity blocks hold at most 256 instances across blocks"});
          continue;
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
        c.notes.push_back(
            "capacity blocks end at 11:30 UTC; EC2 starts terminating instances 30 min before the "
            "end");
        c.window_usd = c.usd_per_hour * (*days * 24.0);
      } else if (is_window_option(option) || committed) {
        c.window_usd = c.usd_per_hour * window_hours;
      } else {
        c.window_usd = c.usd_per_hour * busy_hours;
      }
      if (is_window_option(option) && on_demand != nullptr) {
        c.break_even_busy_fraction = price.usd_per_hour / on_demand->usd_per_hour;
        const int od_instances = needed(0);
        c.on_demand_window_usd = od_instances * on_demand->usd_per_hour * busy_hours;
        // Cheaper or dearer is read from the two window costs, not from the ratio alone: a
        // capacity block rounded up to whole 7-day steps (20 days billed as 21) moves the point
        // where it pays off above the price ratio.
        const bool cheaper = *c.window_usd < *c.on_demand_window_usd;
        std::ostringstream note;
        note.precision(4);
        note << option << ": break-even busy fraction " << *c.break_even_busy_fraction
             << " (reservation $/h / on-demand $/h)";
        if (c.billed_days && *c.billed_days != workload.window->days) {
          note << "; with " << *c.billed_days << " days billed for " << workload.window->days
               << " days used it is "
               << *c.break_even_busy_fraction * *c.billed_days / workload.window->days;
        }
        note << "; at busy fraction " << workload.window->busy_fraction << " it is "
             << (cheaper ? "cheaper" : "dearer") << " than on-demand (" << money(*c.window_usd)
             << " vs " << money(*c.on_demand_window_usd) << " over the window)";
        c.notes.push_back(note.str());
      } else if (is_window_option(option)) {
        c.notes.push_back(option + ": no on-demand price to compute a break-even against");
      }
    }
    if (price.illustrative)
      c.notes.push_back(option + " price is an illustrative snapshot (" + price.as_of +
                        "): " + price.note);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace detail
}  // namespace gpusizer::sizing
