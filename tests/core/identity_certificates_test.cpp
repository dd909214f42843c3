// The shipped AWS identity certificates (data/aws-identity-certificates.json), the identity
// document's facts, and the input errors of both. The signature itself is checked end to end by
// tests/cli/verify.sh with a test CA made by the openssl CLI.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "gpusizer/error.hpp"
#include "gpusizer/instance_identity.hpp"

namespace gpusizer {
namespace {

const std::filesystem::path kShipped =
    std::filesystem::path(GPUSIZER_SOURCE_DIR) / "data" / "aws-identity-certificates.json";

TEST(IdentityCertificates, ShippedFileListsTheDocumentedRegions) {
  const IdentityCertificates certs = load_identity_certificates(kShipped);
  for (const char* region : {"us-east-1", "us-west-2", "eu-west-1", "ap-northeast-1",
                             "us-gov-west-1", "ap-east-1", "me-south-1", "cn-north-1"}) {
    EXPECT_TRUE(certs.pem_by_region.count(region)) << region;
  }
  // Regions opened after the source text have their own certificates; none is invented.
  EXPECT_FALSE(certs.pem_by_region.count("ap-south-2"));
  EXPECT_FALSE(certs.pem_by_region.count("il-central-1"));
  // Hong Kong and Bahrain have their own; the other commercial Regions share one.
  EXPECT_EQ(certs.pem_by_region.at("us-east-1"), certs.pem_by_region.at("eu-west-1"));
  EXPECT_NE(certs.pem_by_region.at("us-east-1"), certs.pem_by_region.at("ap-east-1"));
  EXPECT_NE(certs.pem_by_region.at("ap-east-1"), certs.pem_by_region.at("me-south-1"));
}

TEST(IdentityCertificates, EveryShippedCertificateParses) {
  const IdentityCertificates certs = load_identity_certificates(kShipped);
  const InstanceIdentity garbage{"{}", "bm90IFBLQ1M3", "2026-01-01T00:00:00Z"};
  for (const auto& [region, pem] : certs.pem_by_region) {
    const SignatureCheck check = check_identity_signature(garbage, pem);
    if (check.outcome == SignatureOutcome::not_built) GTEST_SKIP() << check.detail;
    // The certificate is read first: a bad one would be bad_certificate.
    EXPECT_EQ(check.outcome, SignatureOutcome::unreadable) << region << ": " << check.detail;
  }
}

TEST(IdentityCertificates, InputErrorsNameTheFileAndPath) {
  const auto dir = std::filesystem::temp_directory_path() / "gpusizer_identity_certs_test";
  std::filesystem::create_directories(dir);
  const auto write = [&](const std::string& text) {
    std::ofstream(dir / "c.json") << text;
    return dir / "c.json";
  };
  const auto error_of = [&](const std::string& text) {
    try {
      load_identity_certificates(write(text));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string file = (dir / "c.json").string();
  EXPECT_EQ(error_of(R"({"kind": "x", "certificates": []})"),
            file + ": /kind: expected \"gpusizer.identity-certificates\", got the string \"x\"");
  EXPECT_EQ(
      error_of(R"({"kind": "gpusizer.identity-certificates", "certificates": [{"regions": ["a"],
              "pem": "not a pem"}]})"),
      file + ": /certificates/0/pem: expected a PEM certificate (-----BEGIN CERTIFICATE-----)");
  EXPECT_EQ(error_of(R"({"kind": "gpusizer.identity-certificates", "certificates": [
              {"regions": ["a"], "pem": "-----BEGIN CERTIFICATE-----"},
              {"regions": ["a"], "pem": "-----BEGIN CERTIFICATE-----"}]})"),
            file + ": /certificates/1/regions/0: region \"a\" has a certificate already");
  std::filesystem::remove_all(dir);
}

TEST(IdentityFacts, ReadsTheSignedFieldsAndRejectsOthers) {
  InstanceIdentity id{
      R"({"instanceType" : "p5.48xlarge", "region" : "us-east-1", "accountId" : "1",
          "instanceId" : "i-1", "pendingTime" : "2026-01-01T00:00:00Z"})",
      "", ""};
  const IdentityFacts f = identity_facts(id, "r.json");
  EXPECT_EQ(f.instance_type, "p5.48xlarge");
  EXPECT_EQ(f.region, "us-east-1");
  EXPECT_EQ(f.account_id, "1");
  EXPECT_EQ(f.instance_id, "i-1");
  EXPECT_EQ(f.pending_time, "2026-01-01T00:00:00Z");
  id.document = R"({"instanceType": "p5.48xlarge", "accountId": "1", "instanceId": "i-1"})";
  try {
    identity_facts(id, "r.json");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "r.json: instance identity document: /region: missing required field");
  }
}

}  // namespace
}  // namespace gpusizer
