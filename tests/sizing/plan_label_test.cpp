// Sizing's own value sets against the schemas: PlanLabel, SpareUnit, HardwareKind and
// PurchaseOption against reports/schema/plan.schema.json (a plan row's labels start with
// PlanLabel's names), RedundancyUnit, Interruptions and HardwareKind against
// reports/schema/workload.schema.json.
#include <gtest/gtest.h>

#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpusizer/sizing/plan.hpp"

namespace gpusizer {
namespace {

nlohmann::json schema(const std::string& name) {
  std::ifstream in(std::string(GPUSIZER_SOURCE_DIR) + "/reports/schema/" + name);
  return nlohmann::json::parse(in);
}
nlohmann::json plan_schema() {
  return schema("plan.schema.json");
}

template <class E>
std::vector<std::string> names() {
  return {all_names<E>().begin(), all_names<E>().end()};
}
std::vector<std::string> enum_at(const nlohmann::json& doc, const std::string& pointer) {
  return doc.at(nlohmann::json::json_pointer(pointer)).at("enum").get<std::vector<std::string>>();
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

TEST(SizingVocabulary, PlanSchemaEnumsAreTheCodesLists) {
  const auto plan = plan_schema();
  EXPECT_EQ(enum_at(plan, "/$defs/option/properties/kind"), names<HardwareKind>());
  EXPECT_EQ(enum_at(plan, "/$defs/option/properties/cost/properties/option"),
            names<PurchaseOption>());
  EXPECT_EQ(nlohmann::json(HardwareKind::mig), "mig");
  EXPECT_EQ(nlohmann::json(PurchaseOption::capacity_block), "capacity_block");
  EXPECT_EQ(sizing::purchase_option("savings_plan"), PurchaseOption::savings_plan);
  EXPECT_THROW(sizing::purchase_option("Spot"), std::invalid_argument);
  EXPECT_TRUE(sizing::is_window_option(PurchaseOption::training_plan));
  EXPECT_FALSE(sizing::is_window_option(PurchaseOption::reserved));
}

TEST(SizingVocabulary, WorkloadSchemaEnumsAreTheCodesLists) {
  const auto workload = schema("workload.schema.json");
  EXPECT_EQ(enum_at(workload, "/properties/redundancy_unit"), names<RedundancyUnit>());
  EXPECT_EQ(enum_at(workload, "/properties/interruptions"), names<Interruptions>());
  EXPECT_EQ(enum_at(workload, "/properties/allowed/items"), names<HardwareKind>());
  EXPECT_EQ(nlohmann::json(RedundancyUnit::replicas), "replicas");
}

}  // namespace
}  // namespace gpusizer
