// The record digest chain: a SHA-256 over every target and record as written, each link chained
// with the one before, stored in the report's "integrity" block at every write (to_json), so a
// figure edited afterwards is detected (`gpusizer verify`, docs/report-integrity.md).
//   link[0]   = sha256(kRecordChainSeed + canonical(targets[0]))
//   link[i]   = sha256(link[i-1] + canonical(item i))   items: targets, then records, in order
//   head      = the last link (sha256(kRecordChainSeed) when there are none)
// canonical(x) = nlohmann's compact dump of the JSON value (object keys sorted, numbers in their
// shortest round-trip form), so the chain recomputed from the file's own bytes equals the
// writer's. The chain shows that the content was not changed without recomputing it; it is no
// signature (anyone can recompute it), and says nothing about who measured the figures.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpusizer {

inline constexpr const char* kRecordChainAlgorithm = "sha256-chain-v1";
inline constexpr const char* kRecordChainSeed = "gpusizer.record-chain.v1";

// {"algorithm", "links": [{"item": "target <id>" | "record <id>", "sha256"}], "head"} over the
// "targets" and "records" arrays of `report` (a report document).
nlohmann::json record_chain(const nlohmann::json& report);

// Why the "integrity" block of `report` (a report document as read from a file) does not match
// its targets and records, one line ("record gemm/bf16: changed after it was written"); empty
// when the chain holds. A document without the block gives "no record chain: ...".
std::vector<std::string> record_chain_findings(const nlohmann::json& report);

// The "breaks" the writer carried over (Report::integrity_breaks): why an earlier copy of this
// report did not hold its chain when gpusizer read it (resume, merge).
std::vector<std::string> record_chain_breaks(const nlohmann::json& report);

}  // namespace gpusizer
