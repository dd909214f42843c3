// PlanLabel and SpareUnit (plan.hpp) against reports/schema/plan.schema.json: the schema's enums
// are the code's lists, and a plan row's labels start with PlanLabel's names.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "gpusizer/sizing/plan.hpp"

namespace gpusizer {
namespace {

nlohmann::json plan_schema() {
  std::ifstream in(std::string(GPUSIZER_SOURCE_DIR) + "/reports/schema/plan.schema.json");
  return nlohmann::json::parse(in);
}

TEST(PlanLabel, NamesRoundTrip) {
  EXPECT_EQ(to_string(PlanLabel::measured), "measured");
  EXPECT_EQ(to_string(PlanLabel::scaled), "scaled");
  EXPECT_EQ(to_string(PlanLabel::estimated), "estimated");
  for (auto label : all_values<PlanLabel>()) EXPECT_EQ(parse<PlanLabel>(to_string(label)), label);
  EXPECT_FALSE(parse<PlanLabel>("Measured"));
  EXPECT_EQ(nlohmann::json(PlanLabel::scaled), "scaled");
}

TEST(PlanLabel, SchemaEnumIsTheCodesList) {
  const auto schema = plan_schema();
  const auto& option = schema.at("$defs").at("option").at("properties");
  const std::vector<std::string> code(all_names<PlanLabel>().begin(), all_names<PlanLabel>().end());
  EXPECT_EQ(option.at("label").at("enum").get<std::vector<std::string>>(), code);
  // "labels" lists the label first, then price marks.
  const auto labels = option.at("labels").at("items").at("enum").get<std::vector<std::string>>();
  ASSERT_GE(labels.size(), code.size());
  EXPECT_EQ(
      std::vector<std::string>(labels.begin(), labels.begin() + static_cast<long>(code.size())),
      code);
}

TEST(SpareUnit, SchemaEnumIsTheCodesList) {
  const auto schema = plan_schema();
  const auto& unit = schema.at(nlohmann::json::json_pointer(
      "/$defs/option/properties/cost/properties/spare/properties/unit"));
  EXPECT_EQ(unit.at("enum").get<std::vector<std::string>>(),
            std::vector<std::string>(all_names<SpareUnit>().begin(), all_names<SpareUnit>().end()));
  EXPECT_EQ(nlohmann::json(SpareUnit::slices), "slices");
}

}  // namespace
}  // namespace gpusizer
