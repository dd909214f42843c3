#include "summary.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "gpusizer/sizing/plan_print.hpp"
#include "gpusizer/text.hpp"

namespace gpusizer::sizing::detail {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = 1024.0 * kMiB;

// What a row is ranked by, with its period: "$1,234.56/month" or "$1,234.56 over the window".
std::string rank_money(const Plan& plan, const PlanRow& r) {
  return format_usd(r.rank_usd) + (plan.window_days ? " over the window" : "/month");
}

std::string what(const PlanRow& r) {
  return std::to_string(r.cost.instances) + " x " + r.instance_type +
         (r.mig_profile ? " (MIG " + *r.mig_profile + ")" : "") + " " + r.cost.option;
}

// " (ESTIMATED)", " (SCALED)" or "" for a measured row.
std::string label_mark(const PlanRow& r) {
  if (r.label == PlanLabel::measured) return "";
  std::string up(to_string(r.label));
  std::transform(up.begin(), up.end(), up.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return " (" + up + ")";
}

void no_plan(Plan& plan, const Demand& w, const CapabilityTable& table, const Catalog& catalog,
             const EngineOptions& options) {
  plan.summary.push_back(
      "No plan: no instance type in the catalog can serve this workload (see the excluded "
      "list).");
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
                           std::to_string(fewest->instances_needed) + " (" + fewest->instance_type +
                           " " + fewest->option + ").");
  }
  double largest_bytes = 0;
  std::string largest;
  for (const auto& type : catalog.instances) {
    double bytes = 0;
    if (!type.accelerator) {
      if (!w.allows(HardwareKind::cpu)) continue;
      bytes = type.memory_gib * kGiB;
    } else {
      const Accelerator* acc = catalog.find_accelerator(*type.accelerator);
      if (acc == nullptr || !(w.allows(acc->kind) || w.allows(HardwareKind::mig))) continue;
      const int usable = w.gpus_per_replica ? std::min(*w.gpus_per_replica, type.accelerator_count)
                                            : type.accelerator_count;
      std::string basis;
      bytes = usable * usable_accelerator_memory(type, *acc, table, basis);
    }
    if (bytes > largest_bytes) {
      largest_bytes = bytes;
      largest = type.type;
    }
  }
  if (w.memory_bytes_per_replica > largest_bytes) {
    plan.summary.push_back("Nothing fits the memory: a replica needs " +
                           short_number(w.memory_bytes_per_replica / kGiB) +
                           " GiB and the largest allowed instance type holds " +
                           short_number(largest_bytes / kGiB) + " GiB usable" +
                           (largest.empty() ? "" : " (" + largest + ")") + ".");
  }
}

void top_plan(Plan& plan) {
  const PlanRow& top = plan.rows.front();
  std::string s =
      "Top plan: " + what(top) + ", " + format_usd(top.cost.usd_per_hour) + "/h, " +
      format_usd(top.cost.usd_per_month) + "/month" +
      (top.cost.window_usd ? ", " + format_usd(*top.cost.window_usd) + " over the window" : "");
  if (top.label == PlanLabel::estimated) s += " (ESTIMATED: no measured option qualified)";
  if (top.label == PlanLabel::scaled) {
    s += " (SCALED from a CPU measured on another machine, no measured option qualified: measure " +
         top.instance_type + " before choosing)";
  }
  s += ".";
  if (top.cost.price.illustrative) {
    s += " Its price is ILLUSTRATIVE (" + top.cost.price.source + ", as of " +
         top.cost.price.as_of + ").";
  }
  if (top.cost.price_stale) {
    s += " Its price is STALE (as of " + top.cost.price.as_of + ", " +
         std::to_string(*top.cost.price_age_days) + " days old).";
  }
  plan.summary.push_back(s);
}

