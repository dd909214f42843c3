// The one place a benchmark id is built: "<family>/<operation>/<targets>/<part>/<part>...", the
// targets joined by '+', each part "key=value" (or a bare value, e.g. a GEMM shape's name).
// Every family builds its ids here. Reports are resumed by id, so the format never changes by
// accident: tests/golden/case-ids-two-gpu.txt holds the ids of a two-GPU machine.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpusizer::bench {

struct IdPart {
  std::string key;    // empty: the value stands alone
  std::string value;  // numbers: std::to_string (no separators, no exponent)
};

// e.g. make_id("memory", "stream_triad", {"cpu"}, {{"bytes", "268435456"}})
//   == "memory/stream_triad/cpu/bytes=268435456"
std::string make_id(std::string_view family, std::string_view operation,
                    const std::vector<std::string>& targets, const std::vector<IdPart>& parts);

}  // namespace gpusizer::bench
