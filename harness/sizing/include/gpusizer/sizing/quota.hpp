// EC2 vCPU quotas (Service Quotas, service code "ec2"): per Region and per bucket of instance
// families, in vCPUs of running On-Demand instances or of running + requested Spot instances
// (reference/aws-cli-and-quotas.md 3). A plan says how many vCPUs each option needs of which
// quota (name and code), so the capacity request can include a quota increase; with the
// account's own `aws service-quotas list-service-quotas --service-code ec2` (or
// `get-service-quota`, `get-aws-default-service-quota`) output it also says which options exceed
// the applied value.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "gpusizer/json_input.hpp"
#include "gpusizer/sizing/purchase_option.hpp"

namespace gpusizer::sizing {

struct QuotaBucket {
  std::string bucket;  // "P", "G and VT", "Inf", "Trn", "Standard", ...
  std::string on_demand_name;
  std::string on_demand_code;
  std::string spot_name;  // empty: no Spot bucket (HPC, High Memory)
  std::string spot_code;
};

// The bucket of an instance family by longest prefix ("p5e" -> P, "gr6" -> G and VT, "inf2" ->
// Inf, "trn1" -> Trn, "dl1" -> DL, "hpc7g" -> HPC, "u-6tb1" -> High Memory, "m7i" -> Standard).
const QuotaBucket& quota_bucket(const std::string& family);

// One quota value from the user's account (or AWS's default for it).
struct AccountQuota {
  std::string code;          // "L-417A185B"
  std::string name;          // "Running On-Demand P instances"
  double vcpus = 0;          // Value
  std::string region;        // from the QuotaArn; empty when the ARN has none
  bool aws_default = false;  // from get-aws-default-service-quota (no account in the ARN)
  std::string source;        // "<file> /Quotas/3"
};

struct AccountQuotas {
  std::vector<AccountQuota> quotas;
  std::vector<std::string> warnings;  // partial lists (NextToken), ...
  // The value for a quota, matched by code, else by name (AWS's own code wins over the table).
  const AccountQuota* find(const std::string& code, const std::string& name) const;
};

// Reads `{"Quotas": [...]}` (list-service-quotas, list-aws-default-service-quotas) or
// `{"Quota": {...}}` (get-service-quota, get-aws-default-service-quota). Quotas of other services
// are skipped; a quota of another Region than `region` is an input error.
void read_quotas(const JsonInput& in, const std::string& region, AccountQuotas& into);
void load_quotas(const std::filesystem::path& file, const std::string& region, AccountQuotas& into);

// What an option needs of one quota.
struct QuotaNeed {
  std::string bucket;  // "P", "G and VT", ...
  std::string name;
  std::string code;
  std::string market;                 // "On-Demand" | "Spot"
  int vcpus = 0;                      // instances x vCPUs per instance
  std::optional<double> quota_vcpus;  // the account's value, when given with --quotas
  bool aws_default = false;
  std::string quota_source;
};

// nullopt for purchase options no EC2 vCPU quota is known to govern (capacity blocks: whether
// they count against the On-Demand quota is not confirmed; SageMaker training plans).
std::optional<QuotaNeed> quota_need(const std::string& family, PurchaseOption option, int instances,
                                    int vcpus_per_instance, const AccountQuotas* account);

}  // namespace gpusizer::sizing
