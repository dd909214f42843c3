#include <gtest/gtest.h>

#include <functional>

#include "gpusizer/clock.hpp"
#include "gpusizer/error.hpp"
#include "input_error_of.hpp"

namespace gpusizer {
namespace {

TEST(Clock, Durations) {
  EXPECT_DOUBLE_EQ(parse_duration_seconds("90s", "x"), 90);
  EXPECT_DOUBLE_EQ(parse_duration_seconds("10m", "x"), 600);
  EXPECT_DOUBLE_EQ(parse_duration_seconds("1h30m", "x"), 5400);
  EXPECT_DOUBLE_EQ(parse_duration_seconds("45", "x"), 45);
  EXPECT_DOUBLE_EQ(parse_duration_seconds("250ms", "x"), 0.25);
  EXPECT_DOUBLE_EQ(parse_duration_seconds("1.5h", "x"), 5400);
  EXPECT_THROW(parse_duration_seconds("ten minutes", "--time-budget"), InputError);
  EXPECT_THROW(parse_duration_seconds("0s", "--time-budget"), InputError);
  EXPECT_THROW(parse_duration_seconds("-5m", "--time-budget"), InputError);
}

TEST(Clock, UtcTimesRoundTrip) {
  SystemTime t = parse_utc_time("2026-12-01T11:30:00Z", "--deadline");
  EXPECT_EQ(iso8601_utc(t), "2026-12-01T11:30:00.000Z");
  // 2026-12-01T11:30:00Z is 1796124600 s after the epoch (date -u -d ... +%s).
  EXPECT_EQ(std::chrono::system_clock::to_time_t(t), 1796124600);
  EXPECT_EQ(iso8601_utc(parse_utc_time("2026-12-01 11:30", "x")), "2026-12-01T11:30:00.000Z");
  EXPECT_THROW(parse_utc_time("tomorrow", "--deadline"), InputError);
  EXPECT_THROW(parse_utc_time("2026-13-01T00:00:00Z", "--deadline"), InputError);
}

TEST(Clock, HostileFlagValuesGiveOneLineNamingTheFlag) {
  // 400 digits: std::stod threw out_of_range ("error: stod", exit 1).
  const std::string digits(400, '9');
  EXPECT_EQ(error_of([&] { parse_duration_seconds(digits + "s", "--time-budget"); }),
            "--time-budget: expected a duration such as 90s, 10m or 1h30m, got \"" +
                std::string(64, '9') + "...\"");
  EXPECT_EQ(error_of([] {
              parse_duration_seconds(std::string(300, '9'), "--interval");
            }).rfind("--interval: expected a duration such as 90s", 0),
            0u);
  // 100 000 characters: std::regex recursed once per character and overflowed the stack.
  EXPECT_EQ(error_of([] {
              parse_duration_seconds(std::string(100000, '1'), "--duration");
            }).rfind("--duration: expected a duration such as 90s", 0),
            0u);
  EXPECT_EQ(error_of([] {
              parse_utc_time(std::string(100000, '1'), "--deadline");
            }).rfind("--deadline: expected a UTC time", 0),
            0u);
  // Finite but absurd: 20 years of budget would overflow the clocks it is added to.
  EXPECT_EQ(error_of([] { parse_duration_seconds("175200h", "--time-budget"); }),
            "--time-budget: expected a duration of at most 10 years, got \"175200h\"");
  EXPECT_DOUBLE_EQ(parse_duration_seconds("87600h", "--time-budget"), 87600 * 3600.0);
  // Days that do not exist are errors, not silently the next month.
  EXPECT_EQ(error_of([] { parse_utc_time("2026-02-30T10:00:00Z", "--deadline"); }),
            "--deadline: not a valid date and time: \"2026-02-30T10:00:00Z\"");
  EXPECT_EQ(error_of([] { parse_utc_time("2026-02-29T10:00:00Z", "--deadline"); }),
            "--deadline: not a valid date and time: \"2026-02-29T10:00:00Z\"");
  EXPECT_EQ(iso8601_utc(parse_utc_time("2028-02-29T10:00:00Z", "x")), "2028-02-29T10:00:00.000Z");
}

}  // namespace
}  // namespace gpusizer
