// EC2 instance metadata (IMDSv2), opt-in only (`gpusizer run --imds`): the one network request
// gpusizer can make, to the link-local metadata service, never anywhere else. The endpoint is
// 169.254.169.254:80 unless GPUSIZER_IMDS_ENDPOINT=host:port says otherwise (tests use loopback).
#pragma once

#include <optional>
#include <string>

#include "gpusizer/report.hpp"

namespace gpusizer {

struct ImdsResult {
  // With its identity (the instance identity document and its PKCS7 signature) when IMDS gave
  // them: `gpusizer verify` checks them (docs/report-integrity.md).
  std::optional<InstanceType> instance_type;
  std::string error;           // why the instance type could not be read ("" on success)
  std::string identity_error;  // why the signed identity could not be read ("" on success)
};

// Never throws. `timeout_seconds` bounds the whole query (token, instance type and identity:
// connecting, sending and every read together), so a server that trickles bytes cannot hang the
// run.
ImdsResult query_imds_instance_type(double timeout_seconds = 2.0);

}  // namespace gpusizer
