// The one way telemetry windows are combined. Two operations:
//   over time      consecutive windows of one device (the repetitions of a case), and
//   across devices simultaneous windows of several devices (a multi-GPU case: P2P, collectives).
// Both are driven by one table (kFields in telemetry_combine.cpp): a row per TelemetryWindow
// field, naming how the field combines in each operation. A new field is one new row there; the
// build fails until the row exists (a static check counts the struct's fields), and
// telemetry_combine_test checks that every field the report writes has a row and survives both
// operations. See docs/architecture.md, "Telemetry windows are combined in one place".
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "gpusizer/telemetry_window.hpp"

namespace gpusizer {

// How one field of several windows becomes the field of the combined window. "Of the windows
// that have it" means optionals that are set; rules on optionals never invent a value.
enum class Combine {
  first,               // the first window's value
  last,                // the last window's value (a state read at the window's end)
  sum,                 // added up
  sum_if_all,          // added up; absent when any window lacks it (never a partial sum)
  sum_present,         // added over the windows that have it; absent only when none does
  sum_of_peaks,        // sum_if_all, plus a note: per-device peaks need not coincide
  max,                 // the largest of the windows that have it
  min,                 // the smallest of the windows that have it
  duration_mean,       // mean weighted by duration_seconds (the first value when no duration)
  device_mean,         // plain mean over the devices; absent when any lacks it
  any,                 // or: set when set in any window
  union_sorted,        // each distinct entry, sorted
  union_in_order,      // each distinct entry, in order of first appearance
  shares_by_samples,   // per key, the mean weighted by sample_count over the NVML windows
  max_per_key,         // per key, the largest value in any window
  unavailable_wins,    // "unavailable" when any window is, else the first window's value
  unavailable_reason,  // the reason of the last unavailable window
  scope_sum,           // the first window's scope + ", sum over N devices"
  dropped,             // absent: cannot be formed from the parts (percentiles of a sum)
};

std::string_view to_string(Combine c);

struct TelemetryFieldRule {
  std::string_view field;  // the TelemetryWindow member, also its key in the report's JSON
  Combine over_time{};
  Combine across_devices{};
};

// The table, one row per TelemetryWindow field, in declaration order.
std::span<const TelemetryFieldRule> telemetry_field_rules();

// Repetitions of one case on one device, in time order. One window: itself; none: empty.
TelemetryWindow combine_over_time(const std::vector<TelemetryWindow>& windows);

// Windows of several devices observed together. One window: itself; none: empty.
TelemetryWindow combine_across_devices(const std::vector<TelemetryWindow>& windows);

}  // namespace gpusizer
