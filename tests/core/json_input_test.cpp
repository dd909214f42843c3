#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <new>

#include "gpusizer/error.hpp"
#include "gpusizer/json_input.hpp"
#include "input_error_of.hpp"

// Counts the allocations made while `counting` is set: releasing a parsed document must not
// allocate (nlohmann's destructor does, and aborts when that fails near a memory cap).
// GCC's -Wmismatched-new-delete cannot see that this operator new allocates with malloc.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
static std::atomic<bool> counting{false};
static std::atomic<long> allocations{0};
void* operator new(std::size_t n) {
  if (counting) ++allocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  if (counting) ++allocations;
  return std::malloc(n ? n : 1);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace gpusizer {
namespace {

TEST(JsonInput, ReleaseEmptiesADocumentWithoutAllocating) {
  // 100 000 empty objects in an array (nlohmann's destructor would reserve 1.6 MB for them),
  // nested containers and strings.
  std::string text = "{\"wide\": [";
  for (int i = 0; i < 100000; ++i) text += i ? ",{}" : "{}";
  text += R"(], "deep": [[[{"a": [1, "two", {"b": null}]}]]], "s": "a long string value here"})";
  nlohmann::json doc = JsonInput::parse_text(text, "wide.json");
  ASSERT_EQ(doc["wide"].size(), 100000u);
  allocations = 0;
  counting = true;
  JsonInput::release(doc);
  counting = false;
  EXPECT_EQ(allocations.load(), 0);
  EXPECT_TRUE(doc.is_null());
}

TEST(JsonInput, NamesFileAndPointerOnWrongType) {
  auto doc = nlohmann::json::parse(R"({"records": [{"value": "fast"}]})");
  JsonInput in(doc, "r.json");
  EXPECT_EQ(error_of([&] { in.at("records").items()[0].at("value").non_negative(); }),
            "r.json: /records/0/value: expected a non-negative number, got the string \"fast\"");
}

TEST(JsonInput, MissingFieldNamesItsPath) {
  auto doc = nlohmann::json::parse(R"({"host": {}})");
  JsonInput in(doc, "a.json");
  EXPECT_EQ(error_of([&] { in.at("host").at("hostname"); }),
            "a.json: /host/hostname: missing required field");
}

TEST(JsonInput, RejectsNegativeAndNonPositive) {
  auto doc = nlohmann::json::parse(R"({"a": -1, "b": 0, "c": 2.5})");
  JsonInput in(doc, "x.json");
  EXPECT_EQ(error_of([&] { in.at("a").non_negative(); }),
            "x.json: /a: expected a non-negative number, got -1");
  EXPECT_EQ(error_of([&] { in.at("b").positive(); }),
            "x.json: /b: expected a positive number, got 0");
  EXPECT_DOUBLE_EQ(in.at("c").positive(), 2.5);
  EXPECT_EQ(error_of([&] { in.at("c").count(); }),
            "x.json: /c: expected a non-negative integer, got 2.5");
}

TEST(JsonInput, RejectsUnknownFieldsAndValues) {
  auto doc = nlohmann::json::parse(R"({"kind": "tpu", "colour": 1})");
  JsonInput in(doc, "t.json");
  EXPECT_EQ(error_of([&] { in.allow_only({"kind"}); }),
            "t.json: /colour: unknown field (expected one of: kind)");
  EXPECT_EQ(error_of([&] {
              in.at("kind").one_of({"cpu", "gpu"});
            }),
            "t.json: /kind: expected one of cpu, gpu, got the string \"tpu\"");
}

TEST(JsonInput, EscapesPointerTokens) {
  auto doc = nlohmann::json::parse(R"({"a/b": {"c~d": true}})");
  JsonInput in(doc, "e.json");
  EXPECT_EQ(error_of([&] { in.at("a/b").at("c~d").string(); }),
            "e.json: /a~1b/c~0d: expected a string, got true");
}

TEST(JsonInput, ParseErrorsNameTheFile) {
  EXPECT_EQ(
      error_of([] { JsonInput::parse_file("/nonexistent/report.json", input_kinds::report); }),
      "/nonexistent/report.json: no such file");
  EXPECT_EQ(error_of([] { JsonInput::parse_text("  \n", "empty.json"); }),
            "empty.json: empty file, expected JSON");
  std::string msg = error_of([] { JsonInput::parse_text("{\"a\": 1,}", "bad.json"); });
  EXPECT_EQ(msg.rfind("bad.json: not valid JSON: parse error at line 1", 0), 0u) << msg;
  // JSON has no NaN or Infinity: they are parse errors, never silently numbers.
  msg = error_of([] { JsonInput::parse_text("{\"a\": NaN}", "nan.json"); });
  EXPECT_EQ(msg.rfind("nan.json: not valid JSON", 0), 0u) << msg;
  // A number beyond double range is rejected with the file named, not thrown raw.
  msg = error_of([] { JsonInput::parse_text("{\"a\": 1e400}", "big.json"); });
  EXPECT_EQ(msg.rfind("big.json: not valid JSON: number overflow", 0), 0u) << msg;
}

TEST(JsonInput, OptionalMembersTreatNullAsAbsent) {
  auto doc = nlohmann::json::parse(R"({"a": null, "b": 3})");
  JsonInput in(doc, "o.json");
  EXPECT_FALSE(in.find("a").has_value());
  EXPECT_FALSE(in.optional_positive("missing").has_value());
  EXPECT_EQ(in.optional_positive("b").value(), 3.0);
}

}  // namespace
}  // namespace gpusizer
