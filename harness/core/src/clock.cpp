#include "gpusizer/clock.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <regex>

#include "gpusizer/error.hpp"

namespace gpusizer {
namespace {
constexpr std::size_t kMaxFlagTextLength = 64;

// The value as given, quoted, cut short when long (the error stays one readable line).
std::string quoted(const std::string& s) {
  return "\"" + (s.size() > kMaxFlagTextLength ? s.substr(0, kMaxFlagTextLength) + "..." : s) +
         "\"";
}
}  // namespace

std::string iso8601_utc(SystemTime t) {
  auto secs = std::chrono::time_point_cast<std::chrono::seconds>(t);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t - secs).count();
  std::time_t tt = std::chrono::system_clock::to_time_t(secs);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
  return buf;
}

std::string now_iso8601_utc() {
  return iso8601_utc(std::chrono::system_clock::now());
}

double parse_duration_seconds(std::string_view text, std::string_view what) {
  static const std::regex whole(R"(^\s*((\d+(\.\d+)?)(h|m|s|ms)?\s*)+$)");
  static const std::regex part(R"((\d+(\.\d+)?)(h|ms|m|s)?)");
  std::string s(text);
  // libstdc++'s std::regex recurses per character: a 100 000-character value overflows the stack.
  if (s.size() > kMaxFlagTextLength || !std::regex_match(s, whole)) {
    throw InputError(std::string(what) + ": expected a duration such as 90s, 10m or 1h30m, got " +
                     quoted(s));
  }
  double total = 0;
  for (auto it = std::sregex_iterator(s.begin(), s.end(), part); it != std::sregex_iterator();
       ++it) {
    // strtod, not stod: 400 digits are HUGE_VAL (refused below), not an out_of_range exception.
    double v = std::strtod((*it)[1].str().c_str(), nullptr);
    std::string unit = (*it)[3].str();
    if (unit == "h") {
      v *= 3600;
    } else if (unit == "m") {
      v *= 60;
    } else if (unit == "ms") {
      v /= 1000;
    }
    total += v;
  }
  if (!(total > 0) || !std::isfinite(total)) {
    throw InputError(std::string(what) + ": expected a positive duration, got " + quoted(s));
  }
  if (total > kMaxDurationSeconds) {
    throw InputError(std::string(what) + ": expected a duration of at most 10 years, got " +
                     quoted(s));
  }
  return total;
}

SystemTime parse_utc_time(std::string_view text, std::string_view what) {
  static const std::regex re(
      R"(^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(:(\d{2}))?(\.\d+)?(Z|\+00:00)?$)");
  std::string s(text);
  std::smatch m;
  if (s.size() > kMaxFlagTextLength || !std::regex_match(s, m, re)) {
    throw InputError(std::string(what) +
                     ": expected a UTC time such as 2026-12-01T11:30:00Z, got " + quoted(s));
  }
  std::tm tm{};
  tm.tm_year = std::stoi(m[1]) - 1900;
  tm.tm_mon = std::stoi(m[2]) - 1;
  tm.tm_mday = std::stoi(m[3]);
  tm.tm_hour = std::stoi(m[4]);
  tm.tm_min = std::stoi(m[5]);
  tm.tm_sec = m[7].matched ? std::stoi(m[7]) : 0;
  static constexpr int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const int year = tm.tm_year + 1900;
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (tm.tm_mon < 0 || tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > kDays[tm.tm_mon] ||
      (tm.tm_mon == 1 && tm.tm_mday == 29 && !leap) || tm.tm_hour > 23 || tm.tm_min > 59 ||
      tm.tm_sec > 60) {
    throw InputError(std::string(what) + ": not a valid date and time: " + quoted(s));
  }
  return std::chrono::system_clock::from_time_t(timegm(&tm));
}

std::string human_duration(double seconds) {
  char buf[32];
  if (seconds < 1e-3) {
    std::snprintf(buf, sizeof buf, "%.1f us", seconds * 1e6);
  } else if (seconds < 1) {
    std::snprintf(buf, sizeof buf, "%.0f ms", seconds * 1e3);
  } else if (seconds < 60) {
    std::snprintf(buf, sizeof buf, "%.1f s", seconds);
  } else {
    auto total = static_cast<long>(std::lround(seconds));
    if (total >= 3600) {
      std::snprintf(buf, sizeof buf, "%ldh%02ldm", total / 3600, (total % 3600) / 60);
    } else {
      std::snprintf(buf, sizeof buf, "%ldm%02lds", total / 60, total % 60);
    }
  }
  return buf;
}

}  // namespace gpusizer
