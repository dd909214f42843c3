// The EC2 instance identity a report carries (`run --imds`): the facts of its signed document and
// the check of its PKCS7 signature against AWS's public certificate for the document's region
// (data/aws-identity-certificates.json, or a file given with `verify --certificates`).
#pragma once

#include <filesystem>
#include <map>
#include <string>

#include "gpusizer/report.hpp"

namespace gpusizer {

// The fields of an identity document a capacity decision rests on.
struct IdentityFacts {
  std::string instance_type;
  std::string region;
  std::string account_id;
  std::string instance_id;
  std::string pending_time;  // when the instance was launched (the document's pendingTime)
};

// Throws InputError ("<source>: instance identity document: expected ..., got ...") when the
// document is not a JSON object with string instanceType, region, accountId and instanceId.
IdentityFacts identity_facts(const InstanceIdentity& identity, const std::string& source);

// Region -> PEM certificate. A certificates file is
//   {"kind": "gpusizer.identity-certificates", "source": {...}, "retrieved": "YYYY-MM-DD",
//    "certificates": [{"regions": ["us-east-1", ...], "pem": "-----BEGIN CERTIFICATE-----..."}]}
struct IdentityCertificates {
  std::string file;
  std::map<std::string, std::string> pem_by_region;
};
IdentityCertificates load_identity_certificates(const std::filesystem::path& file);
// $GPUSIZER_DATA_DIR/aws-identity-certificates.json, else the source tree's data/ folder.
std::filesystem::path default_identity_certificates_file();

enum class SignatureOutcome {
  verified,         // the signature over the document verifies with the certificate
  mismatch,         // it does not (another key signed it, or the document was changed)
  unreadable,       // the signature is not PKCS7 (truncated, not base64, not DER)
  bad_certificate,  // the certificate is not a PEM X.509 certificate
  not_built,        // gpusizer was built without OpenSSL
};
struct SignatureCheck {
  SignatureOutcome outcome = SignatureOutcome::not_built;
  std::string detail;  // OpenSSL's reason, or why the check could not run
};

// Checks `identity.pkcs7` over `identity.document` with the signer taken ONLY from
// `certificate_pem` (certificates inside the signature are ignored; the certificate itself is
// not chain-checked: it is AWS's self-signed one, pinned by region). Never throws.
SignatureCheck check_identity_signature(const InstanceIdentity& identity,
                                        const std::string& certificate_pem);

}  // namespace gpusizer