// Measured options rank first, but a cheaper estimate (or scaled CPU row) must not go unmentioned.
void cheaper_unmeasured(Plan& plan) {
  const PlanRow& top = plan.rows.front();
  if (top.label != PlanLabel::measured) return;
  const PlanRow* cheaper = nullptr;
  for (const auto& r : plan.rows) {
    if (r.label != PlanLabel::measured && r.rank_usd < top.rank_usd &&
        (cheaper == nullptr || r.rank_usd < cheaper->rank_usd)) {
      cheaper = &r;
    }
  }
  if (cheaper != nullptr) {
    std::string up = cheaper->label == PlanLabel::scaled ? "SCALED" : "ESTIMATED";
    plan.summary.push_back(
        "Cheaper on paper but " + up + " (no measurement of " +
        (cheaper->kind == HardwareKind::cpu ? cheaper->instance_type : cheaper->accelerator) +
        "): " + what(*cheaper) + " at " + rank_money(plan, *cheaper) + " vs " +
        rank_money(plan, top) +
        " for the top plan; measure that type (gpusizer run on it) before choosing.");
  }
}

// An illustrative price must not outrank a dated one without the summary saying so.
void illustrative_ranking(Plan& plan) {
  bool dated_above = false;
  for (std::size_t i = 0; i < plan.rows.size(); ++i) {
    const PlanRow& r = plan.rows[i];
    if (!r.cost.price.illustrative) {
      dated_above = true;
      continue;
    }
    for (std::size_t j = i + 1; j < plan.rows.size(); ++j) {
      const PlanRow& dated = plan.rows[j];
      if (dated.cost.price.illustrative) continue;
      plan.summary.push_back(
          "#" + std::to_string(i + 1) + " " + what(r) + " ranks on an ILLUSTRATIVE price (" +
          exact_usd(r.cost.price.usd_per_hour) + "/h per instance, " + r.cost.price.source +
          ", as of " + r.cost.price.as_of + ") above #" + std::to_string(j + 1) + " " +
          what(dated) + " at " + rank_money(plan, dated) +
          (dated_above ? " and other options with dated prices"
                       : ", the best option with a dated price") +
          "; import your own prices (aws ec2 describe-spot-price-history / "
          "describe-capacity-block-offerings, then gpusizer catalog import-aws) before "
          "choosing.");
      return;
    }
    return;  // no dated price below the first illustrative one
  }
}

void cpu_verdict(Plan& plan) {
  const PlanRow* best_cpu = nullptr;
  const PlanRow* best_acc = nullptr;           // any label
  const PlanRow* best_measured_acc = nullptr;  // measured accelerators only
  for (const auto& r : plan.rows) {
    if (r.kind == HardwareKind::cpu) {
      if (best_cpu == nullptr || r.rank_usd < best_cpu->rank_usd) best_cpu = &r;
    } else {
      if (best_acc == nullptr || r.rank_usd < best_acc->rank_usd) best_acc = &r;
      if (r.label == PlanLabel::measured &&
          (best_measured_acc == nullptr || r.rank_usd < best_measured_acc->rank_usd)) {
        best_measured_acc = &r;
      }
    }
  }
  if (best_cpu == nullptr) return;
  const std::string cpu_text =
      what(*best_cpu) + " at " + rank_money(plan, *best_cpu) + label_mark(*best_cpu);
  if (best_acc == nullptr || best_cpu->rank_usd < best_acc->rank_usd) {
    plan.summary.push_back(
        "A general-purpose instance serves the load for less than any accelerator: " + cpu_text +
        (best_acc ? " vs " + rank_money(plan, *best_acc) + " for " + best_acc->instance_type +
                        label_mark(*best_acc)
                  : "") +
        (best_cpu->label == PlanLabel::scaled
             ? "; it is scaled from a CPU measured on another machine: "
               "measure this type before choosing"
             : "") +
        ".");
  } else if (best_measured_acc != nullptr && best_cpu->rank_usd < best_measured_acc->rank_usd) {
    plan.summary.push_back("A general-purpose instance (" + cpu_text +
                           ") is cheaper than every MEASURED accelerator, but an estimated "
                           "accelerator may serve the load for less (" +
                           what(*best_acc) + " at " + rank_money(plan, *best_acc) +
                           label_mark(*best_acc) + ").");
  } else {
    plan.summary.push_back("CPU option evaluated: cheapest is " + cpu_text + ", dearer than " +
                           best_acc->instance_type + " at " + rank_money(plan, *best_acc) +
                           label_mark(*best_acc) + ".");
  }
}

