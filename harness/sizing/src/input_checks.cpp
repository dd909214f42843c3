#include "input_checks.hpp"

#include "gpusizer/sizing/dates.hpp"

namespace gpusizer::sizing::detail {

void check_document_header(const JsonInput& in, const std::string& what, long long version,
                           const std::string& kind) {
  auto schema_version = in.at("schema_version");
  if (!schema_version.raw().is_number_integer() ||
      schema_version.raw().get<long long>() != version) {
    schema_version.fail("unsupported " + what + " schema_version " +
                        describe_json(schema_version.raw()) + " (this gpusizer reads version " +
                        std::to_string(version) + ")");
  }
  auto kind_field = in.at("kind");
  if (kind_field.string() != kind) {
    kind_field.fail("expected \"" + kind + "\", got " + describe_json(kind_field.raw()));
  }
}

std::int64_t timestamp_at(const JsonInput& field, const std::string& forms) {
  const auto at = parse_timestamp(field.string());
  if (!at) {
    field.fail("expected an ISO 8601 timestamp with a zone (" + forms + "), got " +
               describe_json(field.raw()));
  }
  return *at;
}

}  // namespace gpusizer::sizing::detail
