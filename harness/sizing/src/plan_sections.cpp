// The parts of a plan every human format shows the same way: the reservation window (break-even,
// window costs, Capacity Block rules), the excluded options folded by family, and the header of
// a Markdown plan. Composed here once; plan_print.cpp and plan_page.cpp lay them out.
#include <algorithm>
#include <sstream>

#include "gpusizer/sizing/plan_print.hpp"
#include "gpusizer/table.hpp"
#include "gpusizer/text.hpp"

namespace gpusizer::sizing {
namespace {

std::string what(const PlanRow& r, std::size_t rank) {
  return "#" + std::to_string(rank) + " " + std::to_string(r.cost.instances) + " x " +
         r.instance_type + " " + r.cost.option;
}

std::string reservation_line(const Plan& plan, const PlanRow& r, std::size_t rank) {
  const OptionCost& c = r.cost;
  const int days = *plan.window_days;
  const int billed = c.billed_days.value_or(days);
  std::ostringstream s;
  s << what(r, rank) << ": " << format_usd(*c.window_usd) << " for the window (" << billed
    << " days billed = " << billed * 24 << " h at " << format_usd(c.usd_per_hour) << "/h)";
  if (!c.on_demand_window_usd || !c.break_even_busy_fraction) {
    s << "; no on-demand price to compare it with";
    return s.str();
  }
  const double busy = plan.window_busy_fraction.value_or(1);
  const double difference = *c.on_demand_window_usd - *c.window_usd;
  s << " against " << format_usd(*c.on_demand_window_usd) << " on-demand for the same "
    << short_number(days * 24.0 * busy) << " busy hours; break-even busy fraction "
    << short_number(*c.break_even_busy_fraction) << " (reservation $/h / on-demand $/h)";
  if (billed != days) {
    s << ", " << short_number(*c.break_even_busy_fraction * billed / days) << " with " << billed
      << " days billed for " << days;
  }
  s << "; at busy fraction " << short_number(busy) << " it is "
    << (difference > 0 ? "cheaper than on-demand by " + format_usd(difference)
                       : "dearer than on-demand by " + format_usd(-difference));
  return s.str();
}

std::string block_line(const PlanRow& r, std::size_t rank) {
  const OptionCost& c = r.cost;
  const BlockSchedule& b = *c.block_schedule;
  std::ostringstream s;
  s << what(r, rank) << ": " << short_number(b.billed_hours) << " h billed";
  if (!c.blocks.empty()) {
    std::vector<std::string> sizes;
    for (int n : c.blocks) sizes.push_back(std::to_string(n));
    s << " in " << c.blocks.size() << " block(s) of " << join(sizes, " + ") << " instance(s)";
  }
  if (!b.start.empty()) {
    s << "; the offering starts " << b.start << " and ends " << b.end
      << (b.termination_starts.empty() ? "" : ", termination starts " + b.termination_starts);
  } else {
    s << "; it starts when the block you buy starts (aws ec2 describe-capacity-block-offerings "
         "--instance-type "
      << r.instance_type << " --instance-count " << c.instances << " --capacity-duration-hours "
      << short_number(b.billed_hours) << ") and ends at " << kCapacityBlockEndUtc
      << " UTC on its last day";
  }
  s << "; " << short_number(b.usable_hours) << " h usable";
  return s.str();
}

std::string family_of(const std::string& type) {
  return type.substr(0, type.find('.'));
}

std::string unique_join(const std::vector<std::string>& items) {
  std::vector<std::string> seen;
  for (const auto& i : items) {
    if (!i.empty() && std::find(seen.begin(), seen.end(), i) == seen.end()) seen.push_back(i);
  }
  return seen.empty() ? "-" : join(seen);
}

}  // namespace

std::vector<std::string> window_lines(const Plan& plan) {
  if (!plan.window_days) return {};
  const int days = *plan.window_days;
  const double busy = plan.window_busy_fraction.value_or(1);
  std::vector<std::string> lines{
      std::to_string(days) + " days (" + std::to_string(days * 24) + " h) at busy fraction " +
      short_number(busy) + ": on-demand and spot are paid for the " +
      short_number(days * 24.0 * busy) +
      " busy hours, capacity blocks and training plans for every hour billed (whole days; "
      "capacity blocks in 7-day steps beyond 14 days), savings plans and reserved instances for "
      "every hour of the window"};
  bool reservation = false;
  bool block = false;
  for (std::size_t i = 0; i < plan.rows.size(); ++i) {
    const PlanRow& r = plan.rows[i];
    if (!is_window_option(purchase_option(r.cost.option)) || !r.cost.window_usd) continue;
    reservation = true;
    lines.push_back(reservation_line(plan, r, i + 1));
    block = block || r.cost.block_schedule.has_value();
  }
  if (!reservation) {
    lines.push_back(
        "no capacity block or training plan option in the table (a price for one is missing or "
        "the option is excluded: see \"Not in the table\"), so no break-even to give");
  }
  if (!block) return lines;
  lines.push_back(std::string("Capacity Block rules: 1 to 14 days in 1-day steps, then 7-day "
                              "steps up to 182 days; 1, 2, 4, 8, 16, 32 or 64 instances per "
                              "block, at most 256 across blocks; every block ends at ") +
                  kCapacityBlockEndUtc + " UTC and EC2 starts terminating its instances " +
                  std::to_string(kCapacityBlockTerminationMinutes) +
                  " minutes before the end (11:00 UTC): checkpoint and copy results out before "
                  "then, the last half hour billed is not usable");
  for (std::size_t i = 0; i < plan.rows.size(); ++i) {
    if (plan.rows[i].cost.block_schedule) lines.push_back(block_line(plan.rows[i], i + 1));
  }
  return lines;
}

std::vector<ExcludedGroup> excluded_groups(const Plan& plan) {
  std::vector<ExcludedGroup> groups;
  for (const auto& x : plan.excluded) {
    const std::string family = family_of(x.instance_type);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const ExcludedGroup& g) {
      return g.family == family && g.option == x.option && g.reason == x.reason;
    });
    if (it == groups.end()) {
      groups.push_back({family, x.option, x.reason, {x.instance_type}});
    } else if (std::find(it->instance_types.begin(), it->instance_types.end(), x.instance_type) ==
               it->instance_types.end()) {
      it->instance_types.push_back(x.instance_type);
    }
  }
  // Families together, in the order they first appear.
  std::vector<ExcludedGroup> ordered;
  for (const auto& g : groups) {
    if (std::any_of(ordered.begin(), ordered.end(),
                    [&](const ExcludedGroup& o) { return o.family == g.family; }))
      continue;
    for (const auto& same : groups) {
      if (same.family == g.family) ordered.push_back(same);
    }
  }
  return ordered;
}

