// Internal: checks the sizing inputs share (catalog, catalog overlay, workload, AWS CLI output),
// each failing with an InputError that names the file and the JSON pointer (json_input.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "gpusizer/json_input.hpp"

namespace gpusizer::sizing::detail {

// The header of a gpusizer input document: `schema_version` is the integer `version` ("unsupported
// <what> schema_version 2 (this gpusizer reads version 1)" otherwise) and `kind` is `kind`
// ("expected \"gpusizer.catalog\", got ...").
void check_document_header(const JsonInput& in, const std::string& what, long long version,
                           const std::string& kind);

// An AWS CLI timestamp (dates.hpp parse_timestamp) in seconds since the epoch; otherwise "expected
// an ISO 8601 timestamp with a zone (<forms>), got ...", `forms` showing how that output writes it.
std::int64_t timestamp_at(const JsonInput& field, const std::string& forms);

}  // namespace gpusizer::sizing::detail
