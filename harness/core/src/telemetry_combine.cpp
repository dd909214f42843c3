#include "gpusizer/telemetry_combine.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <set>
#include <type_traits>
#include <utility>

namespace gpusizer {
namespace {

using Windows = std::vector<TelemetryWindow>;

struct Context {
  const Windows& windows;
  std::vector<std::string> caveats;  // appended to the combined window's notes
};

template <typename T>
struct IsOptional : std::false_type {};
template <typename V>
struct IsOptional<std::optional<V>> : std::true_type {};

// Which rules make sense for a field of type T; the table is checked against it at compile time.
template <typename T>
consteval bool supports(Combine c) {
  using C = Combine;
  if (c == C::first) return true;
  if constexpr (std::is_same_v<T, std::string>) {
    return c == C::unavailable_wins || c == C::unavailable_reason || c == C::scope_sum;
  } else if constexpr (std::is_same_v<T, TelemetrySource>) {
    return c == C::unavailable_wins;
  } else if constexpr (std::is_same_v<T, bool>) {
    return c == C::last || c == C::any;
  } else if constexpr (std::is_arithmetic_v<T>) {
    return c == C::sum || c == C::max;
  } else if constexpr (IsOptional<T>::value) {
    const bool real = std::is_floating_point_v<typename T::value_type>;
    return c == C::sum_if_all || c == C::sum_present || c == C::max || c == C::min ||
           c == C::device_mean || c == C::dropped ||
           (real && (c == C::duration_mean || c == C::sum_of_peaks));
  } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
    return c == C::union_sorted || c == C::union_in_order;
  } else if constexpr (std::is_same_v<T, std::map<std::string, double>>) {
    return c == C::shares_by_samples || c == C::max_per_key;
  }
  return false;
}

template <typename T>
T combine_optional(Combine c, T TelemetryWindow::*m, Context& ctx) {
  using V = typename T::value_type;
  const Windows& ws = ctx.windows;
  T out;
  switch (c) {
    case Combine::sum_of_peaks:
      ctx.caveats.push_back("power_peak_watts is the sum of per-device peaks");
      [[fallthrough]];
    case Combine::sum_if_all: {
      V sum{};
      for (const auto& w : ws) {
        if (!(w.*m)) return std::nullopt;
        sum += *(w.*m);
      }
      return sum;
    }
    case Combine::sum_present:
      for (const auto& w : ws)
        if (w.*m) out = out.value_or(V{}) + *(w.*m);
      return out;
    case Combine::max:
    case Combine::min:
      for (const auto& w : ws) {
        if (!(w.*m)) continue;
        if (!out || (c == Combine::max ? *(w.*m) > *out : *(w.*m) < *out)) out = w.*m;
      }
      return out;
    case Combine::device_mean: {
      auto sum = combine_optional(Combine::sum_if_all, m, ctx);
      if (!sum) return std::nullopt;
      return static_cast<V>(static_cast<double>(*sum) / static_cast<double>(ws.size()));
    }
    case Combine::duration_mean:
      if constexpr (std::is_floating_point_v<V>) {
        double sum = 0, seconds = 0;
        for (const auto& w : ws) {
          if (!(w.*m)) continue;
          sum += *(w.*m) * w.duration_seconds;
          seconds += w.duration_seconds;
        }
        if (seconds > 0) return sum / seconds;
        for (const auto& w : ws)
          if (w.*m) return w.*m;
      }
      return std::nullopt;
    case Combine::dropped:
      return std::nullopt;
    default:
      return ws.front().*m;  // first
  }
}

std::string combine_string(Combine c, std::string TelemetryWindow::*m, const Context& ctx) {
  const Windows& ws = ctx.windows;
  switch (c) {
    case Combine::unavailable_wins:
      for (const auto& w : ws)
        if (w.source == TelemetrySource::unavailable) return w.*m;
      return ws.front().*m;
    case Combine::unavailable_reason: {
      std::string reason = ws.front().*m;
      for (const auto& w : ws)
        if (w.source == TelemetrySource::unavailable) reason = w.*m;
      return reason;
    }
    case Combine::scope_sum:
      return ws.front().*m + ", sum over " + std::to_string(ws.size()) + " devices";
    default:
      return ws.front().*m;  // first
  }
}

std::vector<std::string> combine_list(Combine c, std::vector<std::string> TelemetryWindow::*m,
                                      const Context& ctx) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const auto& w : ctx.windows) {
    for (const auto& entry : w.*m)
      if (seen.insert(entry).second) out.push_back(entry);
  }
  if (c == Combine::union_sorted) std::sort(out.begin(), out.end());
  return out;
}

