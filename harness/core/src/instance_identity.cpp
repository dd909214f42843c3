#include "gpusizer/instance_identity.hpp"

#include <cstdlib>

#include "gpusizer/error.hpp"
#include "gpusizer/json_input.hpp"

#ifndef GPUSIZER_DEFAULT_DATA_DIR
#define GPUSIZER_DEFAULT_DATA_DIR "data"
#endif

namespace gpusizer {

IdentityFacts identity_facts(const InstanceIdentity& identity, const std::string& source) {
  const std::string where = source + ": instance identity document";
  nlohmann::json doc = JsonInput::parse_text(identity.document, where);
  JsonInput in(doc, where);
  if (!in.is_object()) in.fail("expected a JSON object, got " + describe_json(doc));
  IdentityFacts f;
  f.instance_type = in.at("instanceType").non_empty_string();
  f.region = in.at("region").non_empty_string();
  f.account_id = in.at("accountId").non_empty_string();
  f.instance_id = in.at("instanceId").non_empty_string();
  f.pending_time = in.optional_string("pendingTime").value_or("");
  return f;
}

std::filesystem::path default_identity_certificates_file() {
  const char* dir = std::getenv("GPUSIZER_DATA_DIR");
  const std::filesystem::path base =
      (dir != nullptr && *dir != '\0') ? dir : GPUSIZER_DEFAULT_DATA_DIR;
  return base / "aws-identity-certificates.json";
}

IdentityCertificates load_identity_certificates(const std::filesystem::path& file) {
  nlohmann::json doc = JsonInput::parse_file(file, input_kinds::certificates);
  JsonInput in(doc, file.string());
  if (!in.is_object()) in.fail("expected a JSON object, got " + describe_json(doc));
  in.allow_only({"kind", "description", "source", "retrieved", "certificates"});
  auto kind = in.at("kind");
  if (kind.string() != "gpusizer.identity-certificates")
    kind.fail("expected \"gpusizer.identity-certificates\", got " + describe_json(kind.raw()));
  IdentityCertificates out;
  out.file = file.string();
  for (const auto& c : in.at("certificates").items()) {
    c.allow_only({"regions", "pem", "note"});
    const std::string pem = c.at("pem").non_empty_string();
    if (pem.find("-----BEGIN CERTIFICATE-----") == std::string::npos)
      c.at("pem").fail("expected a PEM certificate (-----BEGIN CERTIFICATE-----)");
    for (const auto& r : c.at("regions").items()) {
      const std::string region = r.non_empty_string();
      if (!out.pem_by_region.emplace(region, pem).second)
        r.fail("region \"" + region + "\" has a certificate already");
    }
  }
  return out;
}

}  // namespace gpusizer
