// The one loading path for every file gpusizer reads (reports, catalogs, workloads, overlays).
// A JsonInput is a view on one JSON value that remembers the file and JSON pointer it came from,
// so every rejection is one line: "<file>: <json pointer>: expected <what>, got <what>".
#pragma once

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusizer/input_file.hpp"
#include "gpusizer/vocabulary.hpp"

namespace gpusizer {

// The deepest JSON nesting any input may have. Our own formats nest at most 6 levels; free-form
// fields (parameters, attributes, settings) get 40x room. Deeper documents are refused while
// parsing: nlohmann copies, compares and prints recursively, so 100 000 nested '[' would
// overflow the stack (SIGSEGV) long after the parse succeeded.
inline constexpr int kMaxJsonDepth = 256;

class JsonInput {
 public:
  // Reads (read_input_file: regular files only, kind.max_bytes at most) and parses a file; throws
  // InputError naming the file when it is missing, not a regular file, too large, unreadable,
  // not JSON or nested deeper than kMaxJsonDepth. The returned document owns the data; inputs
  // refer to it.
  static nlohmann::json parse_file(const std::filesystem::path& file, const InputKind& kind);
  static nlohmann::json parse_text(std::string_view text, const std::string& source);
  // Empties `doc` leaf first, without allocating: nlohmann's own destructor reserves a stack as
  // large as the widest container (90 MB for 5.6 million objects), which throws bad_alloc from
  // a noexcept destructor — an abort — when a large document is dropped near a memory cap.
  // Recursion is bounded by the depth limit that parse_text enforces.
  static void release(nlohmann::json& doc) noexcept;

  JsonInput(const nlohmann::json& value, std::string source, std::string pointer = "");

  [[noreturn]] void fail(std::string_view what) const;

  // Members of an object. at() requires the member; find() returns nullopt when absent or null.
  JsonInput at(std::string_view key) const;
  std::optional<JsonInput> find(std::string_view key) const;
  bool has(std::string_view key) const;
  // Rejects members whose names are not listed (typos must not be silently ignored).
  void allow_only(std::initializer_list<std::string_view> keys) const;
  std::vector<std::string> keys() const;

  // Arrays.
  std::vector<JsonInput> items() const;

  // Scalars, each checked.
  std::string string() const;
  std::string non_empty_string() const;
  bool boolean() const;
  double number() const;        // finite
  double non_negative() const;  // finite and >= 0
  double positive() const;      // finite and > 0
  std::int64_t integer() const;
  std::uint64_t count() const;  // integer >= 0
  // A string that must be one of `allowed`.
  std::string one_of(std::initializer_list<std::string_view> allowed) const;
  std::string one_of(std::span<const std::string_view> allowed) const;
  // A string naming a value of a fixed set (vocabulary.hpp): "expected one of ok, failed, ...".
  template <Vocabulary E>
  E enumerated() const {
    return *parse<E>(one_of(all_names<E>()));
  }

  // Shorthands for members.
  std::string string_at(std::string_view key) const { return at(key).string(); }
  std::optional<std::string> optional_string(std::string_view key) const;
  std::optional<double> optional_non_negative(std::string_view key) const;
  std::optional<double> optional_positive(std::string_view key) const;

  const nlohmann::json& raw() const { return *value_; }
  const std::string& source() const { return source_; }
  const std::string& pointer() const { return pointer_; }
  bool is_object() const { return value_->is_object(); }
  bool is_array() const { return value_->is_array(); }
  bool is_null() const { return value_->is_null(); }

 private:
  void expect_object() const;
  const nlohmann::json* value_;
  std::string source_;
  std::string pointer_;
};

// "a number", "a string", ... for messages.
std::string describe_json(const nlohmann::json& value);

}  // namespace gpusizer
