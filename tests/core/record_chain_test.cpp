// The record digest chain (record_chain.hpp) and how the loader carries a broken one forward.
// Expected digests were computed with Python's hashlib, independently of gpusizer's SHA-256.
#include <gtest/gtest.h>

#include "gpusizer/record_chain.hpp"
#include "gpusizer/report_io.hpp"

namespace gpusizer {
namespace {

using nlohmann::json;

json two_items() {
  return json{{"targets", json::array({{{"kind", "cpu"}, {"id", "cpu"}}})},
              {"records", json::array({{{"id", "r1"}, {"b", 1.5}}})}};
}

TEST(RecordChain, LinksAreSha256OverTheCanonicalItemChained) {
  const json chain = record_chain(two_items());
  EXPECT_EQ(chain["algorithm"], "sha256-chain-v1");
  ASSERT_EQ(chain["links"].size(), 2u);
  // sha256("gpusizer.record-chain.v1" + '{"id":"cpu","kind":"cpu"}'), keys sorted
  EXPECT_EQ(chain["links"][0]["item"], "target cpu");
  EXPECT_EQ(chain["links"][0]["sha256"],
            "e85e557d78b4bb4398e548a6054c473cfa87d4d5829871d03912e4836f4fd520");
  // sha256(link[0] + '{"b":1.5,"id":"r1"}')
  EXPECT_EQ(chain["links"][1]["item"], "record r1");
  EXPECT_EQ(chain["head"], "6edc6ab717d1410873e13928ab302e9d97b7eecaeb07b708539b9cadc3784fa6");
  // No items: the head is sha256 of the seed.
  EXPECT_EQ(record_chain(json::object())["head"],
            "d48984b4ab50d32c7e24dc9d17d809cdc97f45696095622970204c02c0ff6503");
}

json chained() {
  json doc = two_items();
  doc["integrity"] = record_chain(doc);
  return doc;
}

TEST(RecordChain, HoldsAsWrittenAndNamesTheFirstItemEdited) {
  EXPECT_TRUE(record_chain_findings(chained()).empty());
  json edited = chained();
  edited["records"][0]["b"] = 1.6;
  EXPECT_EQ(
      record_chain_findings(edited),
      std::vector<std::string>{"record r1: changed after it was written (its digest differs)"});
  json target = chained();
  target["targets"][0]["kind"] = "gpu";  // a ceiling lives in a target: chained too
  EXPECT_EQ(record_chain_findings(target).at(0),
            "target cpu: changed after it was written (its digest differs)");
}

TEST(RecordChain, AddedRemovedReorderedAndMissing) {
  json added = chained();
  added["records"].push_back({{"id", "r2"}});
  EXPECT_EQ(record_chain_findings(added).at(0),
            "record r2: added after the report was written (not in its record chain)");
  json removed = chained();
  removed["records"] = json::array();
  EXPECT_EQ(record_chain_findings(removed).at(0),
            "1 item(s) removed after the report was written (first: record r1)");
  json swapped = chained();
  swapped["records"][0]["id"] = "r9";
  EXPECT_EQ(record_chain_findings(swapped).at(0),
            "record r9: not what the chain recorded at this place (record r1): items removed, "
            "added or reordered");
  json head = chained();
  head["integrity"]["head"] = std::string(64, '0');
  EXPECT_EQ(record_chain_findings(head).at(0),
            "record chain: the stored head does not match the links");
  json none = two_items();
  ASSERT_EQ(record_chain_findings(none).size(), 1u);
  EXPECT_EQ(record_chain_findings(none)[0].rfind("no record chain: ", 0), 0u);
}

Report one_record_report() {
  Report r;
  r.tool = {"gpusizer", "0.1.0", "abc"};
  r.started_at = r.finished_at = "2026-11-30T10:00:00Z";
  r.status = ReportStatus::complete;
  r.suite = "quick";
  r.host.hostname = "node-1";
  r.targets.push_back({"cpu", TargetKind::cpu, "EPYC", {}, {}, {}, {}, 1 << 20, json::object()});
  Record rec;
  rec.id = "memory/stream_triad/cpu";
  rec.family = Family::memory;
  rec.operation = "stream_triad";
  rec.targets = {"cpu"};
  rec.status = RecordStatus::ok;
  rec.metrics = {{"bandwidth", 1e10, "B/s", ""}};
  rec.started_at = r.started_at;
  r.records.push_back(rec);
  return r;
}

TEST(RecordChain, EveryWriteChainsAndTheLoaderCarriesABreakForward) {
  const std::string text = to_json(one_record_report()).dump(2);
  const json doc = json::parse(text);
  EXPECT_TRUE(record_chain_findings(doc).empty());
  EXPECT_EQ(doc["integrity"]["links"].size(), 2u);
  EXPECT_TRUE(load_report_text(text, "a.json").integrity_breaks.empty());
  // Read, written again: the same chain (nothing changed).
  EXPECT_EQ(to_json(load_report_text(text, "a.json"))["integrity"], doc["integrity"]);

  json edited = doc;
  edited["records"][0]["metrics"][0]["value"] = 2e10;
  Report loaded = load_report_text(edited.dump(), "a.json");
  ASSERT_EQ(loaded.integrity_breaks.size(), 1u);
  EXPECT_EQ(loaded.integrity_breaks[0],
            "record memory/stream_triad/cpu: changed after it was written (its digest differs)");
  // Written again (a resume): a fresh chain that holds, and the break kept.
  const json rewritten = to_json(loaded);
  EXPECT_TRUE(record_chain_findings(rewritten).empty());
  EXPECT_EQ(record_chain_breaks(rewritten), loaded.integrity_breaks);
  EXPECT_EQ(load_report_text(rewritten.dump(), "b.json").integrity_breaks, loaded.integrity_breaks);

  json old = doc;  // a report from before the chain, with records: nobody vouches for them
  old.erase("integrity");
  EXPECT_EQ(load_report_text(old.dump(), "old.json").integrity_breaks.size(), 1u);
}

}  // namespace
}  // namespace gpusizer
