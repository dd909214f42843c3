#include "gpusizer/vocabulary.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "gpusizer/json_input.hpp"
#include "input_error_of.hpp"

namespace gpusizer {
namespace {

// The names each set must have, written out here rather than read from the header.
TEST(Vocabulary, NamesAreTheReportFormatsWords) {
  using V = std::vector<std::string_view>;
  auto names = [](auto span) { return V(span.begin(), span.end()); };
  EXPECT_EQ(names(all_names<Family>()), (V{"memory", "gemm", "io", "p2p", "collectives"}));
  EXPECT_EQ(names(all_names<RecordStatus>()), (V{"ok", "failed", "error", "skipped"}));
  EXPECT_EQ(names(all_names<TargetKind>()), (V{"cpu", "gpu", "mig"}));
  EXPECT_EQ(names(all_names<VerificationStatus>()), (V{"passed", "failed", "not_applicable"}));
  EXPECT_EQ(names(all_names<CacheMode>()), (V{"hot", "cold"}));
  EXPECT_EQ(names(all_names<Timer>()), (V{"steady_clock", "cuda_events"}));
  EXPECT_EQ(names(all_names<Concurrency>()), (V{"", "isolated", "concurrent"}));
  EXPECT_EQ(names(all_names<ReportStatus>()),
            (V{"running", "complete", "stopped", "empty", "failed"}));
  EXPECT_EQ(names(all_names<TelemetrySource>()), (V{"nvml", "rapl", "unavailable"}));
}

template <class E>
void expect_round_trip_and_unique() {
  std::set<std::string_view> seen;
  const auto values = all_values<E>();
  ASSERT_EQ(values.size(), all_names<E>().size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    const E value = values[i];
    EXPECT_EQ(static_cast<std::size_t>(value), i);
    const std::string_view name = to_string(value);
    EXPECT_EQ(name, all_names<E>()[i]);
    EXPECT_TRUE(seen.insert(name).second) << "duplicate name " << name;
    ASSERT_TRUE(parse<E>(name).has_value()) << name;
    EXPECT_EQ(*parse<E>(name), value) << name;
    // nlohmann writes the name, so reports keep their bytes.
    EXPECT_EQ(nlohmann::json(value), nlohmann::json(std::string(name)));
  }
}

TEST(Vocabulary, EveryValueRoundTripsAndEveryNameIsUnique) {
  expect_round_trip_and_unique<Family>();
  expect_round_trip_and_unique<RecordStatus>();
  expect_round_trip_and_unique<TargetKind>();
  expect_round_trip_and_unique<VerificationStatus>();
  expect_round_trip_and_unique<CacheMode>();
  expect_round_trip_and_unique<Timer>();
  expect_round_trip_and_unique<Concurrency>();
  expect_round_trip_and_unique<ReportStatus>();
  expect_round_trip_and_unique<TelemetrySource>();
}

TEST(Vocabulary, ParseTakesExactNamesOnly) {
  EXPECT_FALSE(parse<RecordStatus>("oops"));
  EXPECT_FALSE(parse<RecordStatus>("OK"));  // case matters, as in the schema
  EXPECT_FALSE(parse<RecordStatus>(" ok"));
  EXPECT_FALSE(parse<RecordStatus>(""));
  EXPECT_FALSE(parse<Family>("memory/host-link"));
  EXPECT_FALSE(parse<TargetKind>("tpu"));
  // "failed" is a word of three sets; each parses it to its own value.
  EXPECT_EQ(parse<RecordStatus>("failed"), RecordStatus::failed);
  EXPECT_EQ(parse<VerificationStatus>("failed"), VerificationStatus::failed);
  EXPECT_EQ(parse<ReportStatus>("failed"), ReportStatus::failed);
  // A record without "mode" is not_stated, written as nothing.
  EXPECT_EQ(parse<Concurrency>(""), Concurrency::not_stated);
  EXPECT_EQ(names_list<Timer>(), "steady_clock, cuda_events");
}

TEST(Vocabulary, JsonInputNamesTheFilePointerAndEveryAllowedName) {
  const auto doc = nlohmann::json::parse(
      R"({"status": "oops", "kind": 3, "mode": "both", "target": "mig", "empty": ""})");
  const JsonInput in(doc, "r.json");
  EXPECT_EQ(in.at("target").enumerated<TargetKind>(), TargetKind::mig);
  EXPECT_EQ(in.at("empty").enumerated<Concurrency>(), Concurrency::not_stated);
  EXPECT_EQ(error_of([&] { in.at("status").enumerated<RecordStatus>(); }),
            "r.json: /status: expected one of ok, failed, error, skipped, got the string \"oops\"");
  EXPECT_EQ(error_of([&] { in.at("kind").enumerated<TargetKind>(); }),
            "r.json: /kind: expected a string, got 3");
  EXPECT_EQ(error_of([&] { in.at("mode").enumerated<Concurrency>(); }),
            "r.json: /mode: expected one of \"\", isolated, concurrent, got the string \"both\"");
  EXPECT_EQ(error_of([&] { in.at("empty").enumerated<Family>(); }),
            "r.json: /empty: expected one of memory, gemm, io, p2p, collectives, got the string "
            "\"\"");
}

// reports/schema/report.schema.json states each set as an enum; it must be the code's list, in
// the code's order. Concurrency's not_stated is the absence of "mode", so not in the schema.
template <class E>
void expect_schema_enum(const nlohmann::json& schema, const std::string& pointer) {
  std::vector<std::string> code;
  for (auto name : all_names<E>())
    if (!name.empty()) code.emplace_back(name);
  const auto& in_schema = schema.at(nlohmann::json::json_pointer(pointer));
  EXPECT_EQ(in_schema.get<std::vector<std::string>>(), code) << pointer;
}

TEST(Vocabulary, SchemaEnumsAreTheCodesLists) {
  std::ifstream in(std::string(GPUSIZER_SOURCE_DIR) + "/reports/schema/report.schema.json");
  ASSERT_TRUE(in) << "cannot open the report schema";
  const auto schema = nlohmann::json::parse(in);
  expect_schema_enum<ReportStatus>(schema, "/properties/status/enum");
  expect_schema_enum<ReportStatus>(schema, "/properties/history/items/properties/status/enum");
  expect_schema_enum<TargetKind>(schema, "/$defs/target/properties/kind/enum");
  expect_schema_enum<TelemetrySource>(schema, "/$defs/telemetry/properties/source/enum");
  expect_schema_enum<Family>(schema, "/$defs/record/properties/family/enum");
  expect_schema_enum<RecordStatus>(schema, "/$defs/record/properties/status/enum");
  expect_schema_enum<Timer>(schema, "/$defs/record/properties/timing/properties/timer/enum");
  expect_schema_enum<CacheMode>(schema, "/$defs/record/properties/timing/properties/mode/enum");
  expect_schema_enum<VerificationStatus>(
      schema, "/$defs/record/properties/verification/properties/status/enum");
  expect_schema_enum<Concurrency>(schema, "/$defs/record/properties/mode/enum");
}

}  // namespace
}  // namespace gpusizer
