#include "gpusizer/report_verify.hpp"

#include <algorithm>

#include "gpusizer/error.hpp"
#include "gpusizer/json_input.hpp"
#include "gpusizer/plausibility.hpp"
#include "gpusizer/record_chain.hpp"
#include "gpusizer/report_io.hpp"

namespace gpusizer {
namespace {

using Findings = std::vector<VerifyFinding>;

void chain_findings(const nlohmann::json& doc, Findings& out) {
  const auto problems = record_chain_findings(doc);
  for (const auto& p : problems) out.push_back({false, "record chain: " + p});
  if (problems.empty()) {
    const auto count = [&](const char* key) {
      return doc.contains(key) && doc[key].is_array() ? doc[key].size() : std::size_t{0};
    };
    out.push_back({true, "record chain: " + std::to_string(count("targets")) + " targets and " +
                             std::to_string(count("records")) + " records as gpusizer wrote them"});
  }
  for (const auto& b : record_chain_breaks(doc))
    out.push_back({false, "record chain: an earlier copy did not hold it: " + b});
}

std::string signature_failure(const SignatureCheck& check, const std::string& region,
                              const std::string& certificates_file) {
  switch (check.outcome) {
    case SignatureOutcome::mismatch:
      return "signature does not verify with the certificate for region " + region + " (" +
             certificates_file + "): signed by another key, or the document was changed (" +
             check.detail + ")";
    case SignatureOutcome::unreadable:
      return "signature unreadable: truncated or not PKCS7 (" + check.detail + ")";
    case SignatureOutcome::bad_certificate:
      return "the certificate for region " + region + " in " + certificates_file +
             " is not a PEM X.509 certificate (" + check.detail + ")";
    case SignatureOutcome::not_built:
    case SignatureOutcome::verified:
      break;
  }
  return check.detail;
}

void identity_findings(const Host& host, const std::string& label, const Report& report,
                       const std::string& file, const CertificateSource& certs, Findings& out) {
  if (!host.instance_type || !host.instance_type->identity) {
    out.push_back({false, label + "no signed instance identity (run on EC2 with `gpusizer run "
                                  "--imds` to embed one)"});
    return;
  }
  const InstanceIdentity& identity = *host.instance_type->identity;
  IdentityFacts facts;
  try {
    facts = identity_facts(identity, file);
  } catch (const InputError& e) {
    out.push_back({false, label + e.what()});
    return;
  }
  const std::string& claimed = host.instance_type->value;
  if (claimed == facts.instance_type) {
    out.push_back({true, label + "instance type " + claimed + " is the signed one"});
  } else {
    out.push_back({false, label + "instance type " + claimed + " in the report, " +
                              facts.instance_type + " in the signed identity document"});
  }
  if (!facts.pending_time.empty() && !report.started_at.empty() &&
      facts.pending_time > report.started_at) {
    out.push_back({false, label + "the signed instance was launched at " + facts.pending_time +
                              ", after the run started (" + report.started_at + ")"});
  }
  const std::string who = facts.instance_type + " " + facts.instance_id + " in " + facts.region +
                          ", account " + facts.account_id + ", identity read " +
                          identity.retrieved_at;
  if (!certs.certificates) {
    out.push_back({false, label + "signature not checked: " + certs.error});
    return;
  }
  const auto& by_region = certs.certificates->pem_by_region;
  const auto pem = by_region.find(facts.region);
  if (pem == by_region.end()) {
    out.push_back({false, label + "no certificate for region " + facts.region + " in " +
                              certs.certificates->file + " (give one with --certificates)"});
    return;
  }
  const SignatureCheck check = check_identity_signature(identity, pem->second);
  if (check.outcome == SignatureOutcome::verified) {
    out.push_back({true, label + "signed by the AWS certificate for " + facts.region + ": " + who});
  } else {
    out.push_back(
        {false, label + signature_failure(check, facts.region, certs.certificates->file)});
  }
}

void plausibility_findings(const Report& report, Findings& out) {
  std::size_t rated = 0;
  const std::size_t before = out.size();
  for (const auto& r : report.records) {
    if (const auto why = implausibility(r, report)) {
      out.push_back({false, "record " + r.id + ": implausible: " + *why});
    } else if (!r.metrics.empty()) {
      ++rated;
    }
  }
  if (out.size() == before) {
    out.push_back({true, "plausibility: " + std::to_string(rated) +
                             " records within the ceilings the report records"});
  }
}

}  // namespace

bool ReportVerification::verified() const {
  return !findings.empty() &&
         std::all_of(findings.begin(), findings.end(), [](const auto& f) { return f.holds; });
}

std::string ReportVerification::first_failure() const {
  for (const auto& f : findings) {
    if (!f.holds) return f.text;
  }
  return "";
}

CertificateSource certificate_source(const std::filesystem::path& file) {
  CertificateSource out;
  try {
    out.certificates = load_identity_certificates(file);
  } catch (const InputError& e) {
    out.error = e.what();
  }
  return out;
}

ReportVerification verify_report_text(std::string_view text, const std::string& file,
                                      const CertificateSource& certificates) {
  ReportVerification v;
  v.file = file;
  nlohmann::json doc;
  Report report;
  try {
    doc = JsonInput::parse_text(text, file);
    report = load_report_text(text, file);
  } catch (const InputError& e) {
    v.findings.push_back({false, std::string("not a readable report: ") + e.what()});
    return v;
  }
  chain_findings(doc, v.findings);
  if (report.hosts.empty()) {
    identity_findings(report.host, "identity: ", report, file, certificates, v.findings);
  } else {
    for (const auto& h : report.hosts)
      identity_findings(h, "host " + h.id + ": ", report, file, certificates, v.findings);
  }
  plausibility_findings(report, v.findings);
  return v;
}

}  // namespace gpusizer
