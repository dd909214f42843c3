#include <gtest/gtest.h>

#include "gpusizer/clock.hpp"
#include "gpusizer/error.hpp"

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

}  // namespace
}  // namespace gpusizer
