#include "gpusizer/text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <nlohmann/json.hpp>

namespace gpusizer {
namespace {

void append_hex_escape(std::string& out, const char* prefix, unsigned value, int digits) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%s%0*x", prefix, digits, value);
  out += buf;
}

bool continuation(unsigned char c) {
  return (c & 0xC0) == 0x80;
}

// Length of the well-formed UTF-8 sequence of two or more bytes at text[i] (Unicode 15, table
// 3-7: no overlong forms, no surrogates, nothing above U+10FFFF), or 0 when it is ill-formed.
std::size_t sequence_length(std::string_view text, std::size_t i) {
  const auto at = [&](std::size_t k) -> unsigned char {
    return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0;
  };
  const unsigned char lead = at(0);
  const unsigned char second = at(1);
  if (lead >= 0xC2 && lead <= 0xDF) return continuation(second) ? 2 : 0;
  if (lead >= 0xE0 && lead <= 0xEF) {
    const unsigned char lo = lead == 0xE0 ? 0xA0 : 0x80;
    const unsigned char hi = lead == 0xED ? 0x9F : 0xBF;
    return second >= lo && second <= hi && continuation(at(2)) ? 3 : 0;
  }
  if (lead >= 0xF0 && lead <= 0xF4) {
    const unsigned char lo = lead == 0xF0 ? 0x90 : 0x80;
    const unsigned char hi = lead == 0xF4 ? 0x8F : 0xBF;
    return second >= lo && second <= hi && continuation(at(2)) && continuation(at(3)) ? 4 : 0;
  }
  return 0;
}

}  // namespace

std::string lower(std::string text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

std::string fixed(double value, int digits) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "%.*f", digits, value);
  return buf;
}

std::string significant(double value, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, value);
  return buf;
}

namespace {

// The decimal exponent of |value| once rounded to four significant digits (printf "%.3e"), so
// 9999.6 counts as 1.000e+04.
int rounded_exponent(double magnitude, std::string* mantissa_digits = nullptr) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3e", magnitude);
  if (mantissa_digits != nullptr)
    *mantissa_digits = std::string(1, buf[0]) + std::string(buf + 2, 3);
  return std::atoi(std::strchr(buf, 'e') + 1);
}

// "12.3400" -> "12.34", "5.000" -> "5" (keep_decimals 0) or "5.00" (keep_decimals 2).
std::string trim_zeros(std::string text, std::size_t keep_decimals) {
  const std::size_t dot = text.find('.');
  if (dot == std::string::npos) return text;
  while (text.size() - dot - 1 > keep_decimals && text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

std::string dollars(bool negative, const std::string& magnitude) {
  const bool zero = magnitude.find_first_not_of("0.,") == std::string::npos;
  return (negative && !zero ? "-$" : "$") + group_thousands(magnitude);
}

}  // namespace

std::string short_number(double value) {
  if (!std::isfinite(value)) return significant(value, 4);
  if (value == 0) return "0";
  const double magnitude = std::fabs(value);
  if (magnitude < 1e-3) return significant(value, 4);
  std::string digits;
  const int exponent = rounded_exponent(magnitude, &digits);
  std::string text;
  if (exponent >= 3) {
    text = group_thousands(digits + std::string(static_cast<std::size_t>(exponent - 3), '0'));
  } else {
    text = trim_zeros(fixed(magnitude, 3 - exponent), 0);
  }
  return (value < 0 ? "-" : "") + text;
}

std::string group_thousands(std::string digits) {
  std::string sign;
  if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) {
    sign = digits.substr(0, 1);
    digits.erase(0, 1);
  }
  const std::size_t dot = digits.find('.');
  const std::string fraction = dot == std::string::npos ? "" : digits.substr(dot);
  const std::string whole = digits.substr(0, dot);
  std::string out;
  for (std::size_t i = 0; i < whole.size(); ++i) {
    if (i > 0 && (whole.size() - i) % 3 == 0) out += ',';
    out += whole[i];
  }
  return sign + out + fraction;
}

std::string format_usd(double usd) {
  const double magnitude = std::fabs(usd);
  std::string text = fixed(magnitude, 2);
  if (magnitude > 0 && magnitude < 1 && text != "1.00") {
    const int decimals = std::min(6, 3 - rounded_exponent(magnitude));
    text = trim_zeros(fixed(magnitude, decimals), 2);
  }
  return dollars(usd < 0, text);
}

std::string exact_usd(double usd) {
  return dollars(usd < 0, trim_zeros(fixed(std::fabs(usd), 6), 2));
}

std::string plain_number(double value) {
  if (value == 0) return "0";
  char buf[400];
  const auto result = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed);
  return std::string(buf, result.ptr);
}

std::string three_significant(double value) {
  const double a = std::fabs(value);
  return fixed(value, a >= 100 ? 1 : a >= 10 ? 2 : 3);
}

std::string binary_bytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  return fixed(v, v == std::floor(v) ? 0 : 1) + " " + units[u];
}

std::string escape_control(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    if (c < 0x80) {  // C0 or DEL
      append_hex_escape(out, "\\x", c, 2);
      ++i;
      continue;
    }
    const std::size_t n = sequence_length(text, i);
    if (n == 0) {  // one byte of an ill-formed sequence
      append_hex_escape(out, "\\x", c, 2);
      ++i;
      continue;
    }
    const auto second = static_cast<unsigned char>(text[i + 1]);
    if (c == 0xC2 && second < 0xA0) {  // U+0080..U+009F: C1 controls
      append_hex_escape(out, "\\u", second, 4);
    } else {
      out.append(text.substr(i, n));
    }
    i += n;
  }
  return out;
}

std::string json_for_terminal(const nlohmann::json& value, int indent) {
  const std::string text = value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
    if (c == 0xC2 && next >= 0x80 && next <= 0x9F) {  // U+0080..U+009F, only inside strings
      append_hex_escape(out, "\\u", next, 4);
      ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace gpusizer
