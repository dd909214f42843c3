// The one telemetry combiner (gpusizer/telemetry_combine.hpp). Two windows with every field set
// to a different value are combined over time and across devices, and the whole JSON of the
// result is compared with values worked out by hand: a field the table forgets, or combines by
// the wrong rule, changes that JSON. A field added to TelemetryWindow without a row does not
// build (static check in telemetry_combine.cpp); one the report writes under a name the table
// does not know fails EveryKeyTheReportWritesHasARow.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "gpusizer/report_io.hpp"
#include "gpusizer/telemetry_combine.hpp"

namespace gpusizer {
namespace {

// Every optional set, every string and list non-empty, every conditional key written.
TelemetryWindow window_a() {
  TelemetryWindow w;
  w.source = TelemetrySource::nvml;
  w.scope = "GPU board power (NVML)";
  w.unavailable_reason = "reason a";
  w.duration_seconds = 1;
  w.sample_count = 10;
  w.sample_period_seconds = 0.1;
  w.energy_joules = 100;
  w.energy_method = "energy counter delta";
  w.energy_integrated_joules = 101;
  w.energy_counter_updates = 9;
  w.energy_counter_disagrees = true;
  w.power_field = "instant";
  w.power_mean_watts = 100;
  w.power_peak_watts = 150;
  w.power_p5_watts = 90;
  w.power_p95_watts = 140;
  w.sm_clock_mean_mhz = 1000;
  w.sm_clock_default_mhz = 1980;
  w.sm_clock_default_source = "default applications clock";
  w.sm_clock_ratio = 0.5;
  w.busy_sample_count = 8;
  w.sm_clock_busy_mean_mhz = 1100;
  w.memory_clock_mean_mhz = 2600;
  w.gpu_utilization_mean_percent = 40;
  w.memory_utilization_mean_percent = 20;
  w.temperature_max_celsius = 60;
  w.throttle_reasons = {"sw_power_cap", "gpu_idle"};
  w.throttle_reason_shares = {{"sw_power_cap", 0.5}, {"gpu_idle", 0.25}};
  w.throttled = false;
  w.power_capped = true;
  w.ecc_corrected_delta = 1;
  w.ecc_uncorrected_delta = 0;
  w.ecc_errors_during_run = false;
  w.remapped_rows_corrected_delta = 0;
  w.remapped_rows_uncorrected_delta = 1;
  w.row_remap_pending = true;
  w.row_remap_failure = false;
  w.retired_pages_delta = 3;
  w.retired_pages_pending = true;
  w.memory_errors_during_run = false;
  w.attribution = "whole device";
  w.transient_errors = 2;
  w.notes = {"utilization: Not Supported"};
  return w;
}

// A different value in every field (booleans the opposite of a's where a rule tells them apart).
TelemetryWindow window_b() {
  TelemetryWindow w;
  w.source = TelemetrySource::nvml;
  w.scope = "GPU board power (NVML) b";
  w.unavailable_reason = "reason b";
  w.duration_seconds = 3;
  w.sample_count = 30;
  w.sample_period_seconds = 0.2;
  w.energy_joules = 600;
  w.energy_method = "integrated power samples";
  w.energy_integrated_joules = 598;
  w.energy_counter_updates = 29;
  w.energy_counter_disagrees = false;
  w.power_field = "average (1 s)";
  w.power_mean_watts = 200;
  w.power_peak_watts = 250;
  w.power_p5_watts = 80;
  w.power_p95_watts = 240;
  w.sm_clock_mean_mhz = 1400;
  w.sm_clock_default_mhz = 1755;
  w.sm_clock_default_source = "max SM clock";
  w.sm_clock_ratio = 0.75;
  w.busy_sample_count = 27;
  w.sm_clock_busy_mean_mhz = 1500;
  w.memory_clock_mean_mhz = 3200;
  w.gpu_utilization_mean_percent = 80;
  w.memory_utilization_mean_percent = 60;
  w.temperature_max_celsius = 55;
  w.throttle_reasons = {"hw_slowdown", "sw_power_cap"};
  w.throttle_reason_shares = {{"sw_power_cap", 1.0}, {"hw_slowdown", 0.125}};
  w.throttled = true;
  w.power_capped = false;
  w.ecc_corrected_delta = 2;
  w.ecc_uncorrected_delta = 1;
  w.ecc_errors_during_run = true;
  w.remapped_rows_corrected_delta = 2;
  w.remapped_rows_uncorrected_delta = 0;
  w.row_remap_pending = false;
  w.row_remap_failure = true;
  w.retired_pages_delta = 4;
  w.retired_pages_pending = false;
  w.memory_errors_during_run = true;
  w.attribution = "whole device b";
  w.transient_errors = 5;
  w.notes = {"utilization: Not Supported", "GPU lost"};
  return w;
}

std::set<std::string> keys(const nlohmann::json& j) {
  std::set<std::string> out;
  for (const auto& [key, value] : j.items()) out.insert(key);
  return out;
}

// Every field the table does not drop is in the result, and the result is exactly `expected`.
void expect_combined(const TelemetryWindow& combined, const nlohmann::json& expected,
                     Combine TelemetryFieldRule::*operation) {
  const nlohmann::json got = to_json(combined);
  for (const auto& rule : telemetry_field_rules()) {
    const std::string field(rule.field);
    if (rule.*operation == Combine::dropped) {
      EXPECT_FALSE(got.contains(field)) << field << " should be dropped";
    } else {
      EXPECT_TRUE(got.contains(field))
          << field << " was lost (" << to_string(rule.*operation) << ")";
    }
    EXPECT_EQ(got.value(field, nlohmann::json()), expected.value(field, nlohmann::json()))
        << field << " (" << to_string(rule.*operation) << ")";
  }
  EXPECT_EQ(keys(got), keys(expected));
}

TEST(TelemetryCombine, EveryKeyTheReportWritesHasARow) {
  std::set<std::string> fields;
  for (const auto& rule : telemetry_field_rules()) {
    EXPECT_TRUE(fields.insert(std::string(rule.field)).second) << "two rows for " << rule.field;
    EXPECT_NE(to_string(rule.over_time), "?");
    EXPECT_NE(to_string(rule.across_devices), "?");
  }
  EXPECT_EQ(keys(to_json(window_a())), fields);
  EXPECT_EQ(keys(to_json(window_b())).size() + 1, fields.size());  // b: no disagreement key
}

TEST(TelemetryCombine, EveryFieldSurvivesOverTime) {
  const nlohmann::json expected = {
      {"source", "nvml"},
      {"scope", "GPU board power (NVML)"},
      {"unavailable_reason", "reason a"},
      {"duration_seconds", 4.0},
      {"sample_count", 40},
      {"sample_period_seconds", 0.1},
      {"energy_joules", 700.0},
      {"energy_method", "energy counter delta"},
      {"energy_integrated_joules", 699.0},
      {"energy_counter_updates", 38},
      {"energy_counter_disagrees", true},
      {"power_field", "instant"},
      {"power_mean_watts", 175.0},  // (100 W x 1 s + 200 W x 3 s) / 4 s
      {"power_peak_watts", 250.0},
      {"power_p5_watts", 80.0},
      {"power_p95_watts", 240.0},
      {"sm_clock_mean_mhz", 1300.0},  // (1000 x 1 + 1400 x 3) / 4
      {"sm_clock_default_mhz", 1980.0},
      {"sm_clock_default_source", "default applications clock"},
      {"sm_clock_ratio", 0.6875},  // (0.5 + 0.75 x 3) / 4
      {"busy_sample_count", 35},
      {"sm_clock_busy_mean_mhz", 1400.0},  // (1100 + 1500 x 3) / 4
      {"memory_clock_mean_mhz", 3050.0},   // (2600 + 3200 x 3) / 4
      {"gpu_utilization_mean_percent", 70.0},
      {"memory_utilization_mean_percent", 50.0},
      {"temperature_max_celsius", 60.0},
      {"throttle_reasons", {"gpu_idle", "hw_slowdown", "sw_power_cap"}},
      // Weighted by samples: (0.5 x 10 + 1.0 x 30) / 40, 0.25 x 10 / 40, 0.125 x 30 / 40.
      {"throttle_reason_shares",
       {{"sw_power_cap", 0.875}, {"gpu_idle", 0.0625}, {"hw_slowdown", 0.09375}}},
      {"throttled", true},
      {"power_capped", true},
      {"ecc_corrected_delta", 3},
      {"ecc_uncorrected_delta", 1},
      {"ecc_errors_during_run", true},
      {"remapped_rows_corrected_delta", 2},
      {"remapped_rows_uncorrected_delta", 1},
      {"row_remap_pending", false},  // states at the end: the last window's
      {"row_remap_failure", true},
      {"retired_pages_delta", 7},
      {"retired_pages_pending", false},
      {"memory_errors_during_run", true},
      {"attribution", "whole device"},
      {"transient_errors", 7},
      {"notes", {"utilization: Not Supported", "GPU lost"}},
  };
  expect_combined(combine_over_time({window_a(), window_b()}), expected,
                  &TelemetryFieldRule::over_time);
}

TEST(TelemetryCombine, EveryFieldSurvivesAcrossDevices) {
  TelemetryWindow b = window_b();
  b.source = TelemetrySource::unavailable;  // one device without a reading makes the sum's source
                                            // unavailable
  const nlohmann::json expected = {
      {"source", "unavailable"},
      {"scope", "GPU board power (NVML), sum over 2 devices"},
      {"unavailable_reason", "reason b"},
      {"duration_seconds", 3.0},
      {"sample_count", 30},
      {"sample_period_seconds", 0.2},
      {"energy_joules", 700.0},
      {"energy_method", "energy counter delta"},
      {"energy_integrated_joules", 699.0},
      {"energy_counter_updates", 9},
      {"energy_counter_disagrees", true},
      {"power_field", "instant"},
      {"power_mean_watts", 300.0},
      {"power_peak_watts", 400.0},
      // power_p5_watts, power_p95_watts: percentiles of a sum are not sums of percentiles.
      {"sm_clock_mean_mhz", 1200.0},
      {"sm_clock_default_mhz", 1867.5},
      {"sm_clock_default_source", "default applications clock"},
      {"sm_clock_ratio", 0.625},
      {"busy_sample_count", 8},
      {"sm_clock_busy_mean_mhz", 1300.0},
      {"memory_clock_mean_mhz", 2900.0},
      {"gpu_utilization_mean_percent", 60.0},
      {"memory_utilization_mean_percent", 40.0},
      {"temperature_max_celsius", 60.0},
      {"throttle_reasons", {"gpu_idle", "hw_slowdown", "sw_power_cap"}},
      {"throttle_reason_shares",
       {{"sw_power_cap", 1.0}, {"gpu_idle", 0.25}, {"hw_slowdown", 0.125}}},
      {"throttled", true},
      {"power_capped", true},
      {"ecc_corrected_delta", 3},
      {"ecc_uncorrected_delta", 1},
      {"ecc_errors_during_run", true},
      {"remapped_rows_corrected_delta", 2},
      {"remapped_rows_uncorrected_delta", 1},
      {"row_remap_pending", true},  // set on any device
      {"row_remap_failure", true},
      {"retired_pages_delta", 7},
      {"retired_pages_pending", true},
      {"memory_errors_during_run", true},
      {"attribution", "whole device"},
      {"transient_errors", 7},
      {"notes",
       {"utilization: Not Supported", "GPU lost",
        "power_peak_watts is the sum of per-device peaks"}},
  };
  expect_combined(combine_across_devices({window_a(), b}), expected,
                  &TelemetryFieldRule::across_devices);
}

TEST(TelemetryCombine, OneWindowIsItselfAndNoneIsEmpty) {
  const nlohmann::json a = to_json(window_a());
  EXPECT_EQ(to_json(combine_over_time({window_a()})), a);
  EXPECT_EQ(to_json(combine_across_devices({window_a()})), a);  // no "sum over 1 devices"
  EXPECT_EQ(to_json(combine_over_time({})), to_json(TelemetryWindow{}));
  EXPECT_EQ(to_json(combine_across_devices({})), to_json(TelemetryWindow{}));
}

TEST(TelemetryCombine, TotalsAreNeverPartial) {
  TelemetryWindow a = window_a(), b = window_b();
  b.energy_joules.reset();
  b.power_mean_watts.reset();
  b.sm_clock_mean_mhz.reset();
  EXPECT_FALSE(combine_over_time({a, b}).energy_joules);
  const TelemetryWindow s = combine_across_devices({a, b});
  EXPECT_FALSE(s.energy_joules);
  EXPECT_FALSE(s.power_mean_watts);
  EXPECT_FALSE(s.sm_clock_mean_mhz);  // a mean over some of the devices would mislead
  // Over time a mean stays a mean of the windows that have it.
  EXPECT_DOUBLE_EQ(*combine_over_time({a, b}).power_mean_watts, 100);
}

TEST(TelemetryCombine, CountersAddOverWhateverCountsThem) {
  TelemetryWindow a = window_a(), b = window_b();
  a.ecc_corrected_delta.reset();  // a cannot count ECC (its notes would say why)
  EXPECT_EQ(combine_over_time({a, b}).ecc_corrected_delta, 2u);
  EXPECT_EQ(combine_across_devices({a, b}).ecc_corrected_delta, 2u);
  b.ecc_corrected_delta.reset();
  EXPECT_FALSE(combine_over_time({a, b}).ecc_corrected_delta);
  EXPECT_FALSE(combine_across_devices({a, b}).ecc_corrected_delta);
}

TEST(TelemetryCombine, MeansWithoutDurationTakeTheFirstValue) {
  TelemetryWindow a = window_a(), b = window_b();
  a.duration_seconds = b.duration_seconds = 0;
  EXPECT_DOUBLE_EQ(*combine_over_time({a, b}).power_mean_watts, 100);
}

TEST(TelemetryCombine, ReasonSharesCountOnlyWindowsThatReadThem) {
  TelemetryWindow a = window_a(), b = window_b();
  b.source = TelemetrySource::unavailable;  // its shares are not NVML samples
  const auto shares = combine_over_time({a, b}).throttle_reason_shares;
  EXPECT_EQ(shares, (std::map<std::string, double>{{"sw_power_cap", 0.5}, {"gpu_idle", 0.25}}));
  a.source = TelemetrySource::rapl;
  EXPECT_TRUE(combine_over_time({a, b}).throttle_reason_shares.empty());
}

// Moved from the bench tests when merge_windows / sum_windows became this combiner.
TEST(TelemetryCombine, RepetitionsOfOneCase) {
  TelemetryWindow a, b;
  a.duration_seconds = 1;
  a.energy_joules = 100;
  a.power_mean_watts = 100;
  a.power_peak_watts = 150;
  a.throttle_reasons = {"sw_power_cap"};
  b.duration_seconds = 3;
  b.energy_joules = 600;
  b.power_mean_watts = 200;
  b.power_peak_watts = 250;
  b.ecc_errors_during_run = true;
  a.remapped_rows_corrected_delta = 0;
  a.row_remap_pending = true;
  b.remapped_rows_corrected_delta = 2;
  b.memory_errors_during_run = true;
  TelemetryWindow m = combine_over_time({a, b});
  EXPECT_EQ(*m.remapped_rows_corrected_delta, 2u);  // 0 + 2
  EXPECT_FALSE(m.remapped_rows_uncorrected_delta.has_value());
  EXPECT_FALSE(m.retired_pages_delta.has_value());
  EXPECT_TRUE(m.memory_errors_during_run);  // from b
  EXPECT_FALSE(m.row_remap_pending);        // the last window's end state
  EXPECT_DOUBLE_EQ(m.duration_seconds, 4);
  EXPECT_DOUBLE_EQ(*m.energy_joules, 700);
  EXPECT_DOUBLE_EQ(*m.power_mean_watts, (100 * 1 + 200 * 3) / 4.0);  // 175
  EXPECT_DOUBLE_EQ(*m.power_peak_watts, 250);
  EXPECT_TRUE(m.ecc_errors_during_run);
  EXPECT_EQ(m.throttle_reasons, std::vector<std::string>{"sw_power_cap"});
}

TEST(TelemetryCombine, DevicesObservedTogether) {
  TelemetryWindow a, b;
  a.source = b.source = TelemetrySource::nvml;
  a.scope = b.scope = "GPU board power (NVML)";
  a.duration_seconds = 2.0;
  b.duration_seconds = 2.1;
  a.energy_joules = 1000;
  b.energy_joules = 1100;
  a.power_mean_watts = 500;
  b.power_mean_watts = 520;
  a.power_peak_watts = 600;
  b.power_peak_watts = 650;
  b.throttle_reasons = {"hw_slowdown"};
  b.throttled = true;
  TelemetryWindow s = combine_across_devices({a, b});
  EXPECT_EQ(s.scope, "GPU board power (NVML), sum over 2 devices");
  EXPECT_DOUBLE_EQ(*s.energy_joules, 2100);
  EXPECT_DOUBLE_EQ(*s.power_mean_watts, 1020);
  EXPECT_DOUBLE_EQ(*s.power_peak_watts, 1250);
  EXPECT_DOUBLE_EQ(s.duration_seconds, 2.1);
  EXPECT_TRUE(s.throttled);
}

}  // namespace
}  // namespace gpusizer