// Best on-demand, spot and reservation over the window, in one sentence with the differences.
void window_sentence(Plan& plan, const Demand& w) {
  if (!w.window) return;
  struct Best {
    std::string name;
    const PlanRow* row = nullptr;
  };
  Best best[3] = {{"reservation", nullptr}, {"on-demand", nullptr}, {"spot", nullptr}};
  // Compared within the top plan's evidence group: measured rows when there are any.
  const bool measured = plan.rows.front().label == PlanLabel::measured;
  for (const auto& r : plan.rows) {
    if (!r.cost.window_usd || (r.label == PlanLabel::measured) != measured) continue;
    const PurchaseOption option = purchase_option(r.cost.option);
    int k = -1;
    if (is_window_option(option)) k = 0;
    if (option == PurchaseOption::on_demand) k = 1;
    if (option == PurchaseOption::spot) k = 2;
    if (k < 0) continue;
    if (best[k].row == nullptr || *r.cost.window_usd < *best[k].row->cost.window_usd) {
      best[k].row = &r;
    }
  }
  std::vector<const Best*> present;
  for (const auto& b : best) {
    if (b.row != nullptr) present.push_back(&b);
  }
  if (present.empty()) return;
  std::ostringstream s;
  s << "Over the " << w.window->days << "-day window (busy fraction "
    << short_number(w.window->busy_fraction) << "): ";
  for (std::size_t i = 0; i < present.size(); ++i) {
    const PlanRow& r = *present[i]->row;
    s << (i == 0 ? "" : ", ") << "best " << present[i]->name << " " << what(r) << " at "
      << format_usd(*r.cost.window_usd) << label_mark(r);
  }
  const Best* cheapest = present.front();
  for (const auto* b : present) {
    if (*b->row->cost.window_usd < *cheapest->row->cost.window_usd) cheapest = b;
  }
  if (present.size() > 1) {
    s << "; " << cheapest->name << " is cheapest";
    bool first = true;
    for (const auto* b : present) {
      if (b == cheapest) continue;
      s << (first ? " by " : " and by ")
        << format_usd(*b->row->cost.window_usd - *cheapest->row->cost.window_usd) << " against "
        << b->name;
      first = false;
    }
  }
  if (best[0].row == nullptr) {
    s << "; no capacity block or training plan option among the "
      << (measured ? "measured" : "scaled or estimated") << " rows";
  }
  if (best[2].row == nullptr && !w.spot_allowed()) s << "; spot not allowed (interruptions)";
  s << ".";
  plan.summary.push_back(s.str());
}

void quotas(Plan& plan, const std::string& region) {
  const PlanRow* top = plan.rows.empty() ? nullptr : &plan.rows.front();
  for (const auto& r : plan.rows) {
    if (!r.cost.quota) continue;
    const QuotaNeed& need = *r.cost.quota;
    auto it = std::find_if(plan.vcpu_quotas.begin(), plan.vcpu_quotas.end(),
                           [&](const QuotaSummary& q) { return q.need.name == need.name; });
    if (it == plan.vcpu_quotas.end()) {
      plan.vcpu_quotas.push_back({need, &r == top, need.vcpus, r.instance_type});
      continue;
    }
    if (need.vcpus > it->max_vcpus) {
      it->max_vcpus = need.vcpus;
      it->max_instance_type = r.instance_type;
    }
    if (&r == top) {
      it->need = need;
      it->top_plan = true;
    }
  }
  std::stable_sort(
      plan.vcpu_quotas.begin(), plan.vcpu_quotas.end(),
      [](const QuotaSummary& a, const QuotaSummary& b) { return a.top_plan > b.top_plan; });
  if (top == nullptr) return;
  if (!top->cost.quota) {
    if (purchase_option(top->cost.option) == PurchaseOption::capacity_block) {
      plan.summary.push_back(
          "vCPU quota: whether capacity block instances count against the On-Demand vCPU quota "
          "is not confirmed; check with AWS before the block starts.");
    }
    return;
  }
  const QuotaNeed& q = *top->cost.quota;
  std::ostringstream s;
  s << "vCPU quota: the top plan needs " << q.vcpus << " vCPUs (" << top->cost.instances << " x "
    << top->instance_type << ") of \"" << q.name << "\" (" << q.code << ") in " << region;
  if (q.quota_vcpus) {
    if (q.vcpus > *q.quota_vcpus) {
      s << "; the account's " << (q.aws_default ? "AWS default " : "") << "quota is "
        << *q.quota_vcpus << ": request an increase to at least " << q.vcpus
        << " (aws service-quotas request-service-quota-increase --service-code ec2 --quota-code "
        << q.code << " --desired-value " << q.vcpus << " --region " << region << ")";
      plan.warnings.push_back("vCPU quota: the top plan needs " + std::to_string(q.vcpus) +
                              " vCPUs of \"" + q.name + "\" (" + q.code + "), more than the " +
                              (q.aws_default ? "AWS default " : "account's ") + "quota " +
                              short_number(*q.quota_vcpus));
    } else {
      s << "; within the account's " << (q.aws_default ? "AWS default " : "") << "quota of "
        << *q.quota_vcpus;
    }
  } else {
    s << "; new accounts often start far below that: check it (aws service-quotas "
         "get-service-quota --service-code ec2 --quota-code "
      << q.code << " --region " << region
      << ") and pass the output with --quotas, or include the increase in the request";
  }
  s << ".";
  plan.summary.push_back(s.str());
}