std::string describe(const ExcludedGroup& group) {
  std::string who;
  if (group.instance_types.size() == 1) {
    who = group.instance_types.front();
  } else {
    std::vector<std::string> sizes;
    for (const auto& t : group.instance_types) {
      const auto dot = t.find('.');
      sizes.push_back(dot == std::string::npos ? t : t.substr(dot + 1));
    }
    who = group.family + " (" + join(sizes) + ")";
  }
  return who + (group.option.empty() ? "" : " " + group.option) + ": " + group.reason;
}

void print_plan_header(const std::vector<Plan>& plans, std::ostream& out) {
  if (plans.empty()) return;
  const Plan& first = plans.front();
  out << "# gpusizer plan\n\n";
  Table table({"item", "value"});
  std::vector<std::string> workloads;
  for (const auto& p : plans) {
    workloads.push_back(p.workload_name +
                        (p.workload_file.empty() ? "" : " (" + p.workload_file + ")"));
  }
  std::vector<std::string> hosts, types, suites, dates, versions, files;
  for (const auto& r : first.reports) {
    hosts.push_back(r.hostname);
    types.push_back(r.instance_type.empty() ? "not recorded" : r.instance_type);
    suites.push_back(r.suite);
    dates.push_back(r.started_at);
    versions.push_back(r.tool_version);
    files.push_back(r.file + " (SHA-256 " + r.sha256 + ")");
  }
  table.add_row({"date", first.prices_checked_on + " (prices aged to this day, UTC)"});
  table.add_row({"tool version", "gpusizer " + first.tool_version});
  table.add_row({"workload", join(workloads)});
  table.add_row({"host", unique_join(hosts)});
  table.add_row({"instance type", unique_join(types)});
  table.add_row({"suite", unique_join(suites)});
  table.add_row({"measured", unique_join(dates)});
  table.add_row({"measured with", unique_join(versions)});
  table.add_row(
      {"reports", files.empty() ? "none: only user-measured rates and estimates" : join(files)});
  std::string catalog = first.catalog_region + ", " + first.catalog_file;
  for (const auto& o : first.overlays) catalog += ", overlay " + o;
  table.add_row({"catalog", catalog});
  table.render(out, TextFormat::md);
  out << "\n";
}

}  // namespace gpusizer::sizing