std::map<std::string, double> combine_shares(Combine c,
                                             std::map<std::string, double> TelemetryWindow::*m,
                                             const Context& ctx) {
  std::map<std::string, double> out;
  if (c == Combine::max_per_key) {
    for (const auto& w : ctx.windows)
      for (const auto& [key, value] : w.*m) out[key] = std::max(out[key], value);
    return out;
  }
  if (c == Combine::first) return ctx.windows.front().*m;
  // shares_by_samples: the share of all NVML samples (the windows that read the reasons).
  double samples = 0;
  for (const auto& w : ctx.windows) {
    if (w.source != TelemetrySource::nvml) continue;
    for (const auto& [key, share] : w.*m) out[key] += share * static_cast<double>(w.sample_count);
    samples += static_cast<double>(w.sample_count);
  }
  if (samples <= 0) return {};
  for (auto& [key, weighted] : out) weighted /= samples;
  return out;
}

template <typename T>
T combine_field(Combine c, T TelemetryWindow::*m, Context& ctx) {
  const Windows& ws = ctx.windows;
  if constexpr (std::is_same_v<T, std::string>) {
    return combine_string(c, m, ctx);
  } else if constexpr (std::is_same_v<T, TelemetrySource>) {
    if (c == Combine::unavailable_wins) {
      for (const auto& w : ws)
        if (w.*m == TelemetrySource::unavailable) return w.*m;
    }
    return ws.front().*m;
  } else if constexpr (std::is_same_v<T, bool>) {
    if (c == Combine::last) return ws.back().*m;
    if (c == Combine::first) return ws.front().*m;
    return std::any_of(ws.begin(), ws.end(), [&](const TelemetryWindow& w) { return w.*m; });
  } else if constexpr (std::is_arithmetic_v<T>) {
    if (c == Combine::first) return ws.front().*m;
    T out{};
    for (const auto& w : ws) out = c == Combine::max ? std::max(out, w.*m) : out + w.*m;
    return out;
  } else if constexpr (IsOptional<T>::value) {
    return combine_optional(c, m, ctx);
  } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
    return combine_list(c, m, ctx);
  } else {
    return combine_shares(c, m, ctx);
  }
}

struct FieldRow {
  TelemetryFieldRule rule;
  void (*apply)(Combine, Context&, TelemetryWindow&);
};

template <auto M>
void apply_row(Combine c, Context& ctx, TelemetryWindow& out) {
  out.*M = combine_field(c, M, ctx);
}

// A row of the table; a rule that does not fit the field's type stops the build here.
template <auto M>
consteval FieldRow row(std::string_view field, Combine over_time, Combine across_devices) {
  using T = std::remove_cvref_t<decltype(std::declval<TelemetryWindow&>().*M)>;
  if (!supports<T>(over_time) || !supports<T>(across_devices))
    throw "telemetry_combine: this rule does not apply to this field's type";
  return {{field, over_time, across_devices}, &apply_row<M>};
}

using C = Combine;
using W = TelemetryWindow;

// THE table: every field of TelemetryWindow, in declaration order, and how it combines
// (over time: repetitions of one case on one device; across devices: one window per device,
// observed together).
constexpr std::array kFields = {
    row<&W::source>("source", C::first, C::unavailable_wins),
    row<&W::scope>("scope", C::first, C::scope_sum),
    row<&W::unavailable_reason>("unavailable_reason", C::first, C::unavailable_reason),
    // Time adds up over repetitions; devices observed together share one window of time.
    row<&W::duration_seconds>("duration_seconds", C::sum, C::max),
    row<&W::sample_count>("sample_count", C::sum, C::max),
    row<&W::sample_period_seconds>("sample_period_seconds", C::first, C::max),
    // Energy is a total: a window without a reading leaves the total unknown.
    row<&W::energy_joules>("energy_joules", C::sum_if_all, C::sum_if_all),
    row<&W::energy_method>("energy_method", C::first, C::first),
    row<&W::energy_integrated_joules>("energy_integrated_joules", C::sum_if_all, C::sum_if_all),
    // Across devices, the fewest updates any device saw: the coarsest of the summed deltas.
    row<&W::energy_counter_updates>("energy_counter_updates", C::sum_present, C::min),
    row<&W::energy_counter_disagrees>("energy_counter_disagrees", C::any, C::any),
    row<&W::power_field>("power_field", C::first, C::first),
    // Power of devices observed together adds up; of one device over time, it is a mean.
    row<&W::power_mean_watts>("power_mean_watts", C::duration_mean, C::sum_if_all),
    row<&W::power_peak_watts>("power_peak_watts", C::max, C::sum_of_peaks),
    row<&W::power_p5_watts>("power_p5_watts", C::min, C::dropped),
    row<&W::power_p95_watts>("power_p95_watts", C::max, C::dropped),
    row<&W::sm_clock_mean_mhz>("sm_clock_mean_mhz", C::duration_mean, C::device_mean),
    row<&W::sm_clock_default_mhz>("sm_clock_default_mhz", C::first, C::device_mean),
    row<&W::sm_clock_default_source>("sm_clock_default_source", C::first, C::first),
    row<&W::sm_clock_ratio>("sm_clock_ratio", C::duration_mean, C::device_mean),
    // Across devices, the fewest busy samples any device had.
    row<&W::busy_sample_count>("busy_sample_count", C::sum_present, C::min),
    row<&W::sm_clock_busy_mean_mhz>("sm_clock_busy_mean_mhz", C::duration_mean, C::device_mean),
    row<&W::memory_clock_mean_mhz>("memory_clock_mean_mhz", C::duration_mean, C::device_mean),
    row<&W::gpu_utilization_mean_percent>("gpu_utilization_mean_percent", C::duration_mean,
                                          C::device_mean),
    row<&W::memory_utilization_mean_percent>("memory_utilization_mean_percent", C::duration_mean,
                                             C::device_mean),
    row<&W::temperature_max_celsius>("temperature_max_celsius", C::max, C::max),
    row<&W::throttle_reasons>("throttle_reasons", C::union_sorted, C::union_sorted),
    row<&W::throttle_reason_shares>("throttle_reason_shares", C::shares_by_samples, C::max_per_key),
    row<&W::throttled>("throttled", C::any, C::any),
    row<&W::power_capped>("power_capped", C::any, C::any),
    // Memory health: counter deltas add up over whatever counts them; any device's error is
    // the case's error; end-of-window states are the last window's over time, any device's
    // across devices.
    row<&W::ecc_corrected_delta>("ecc_corrected_delta", C::sum_present, C::sum_present),
    row<&W::ecc_uncorrected_delta>("ecc_uncorrected_delta", C::sum_present, C::sum_present),
    row<&W::ecc_errors_during_run>("ecc_errors_during_run", C::any, C::any),
    row<&W::remapped_rows_corrected_delta>("remapped_rows_corrected_delta", C::sum_present,
                                           C::sum_present),
    row<&W::remapped_rows_uncorrected_delta>("remapped_rows_uncorrected_delta", C::sum_present,
                                             C::sum_present),
    row<&W::row_remap_pending>("row_remap_pending", C::last, C::any),
    row<&W::row_remap_failure>("row_remap_failure", C::last, C::any),
    row<&W::retired_pages_delta>("retired_pages_delta", C::sum_present, C::sum_present),
    row<&W::retired_pages_pending>("retired_pages_pending", C::last, C::any),
    row<&W::memory_errors_during_run>("memory_errors_during_run", C::any, C::any),
    row<&W::attribution>("attribution", C::first, C::first),
    row<&W::transient_errors>("transient_errors", C::sum, C::sum),
    row<&W::notes>("notes", C::union_in_order, C::union_in_order),
};

