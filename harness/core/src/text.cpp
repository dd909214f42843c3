#include "gpusizer/text.hpp"

#include <cmath>
#include <cstdio>

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

std::string short_number(double value) {
  return significant(value, 4);
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
