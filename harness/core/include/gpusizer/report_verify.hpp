// `gpusizer verify`: can an approver trust this report? Checks, one finding each:
//   - the record chain (record_chain.hpp): no target or record changed, added, removed or
//     reordered since gpusizer wrote it, and no earlier copy was edited (integrity.breaks);
//   - per host, the signed EC2 instance identity (`run --imds`): its PKCS7 signature verifies
//     with AWS's certificate for the document's region, the report's instance type is the signed
//     one, and the instance was launched before the run started;
//   - plausibility: no figure above a ceiling the report records (plausibility.hpp).
// The report is verified only when every finding holds. What this does not prove:
// docs/report-integrity.md.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusizer/instance_identity.hpp"

namespace gpusizer {

struct VerifyFinding {
  bool holds = false;
  std::string text;  // one line: "record chain: 3 targets and 12 records as written"
};

struct ReportVerification {
  std::string file;
  std::vector<VerifyFinding> findings;
  bool verified() const;              // at least one finding, and all hold
  std::string first_failure() const;  // "" when verified
};

// The certificates to check signatures with, or why there are none (a file that cannot be read
// makes every signature finding fail with that reason, never the whole command).
struct CertificateSource {
  std::optional<IdentityCertificates> certificates;
  std::string error;
};
CertificateSource certificate_source(const std::filesystem::path& file);

// Verifies a report from its file's bytes (`file` names it). Never throws for the report's
// content: a file that is not a report is one failed finding.
ReportVerification verify_report_text(std::string_view text, const std::string& file,
                                      const CertificateSource& certificates);

}  // namespace gpusizer
