#include "gpusizer/json_input.hpp"

#include <algorithm>
#include <cmath>

#include "gpusizer/error.hpp"

namespace gpusizer {
namespace {

std::string escape_token(std::string_view key) {
  // RFC 6901: '~' -> "~0", '/' -> "~1".
  std::string out;
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::string shorten(std::string text) {
  constexpr std::size_t kMax = 60;
  if (text.size() > kMax) text = text.substr(0, kMax - 3) + "...";
  return text;
}

// Refuses nesting deeper than kMaxJsonDepth in one linear pass before nlohmann parses the text.
// Not nlohmann's parser callback: with a callback, every container's end scans its parent for
// discarded values, so [{},{},...] takes quadratic time.
void check_depth(std::string_view text, const std::string& source) {
  int depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) {
        throw InputError(source + ": JSON nested deeper than the limit of " +
                         std::to_string(kMaxJsonDepth) + " levels");
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
}

}  // namespace

std::string describe_json(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::null:
      return "null";
    case nlohmann::json::value_t::object:
      return "an object";
    case nlohmann::json::value_t::array:
      return "an array";
    case nlohmann::json::value_t::string:
      return "the string " + shorten(value.dump());
    case nlohmann::json::value_t::boolean:
      return value.get<bool>() ? "true" : "false";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::number_float:
      return shorten(value.dump());
    default:
      return "an unsupported value";
  }
}

nlohmann::json JsonInput::parse_file(const std::filesystem::path& file, const InputKind& kind) {
  return parse_text(read_input_file(file, kind), file.string());
}

nlohmann::json JsonInput::parse_text(std::string_view text, const std::string& source) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    throw InputError(source + ": empty file, expected JSON");
  }
  check_depth(text, source);
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    // nlohmann's text is "[json.exception.parse_error.101] parse error at line 3, column 5: ...";
    // a number too large for a double (1e400) is an out_of_range.406 error, also not JSON we take.
    std::string what = e.what();
    if (auto pos = what.find("] "); pos != std::string::npos) what = what.substr(pos + 2);
    throw InputError(source + ": not valid JSON: " + what);
  } catch (const std::bad_alloc&) {
    throw InputError(source + ": not enough memory to load this " + describe_size(text.size()) +
                     " JSON document");
  }
}

void JsonInput::release(nlohmann::json& doc) noexcept {
  if (doc.is_array()) {
    auto& items = doc.get_ref<nlohmann::json::array_t&>();
    while (!items.empty()) {
      release(items.back());
      items.pop_back();
    }
  } else if (doc.is_object()) {
    auto& members = doc.get_ref<nlohmann::json::object_t&>();
    while (!members.empty()) {
      auto last = std::prev(members.end());
      release(last->second);
      members.erase(last);
    }
  }
  doc = nullptr;
}

JsonInput::JsonInput(const nlohmann::json& value, std::string source, std::string pointer)
    : value_(&value), source_(std::move(source)), pointer_(std::move(pointer)) {}

void JsonInput::fail(std::string_view what) const {
  throw InputError(source_ + ": " + (pointer_.empty() ? std::string("/") : pointer_) + ": " +
                   std::string(what));
}

void JsonInput::expect_object() const {
  if (!value_->is_object()) fail("expected an object, got " + describe_json(*value_));
}

JsonInput JsonInput::at(std::string_view key) const {
  expect_object();
  auto it = value_->find(key);
  if (it == value_->end()) {
    JsonInput(*value_, source_, pointer_ + "/" + escape_token(key)).fail("missing required field");
  }
  return JsonInput(*it, source_, pointer_ + "/" + escape_token(key));
}

std::optional<JsonInput> JsonInput::find(std::string_view key) const {
  expect_object();
  auto it = value_->find(key);
  if (it == value_->end() || it->is_null()) return std::nullopt;
  return JsonInput(*it, source_, pointer_ + "/" + escape_token(key));
}

bool JsonInput::has(std::string_view key) const {
  expect_object();
  auto it = value_->find(key);
  return it != value_->end() && !it->is_null();
}

