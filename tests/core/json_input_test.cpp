#include <gtest/gtest.h>

#include "gpusizer/error.hpp"
#include "gpusizer/json_input.hpp"

namespace gpusizer {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(JsonInput, NamesFileAndPointerOnWrongType) {
  auto doc = nlohmann::json::parse(R"({"records": [{"value": "fast"}]})");
  JsonInput in(doc, "r.json");
  EXPECT_EQ(error_of([&] { in.at("records").items()[0].at("value").non_negative(); }),
            "r.json: /records/0/value: expected a non-negative number, got the string \"fast\"");
}

}  // namespace
}  // namespace gpusizer
