#include "gpusizer/sizing/dates.hpp"

#include <chrono>
#include <cstdio>

namespace gpusizer::sizing {
namespace {

bool digits(std::string_view s, std::size_t from, std::size_t n) {
  if (s.size() < from + n) return false;
  for (std::size_t i = from; i < from + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
  }
  return true;
}

int number(std::string_view s, std::size_t from, std::size_t n) {
  int v = 0;
  for (std::size_t i = from; i < from + n; ++i) v = v * 10 + (s[i] - '0');
  return v;
}

std::optional<std::int64_t> day_of(int y, int m, int d) {
  const std::chrono::year_month_day ymd{std::chrono::year{y},
                                        std::chrono::month{static_cast<unsigned>(m)},
                                        std::chrono::day{static_cast<unsigned>(d)}};
  if (!ymd.ok()) return std::nullopt;
  return std::chrono::sys_days{ymd}.time_since_epoch().count();
}

}  // namespace

std::optional<std::int64_t> parse_date(std::string_view s) {
  if (s.size() != 10 || !digits(s, 0, 4) || s[4] != '-' || !digits(s, 5, 2) || s[7] != '-' ||
      !digits(s, 8, 2)) {
    return std::nullopt;
  }
  return day_of(number(s, 0, 4), number(s, 5, 2), number(s, 8, 2));
}

std::optional<std::int64_t> parse_timestamp(std::string_view s) {
  // YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)
  if (s.size() < 20 || !parse_date(s.substr(0, 10)) || (s[10] != 'T' && s[10] != 't') ||
      !digits(s, 11, 2) || s[13] != ':' || !digits(s, 14, 2) || s[16] != ':' || !digits(s, 17, 2)) {
    return std::nullopt;
  }
  const int hh = number(s, 11, 2);
  const int mm = number(s, 14, 2);
  const int ss = number(s, 17, 2);
  if (hh > 23 || mm > 59 || ss > 60) return std::nullopt;
  std::size_t pos = 19;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    const std::size_t start = pos;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') ++pos;
    if (pos == start) return std::nullopt;
  }
  int offset_seconds = 0;
  const std::string_view zone = s.substr(pos);
  if (zone == "Z" || zone == "z") {
    offset_seconds = 0;
  } else if (zone.size() == 6 && (zone[0] == '+' || zone[0] == '-') && digits(zone, 1, 2) &&
             zone[3] == ':' && digits(zone, 4, 2)) {
    const int oh = number(zone, 1, 2);
    const int om = number(zone, 4, 2);
    if (oh > 23 || om > 59) return std::nullopt;
    offset_seconds = (zone[0] == '+' ? 1 : -1) * (oh * 3600 + om * 60);
  } else {
    return std::nullopt;  // no zone: local time of an unknown place is not a timestamp
  }
  const std::int64_t day = *parse_date(s.substr(0, 10));
  return day * 86400 + hh * 3600 + mm * 60 + ss - offset_seconds;
}

std::optional<std::int64_t> as_of_day(std::string_view s) {
  if (auto d = parse_date(s)) return d;
  if (auto t = parse_timestamp(s)) return *t >= 0 ? *t / 86400 : (*t - 86399) / 86400;
  if (s.size() == 7 && digits(s, 0, 4) && s[4] == '-' && digits(s, 5, 2)) {
    return day_of(number(s, 0, 4), number(s, 5, 2), 1);
  }
  if (s.size() == 14 && digits(s, 0, 14)) {  // Price List version: YYYYMMDDhhmmss
    return day_of(number(s, 0, 4), number(s, 4, 2), number(s, 6, 2));
  }
  if (s.size() > 10 && parse_date(s.substr(0, 10)) && s[10] == 'T') {
    return parse_date(s.substr(0, 10));  // a timestamp without a zone: its date is still its date
  }
  return std::nullopt;
}

std::int64_t today_utc() {
  const auto now = std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
  return now.time_since_epoch().count();
}

std::string format_day(std::int64_t day) {
  const std::chrono::year_month_day ymd{std::chrono::sys_days{std::chrono::days{day}}};
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02u", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
  return buf;
}

std::string format_timestamp(std::int64_t sec) {
  std::int64_t day = sec >= 0 ? sec / 86400 : (sec - 86399) / 86400;
  std::int64_t rest = sec - day * 86400;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%sT%02d:%02d:%02dZ", format_day(day).c_str(),
                static_cast<int>(rest / 3600), static_cast<int>(rest % 3600 / 60),
                static_cast<int>(rest % 60));
  return buf;
}

}  // namespace gpusizer::sizing