void JsonInput::allow_only(std::initializer_list<std::string_view> keys) const {
  expect_object();
  for (const auto& item : value_->items()) {
    if (std::find(keys.begin(), keys.end(), item.key()) == keys.end()) {
      std::string allowed;
      for (auto k : keys) allowed += (allowed.empty() ? "" : ", ") + std::string(k);
      JsonInput(item.value(), source_, pointer_ + "/" + escape_token(item.key()))
          .fail("unknown field (expected one of: " + allowed + ")");
    }
  }
}

std::vector<std::string> JsonInput::keys() const {
  expect_object();
  std::vector<std::string> out;
  for (const auto& item : value_->items()) out.push_back(item.key());
  return out;
}

std::vector<JsonInput> JsonInput::items() const {
  if (!value_->is_array()) fail("expected an array, got " + describe_json(*value_));
  std::vector<JsonInput> out;
  out.reserve(value_->size());
  for (std::size_t i = 0; i < value_->size(); ++i) {
    out.emplace_back((*value_)[i], source_, pointer_ + "/" + std::to_string(i));
  }
  return out;
}

std::string JsonInput::string() const {
  if (!value_->is_string()) fail("expected a string, got " + describe_json(*value_));
  return value_->get<std::string>();
}

std::string JsonInput::non_empty_string() const {
  std::string s = string();
  if (s.empty()) fail("expected a non-empty string");
  return s;
}

bool JsonInput::boolean() const {
  if (!value_->is_boolean()) fail("expected true or false, got " + describe_json(*value_));
  return value_->get<bool>();
}

double JsonInput::number() const {
  if (!value_->is_number()) fail("expected a number, got " + describe_json(*value_));
  double v = value_->get<double>();
  if (!std::isfinite(v)) fail("expected a finite number, got " + describe_json(*value_));
  return v;
}

double JsonInput::non_negative() const {
  if (!value_->is_number()) fail("expected a non-negative number, got " + describe_json(*value_));
  double v = number();
  if (v < 0) fail("expected a non-negative number, got " + describe_json(*value_));
  return v;
}

double JsonInput::positive() const {
  if (!value_->is_number()) fail("expected a positive number, got " + describe_json(*value_));
  double v = number();
  if (v <= 0) fail("expected a positive number, got " + describe_json(*value_));
  return v;
}

std::int64_t JsonInput::integer() const {
  if (value_->is_number_integer()) return value_->get<std::int64_t>();
  if (value_->is_number_float()) {
    double v = value_->get<double>();
    if (std::isfinite(v) && std::floor(v) == v && std::fabs(v) < 9.0e15) {
      return static_cast<std::int64_t>(v);
    }
  }
  fail("expected an integer, got " + describe_json(*value_));
}

std::uint64_t JsonInput::count() const {
  if (value_->is_number_unsigned()) return value_->get<std::uint64_t>();
  const std::string what = "expected a non-negative integer, got " + describe_json(*value_);
  if (!value_->is_number()) fail(what);
  if (value_->is_number_integer()) {
    std::int64_t v = value_->get<std::int64_t>();
    if (v < 0) fail(what);
    return static_cast<std::uint64_t>(v);
  }
  double d = value_->get<double>();
  if (!std::isfinite(d) || d < 0 || std::floor(d) != d || d >= 9.0e15) fail(what);
  return static_cast<std::uint64_t>(d);
}

std::string JsonInput::one_of(std::initializer_list<std::string_view> allowed) const {
  return one_of(std::span<const std::string_view>(allowed.begin(), allowed.size()));
}

std::string JsonInput::one_of(std::span<const std::string_view> allowed) const {
  std::string s = string();
  if (std::find(allowed.begin(), allowed.end(), s) == allowed.end()) {
    std::string list;
    for (auto a : allowed) list += (list.empty() ? "" : ", ") + std::string(a.empty() ? "\"\"" : a);
    fail("expected one of " + list + ", got " + describe_json(*value_));
  }
  return s;
}

std::optional<std::string> JsonInput::optional_string(std::string_view key) const {
  if (auto v = find(key)) return v->string();
  return std::nullopt;
}

std::optional<double> JsonInput::optional_non_negative(std::string_view key) const {
  if (auto v = find(key)) return v->non_negative();
  return std::nullopt;
}

std::optional<double> JsonInput::optional_positive(std::string_view key) const {
  if (auto v = find(key)) return v->positive();
  return std::nullopt;
}

}  // namespace gpusizer
