// Wall-clock helpers: ISO 8601 UTC timestamps, durations and deadlines given on the command line.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

namespace gpusizer {

using SystemTime = std::chrono::system_clock::time_point;

std::string iso8601_utc(SystemTime t);
std::string now_iso8601_utc();

// The longest duration a flag may give (10 years): longer ones are typos, and would overflow the
// clocks they are added to.
inline constexpr double kMaxDurationSeconds = 10 * 366 * 86400.0;

// "90s", "10m", "1h30m", "2h", "45" (seconds), "1.5h". Throws InputError naming `what`.
double parse_duration_seconds(std::string_view text, std::string_view what);
// "2026-12-01T11:30:00Z" or "2026-12-01 11:30" (UTC). Throws InputError naming `what`.
SystemTime parse_utc_time(std::string_view text, std::string_view what);

// "1m05s", "3.2 s", "120 ms" for humans.
std::string human_duration(double seconds);

}  // namespace gpusizer
