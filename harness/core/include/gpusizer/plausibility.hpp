// Records that cannot be right: a headline figure above a physical ceiling the report itself
// knows, by more than kPlausibilityMargin. The ceilings (docs/methodology.md, "Implausible
// records"):
//   - the peak the record states in its `fraction_of_peak` metric (the dtype's datasheet peak
//     for GEMM, the theoretical memory bandwidth, the PCIe link), and that metric itself;
//   - the device facts in the record's target: `theoretical_memory_bytes_per_second` for STREAM
//     kernels (half of it for a D2D copy, which counts N bytes and moves 2N),
//     `pcie_bytes_per_second_per_direction` for host <-> device copies and storage -> device
//     (twice it for bidirectional copies);
//   - the record's own timing: work per op / median time per op is the rate its samples allow.
// load_report flags such records on load (flag "implausible", the reason in
// details["implausible"]); show and compare mark them and recommend leaves them out with a
// warning.
#pragma once

#include <optional>
#include <string>

#include "gpusizer/report.hpp"

namespace gpusizer {

// 10 %: a careful measurement reaches 90-97 % of a peak (STREAM on HBM, cuBLASLt GEMM) and the
// peaks we compare with are rounded to 4 significant digits; boost clocks above the datasheet's
// and timer resolution add a few percent at most. A figure 10 % above a ceiling is an error or
// an edit, not a fast machine.
inline constexpr double kPlausibilityMargin = 0.10;
inline constexpr const char* kImplausibleFlag = "implausible";

// Why `record` exceeds a ceiling (the first one it exceeds), or nullopt when it exceeds none or
// is not an "ok"/"failed" record with a rate headline (B/s or FLOP/s).
std::optional<std::string> implausibility(const Record& record, const Report& report);

// Flags every implausible record of `report` (idempotent: a record is flagged once).
void flag_implausible_records(Report& report);

bool is_implausible(const Record& record);

}  // namespace gpusizer
