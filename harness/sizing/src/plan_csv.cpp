// `recommend --format csv`: one row per ranked option, numbers as plain numbers (no "$", no
// thousands separators, no exponent), units in the column names or in the `unit` column, an
// empty cell where a figure does not apply. RFC 4180 quoting through the core Table.
#include <optional>

#include "gpusizer/sizing/plan_print.hpp"
#include "gpusizer/table.hpp"
#include "gpusizer/text.hpp"

namespace gpusizer::sizing {
namespace {

std::string number(std::optional<double> v) {
  return v ? plain_number(*v) : "";
}

std::string yes_no(bool v) {
  return v ? "true" : "false";
}

}  // namespace

void print_plan_csv(const std::vector<Plan>& plans, std::ostream& out) {
  Table table({"workload",
               "rank",
               "instance_type",
               "mig_profile",
               "instances",
               "option",
               "label",
               "unit",
               "units_per_second_per_instance",
               "usd_per_hour",
               "usd_per_month",
               "window_days",
               "busy_fraction",
               "window_usd",
               "on_demand_window_usd",
               "break_even_busy_fraction",
               "billed_days",
               "capacity_blocks",
               "block_start",
               "block_end",
               "block_ends_at_utc",
               "termination_minutes_before_end",
               "block_usable_hours",
               "units_per_dollar",
               "units_per_joule",
               "spare_unit",
               "spare",
               "spare_usd_per_hour",
               "vcpus",
               "binding",
               "basis",
               "price_usd_per_hour",
               "price_as_of",
               "price_age_days",
               "price_stale",
               "price_illustrative",
               "price_source"});
  for (const auto& p : plans) {
    for (std::size_t i = 0; i < p.rows.size(); ++i) {
      const PlanRow& r = p.rows[i];
      const OptionCost& c = r.cost;
      std::string blocks;
      for (int b : c.blocks) blocks += (blocks.empty() ? "" : "+") + std::to_string(b);
      const BlockSchedule* s = c.block_schedule ? &*c.block_schedule : nullptr;
      const int spare =
          c.spare_unit == SpareUnit::accelerators ? c.spare_accelerators : c.spare_replicas;
      table.add_row({p.workload_name,
                     std::to_string(i + 1),
                     r.instance_type,
                     r.mig_profile.value_or(""),
                     std::to_string(c.instances),
                     c.option,
                     std::string(to_string(r.label)),
                     p.unit,
                     plain_number(r.units_per_second_per_instance),
                     plain_number(c.usd_per_hour),
                     plain_number(c.usd_per_month),
                     p.window_days ? std::to_string(*p.window_days) : "",
                     number(p.window_busy_fraction),
                     number(c.window_usd),
                     number(c.on_demand_window_usd),
                     number(c.break_even_busy_fraction),
                     c.billed_days ? std::to_string(*c.billed_days) : "",
                     blocks,
                     s ? s->start : "",
                     s ? s->end : "",
                     s ? kCapacityBlockEndUtc : "",
                     s ? std::to_string(kCapacityBlockTerminationMinutes) : "",
                     s ? plain_number(s->usable_hours) : "",
                     plain_number(c.units_per_dollar),
                     number(r.units_per_joule),
                     std::string(to_string(c.spare_unit)),
                     std::to_string(spare),
                     plain_number(c.spare_usd_per_hour),
                     c.quota ? std::to_string(c.quota->vcpus) : "",
                     r.binding,
                     r.basis,
                     plain_number(c.price.usd_per_hour),
                     c.price.as_of,
                     c.price_age_days ? std::to_string(*c.price_age_days) : "",
                     yes_no(c.price_stale),
                     yes_no(c.price.illustrative),
                     c.price.source});
    }
  }
  table.render(out, TextFormat::csv);
}

}  // namespace gpusizer::sizing