// Counts the fields of an aggregate: the most initializers T{...} accepts.
struct AnyField {
  template <typename T>
  operator T() const;  // never defined: only used unevaluated
};
template <typename T, typename... Fields>
consteval std::size_t field_count() {
  if constexpr (requires { T{Fields{}..., AnyField{}}; })
    return field_count<T, Fields..., AnyField>();
  else
    return sizeof...(Fields);
}
static_assert(field_count<TelemetryWindow>() == kFields.size(),
              "TelemetryWindow gained or lost a field: give it a row in kFields (how it combines "
              "over time and across devices)");

constexpr auto kRules = [] {
  std::array<TelemetryFieldRule, kFields.size()> rules{};
  for (std::size_t i = 0; i < kFields.size(); ++i) rules[i] = kFields[i].rule;
  return rules;
}();

TelemetryWindow combine(const Windows& windows, Combine TelemetryFieldRule::*operation) {
  if (windows.empty()) return {};
  if (windows.size() == 1) return windows.front();
  Context ctx{windows, {}};
  TelemetryWindow out;
  for (const auto& f : kFields) f.apply(f.rule.*operation, ctx, out);
  out.notes.insert(out.notes.end(), ctx.caveats.begin(), ctx.caveats.end());
  return out;
}

}  // namespace

std::string_view to_string(Combine c) {
  switch (c) {
    case Combine::first:
      return "first";
    case Combine::last:
      return "last";
    case Combine::sum:
      return "sum";
    case Combine::sum_if_all:
      return "sum_if_all";
    case Combine::sum_present:
      return "sum_present";
    case Combine::sum_of_peaks:
      return "sum_of_peaks";
    case Combine::max:
      return "max";
    case Combine::min:
      return "min";
    case Combine::duration_mean:
      return "duration_mean";
    case Combine::device_mean:
      return "device_mean";
    case Combine::any:
      return "any";
    case Combine::union_sorted:
      return "union_sorted";
    case Combine::union_in_order:
      return "union_in_order";
    case Combine::shares_by_samples:
      return "shares_by_samples";
    case Combine::max_per_key:
      return "max_per_key";
    case Combine::unavailable_wins:
      return "unavailable_wins";
    case Combine::unavailable_reason:
      return "unavailable_reason";
    case Combine::scope_sum:
      return "scope_sum";
    case Combine::dropped:
      return "dropped";
  }
  return "?";
}

std::span<const TelemetryFieldRule> telemetry_field_rules() {
  return kRules;
}

TelemetryWindow combine_over_time(const std::vector<TelemetryWindow>& windows) {
  return combine(windows, &TelemetryFieldRule::over_time);
}

TelemetryWindow combine_across_devices(const std::vector<TelemetryWindow>& windows) {
  return combine(windows, &TelemetryFieldRule::across_devices);
}

}  // namespace gpusizer