void price_warnings(Plan& plan, const Catalog& catalog, const EngineOptions& options) {
  std::vector<std::string> stale;
  std::vector<std::string> undated;
  std::vector<std::string> seen;
  for (const auto& r : plan.rows) {
    const std::string key = r.instance_type + " " + r.cost.option;
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
    seen.push_back(key);
    if (r.cost.price_stale) {
      stale.push_back(key + " (as of " + r.cost.price.as_of + ", " +
                      std::to_string(*r.cost.price_age_days) + " days)");
    } else if (!r.cost.price_age_days) {
      undated.push_back(key + " (as_of \"" + r.cost.price.as_of + "\")");
    }
  }
  auto joined = [](const std::vector<std::string>& items) {
    std::string out;
    const std::size_t shown = std::min<std::size_t>(items.size(), 8);
    for (std::size_t i = 0; i < shown; ++i) out += (i ? ", " : "") + items[i];
    if (items.size() > shown) out += ", and " + std::to_string(items.size() - shown) + " more";
    return out;
  };
  if (!stale.empty()) {
    plan.warnings.push_back(
        std::to_string(stale.size()) + " price(s) in the table are STALE, older than " +
        std::to_string(options.max_price_age_days) + " days on " + plan.prices_checked_on + ": " +
        joined(stale) +
        "; refresh them from your account (aws pricing get-products, aws ec2 "
        "describe-spot-price-history, aws ec2 describe-capacity-block-offerings, then gpusizer "
        "catalog import-aws) and pass the overlay with --catalog-overlay");
  }
  if (!undated.empty()) {
    plan.warnings.push_back(std::to_string(undated.size()) +
                            " price(s) carry no usable date: " + joined(undated));
  }
  std::vector<std::string> unpriced;
  for (const auto& t : catalog.instances) {
    if (t.prices.empty()) unpriced.push_back(t.type);
  }
  if (!unpriced.empty()) {
    plan.warnings.push_back(
        "region " + catalog.region + ": no price at all for " + std::to_string(unpriced.size()) +
        " of " + std::to_string(catalog.instances.size()) +
        " instance type(s): " + joined(unpriced) +
        " (they cannot be costed; import prices for the region with gpusizer catalog import-aws "
        "--region " +
        catalog.region + ")");
  }
}

}  // namespace

void write_summary(Plan& plan, const Demand& w, const CapabilityTable& table,
                   const Catalog& catalog, const EngineOptions& options, bool cpu_used) {
  price_warnings(plan, catalog, options);
  if (plan.rows.empty()) {
    no_plan(plan, w, table, catalog, options);
    return;
  }
  top_plan(plan);
  cheaper_unmeasured(plan);
  illustrative_ranking(plan);
  if (cpu_used) {
    cpu_verdict(plan);
    plan.assumptions.push_back(
        "CPU types: a CPU measured on another instance type is scaled per vCPU (instance vCPUs / "
        "logical CPUs of the measured host; the instance's CPU model may differ) and labelled "
        "scaled; a CPU measured on the type itself (the report's host.instance_type) is "
        "measured");
  }
  window_sentence(plan, w);
  quotas(plan, catalog.region);
}

}  // namespace gpusizer::sizing::detail
