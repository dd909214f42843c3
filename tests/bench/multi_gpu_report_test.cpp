// A multi-GPU report (every family the writer can produce, P2P and collectives included) goes
// through the same loader as show, compare, recommend and run --resume, and the family list in
// the code, the planned cases and the JSON Schema agree. tests/cli/multi_gpu_report.sh runs the
// commands themselves on the same report.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "gpusizer/error.hpp"
#include "gpusizer/report_io.hpp"
#include "multi_gpu_report.hpp"

namespace gpusizer {
namespace {

namespace fs = std::filesystem;

std::set<std::string> code_families() {
  return {all_names<Family>().begin(), all_names<Family>().end()};
}

fs::path temp_file(const std::string& name) {
  return fs::path(GPUSIZER_BINARY_DIR) / "tests" / "bench" / name;
}

TEST(MultiGpuReport, PlannedCasesUseExactlyTheKnownFamilies) {
  // A family added in bench/ without its value in Family (vocabulary.hpp), or the reverse, fails.
  EXPECT_EQ(test::planned_families(), code_families());
}

TEST(MultiGpuReport, HoldsEveryFamily) {
  const Report report = test::multi_gpu_report();
  std::set<std::string> seen;
  for (const auto& r : report.records) seen.insert(std::string(to_string(r.family)));
  EXPECT_EQ(seen, code_families());
  const Record* p2p = nullptr;
  for (const auto& r : report.records) {
    if (r.family == Family::p2p && r.status == RecordStatus::ok) p2p = &r;
  }
  ASSERT_NE(p2p, nullptr);
  EXPECT_GT(p2p->targets.size(), 1u) << p2p->id;
}

TEST(MultiGpuReport, RoundTripsThroughTheLoader) {
  const Report report = test::multi_gpu_report();
  const fs::path file = temp_file("multi-gpu-roundtrip.json");
  save_report(report, file);
  const Report loaded = load_report(file);  // what show, compare, recommend and --resume call
  EXPECT_EQ(to_json(loaded), to_json(report));
  ASSERT_EQ(loaded.records.size(), report.records.size());
  fs::remove(file);
}

TEST(MultiGpuReport, CombinedTelemetryKeepsTheSecondGpusErrors) {
  // The stand-in gpu1 saw an ECC error and a row remap; every two-GPU record must say so.
  const Report report = test::multi_gpu_report();
  int checked = 0;
  for (const auto& r : report.records) {
    if (r.status != RecordStatus::ok || r.targets != std::vector<std::string>{"gpu0", "gpu1"})
      continue;
    ASSERT_TRUE(r.telemetry) << r.id;
    EXPECT_TRUE(r.telemetry->ecc_errors_during_run) << r.id;
    EXPECT_TRUE(r.telemetry->memory_errors_during_run) << r.id;
    EXPECT_EQ(r.telemetry->ecc_corrected_delta, 1u) << r.id;
    EXPECT_EQ(r.telemetry->remapped_rows_corrected_delta, 1u) << r.id;
    EXPECT_TRUE(r.telemetry->row_remap_pending) << r.id;
    EXPECT_NE(std::find(r.flags.begin(), r.flags.end(), "memory_errors_during_run"), r.flags.end())
        << r.id;
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

TEST(MultiGpuReport, SchemaFamilyEnumIsTheCodesList) {
  std::ifstream in(fs::path(GPUSIZER_SOURCE_DIR) / "reports/schema/report.schema.json");
  ASSERT_TRUE(in) << "cannot open the report schema";
  const auto schema = nlohmann::json::parse(in);
  const auto& families_enum =
      schema.at("$defs").at("record").at("properties").at("family").at("enum");
  std::set<std::string> from_schema;
  for (const auto& f : families_enum) from_schema.insert(f.get<std::string>());
  EXPECT_EQ(from_schema, code_families());
  EXPECT_EQ(families_enum.size(), all_names<Family>().size()) << "duplicates in the schema's enum";
}

TEST(MultiGpuReport, UnknownFamilyIsRejectedWithTheList) {
  auto doc = to_json(test::multi_gpu_report());
  doc["records"][0]["family"] = "bogus";
  try {
    report_from_json(JsonInput(doc, "r.json"));
    FAIL() << "accepted an unknown family";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("r.json: /records/0/family"), std::string::npos) << what;
    for (auto f : all_names<Family>())
      EXPECT_NE(what.find(std::string(f)), std::string::npos) << what;
  }
}

// Reports are resumed by id: an id that changes makes --resume measure the case again and keep the
// old record beside the new one. The golden file was written by the code before make_id
// (bench/case_id.hpp) replaced each family's own string building; regenerate it only for a
// deliberate change (gpusizer_write_multi_gpu_report --ids > tests/golden/case-ids-two-gpu.txt).
TEST(MultiGpuReport, CaseIdsAreTheGoldenOnes) {
  std::ifstream in(fs::path(GPUSIZER_SOURCE_DIR) / "tests" / "golden" / "case-ids-two-gpu.txt");
  ASSERT_TRUE(in) << "tests/golden/case-ids-two-gpu.txt is missing";
  std::stringstream golden;
  golden << in.rdbuf();
  const std::string now = test::planned_ids_text();
  EXPECT_GT(std::count(now.begin(), now.end(), '\n'), 100);
  EXPECT_EQ(now, golden.str());
}

}  // namespace
}  // namespace gpusizer
