#include "gpusizer/sizing/quota.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "gpusizer/error.hpp"
#include "gpusizer/text.hpp"

namespace gpusizer::sizing {
namespace {

// Names: AWS docs (using-spot-limits, ec2-on-demand-instances); codes: reference/
// aws-cli-and-quotas.md 3 (AWS pins L-1216C47A; the others from published list-service-quotas
// output). Resolved against the account's own list when --quotas is given.
const QuotaBucket kStandard{
    "Standard", "Running On-Demand Standard (A, C, D, H, I, M, R, T, Z) instances", "L-1216C47A",
    "All Standard (A, C, D, H, I, M, R, T, Z) Spot Instance Requests", "L-34B43A08"};
const QuotaBucket kP{"P", "Running On-Demand P instances", "L-417A185B",
                     "All P Spot Instance Requests", "L-7212CCBC"};
const QuotaBucket kG{"G and VT", "Running On-Demand G and VT instances", "L-DB2E81BA",
                     "All G and VT Spot Instance Requests", "L-3819A6DF"};
const QuotaBucket kInf{"Inf", "Running On-Demand Inf instances", "L-1945791B",
                       "All Inf Spot Instance Requests", "L-B5D1601B"};
const QuotaBucket kTrn{"Trn", "Running On-Demand Trn instances", "L-2C3B7624",
                       "All Trn Spot Instance Requests", "L-6B0D517C"};
const QuotaBucket kDl{"DL", "Running On-Demand DL instances", "L-6E869C2A",
                      "All DL Spot Instance Requests", "L-85EED4F7"};
const QuotaBucket kF{"F", "Running On-Demand F instances", "L-74FC7D96",
                     "All F Spot Instance Requests", "L-88CF9481"};
const QuotaBucket kX{"X", "Running On-Demand X instances", "L-7295265B",
                     "All X Spot Instance Requests", "L-E3A00192"};
const QuotaBucket kHpc{"HPC", "Running On-Demand HPC instances", "L-F7808C92", "", ""};
const QuotaBucket kHighMemory{"High Memory", "Running On-Demand High Memory instances",
                              "L-43DA4232", "", ""};

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

std::string region_of_arn(const std::string& arn, bool& has_account) {
  // arn:aws:servicequotas:<region>:<account>:ec2/L-1216C47A
  std::array<std::string, 6> parts;
  std::size_t from = 0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::size_t colon = i + 1 < parts.size() ? arn.find(':', from) : std::string::npos;
    parts[i] = arn.substr(from, colon == std::string::npos ? std::string::npos : colon - from);
    if (colon == std::string::npos) break;
    from = colon + 1;
  }
  has_account = !parts[4].empty();
  return parts[3];
}

void read_one(const JsonInput& q, const std::string& region, AccountQuotas& into) {
  if (q.optional_string("ServiceCode").value_or("") != "ec2") return;
  AccountQuota a;
  a.code = q.at("QuotaCode").non_empty_string();
  a.name = q.optional_string("QuotaName").value_or("");
  a.vcpus = q.at("Value").non_negative();
  bool has_account = true;
  if (auto arn = q.optional_string("QuotaArn")) a.region = region_of_arn(*arn, has_account);
  a.aws_default = !has_account;
  if (!a.region.empty() && a.region != region) {
    q.at("QuotaArn")
        .fail("quota of region \"" + a.region + "\", the plan is for \"" + region +
              "\" (run the command with --region " + region + ")");
  }
  a.source = q.source() + " " + q.pointer();
  into.quotas.push_back(std::move(a));
}

}  // namespace

const QuotaBucket& quota_bucket(const std::string& family) {
  const std::string f = lower(family);
  // Longest prefixes first: dl before d, hpc before h, inf before i, trn before t, vt before v.
  if (starts_with(f, "dl")) return kDl;
  if (starts_with(f, "hpc")) return kHpc;
  if (starts_with(f, "inf")) return kInf;
  if (starts_with(f, "trn")) return kTrn;
  if (starts_with(f, "vt")) return kG;
  if (starts_with(f, "u-")) return kHighMemory;
  if (starts_with(f, "p")) return kP;
  if (starts_with(f, "g")) return kG;
  if (starts_with(f, "f")) return kF;
  if (starts_with(f, "x")) return kX;
  return kStandard;  // a, c, d, h, i, m, r, t, z
}

const AccountQuota* AccountQuotas::find(const std::string& code, const std::string& name) const {
  for (const auto& q : quotas) {
    if (q.code == code) return &q;
  }
  for (const auto& q : quotas) {
    if (!name.empty() && q.name == name) return &q;
  }
  return nullptr;
}

void read_quotas(const JsonInput& in, const std::string& region, AccountQuotas& into) {
  if (!in.is_object()) {
    in.fail("expected `aws service-quotas` output (a JSON object), got " + describe_json(in.raw()));
  }
  if (auto list = in.find("Quotas")) {
    for (const auto& q : list->items()) read_one(q, region, into);
    if (auto token = in.optional_string("NextToken"); token && !token->empty()) {
      into.warnings.push_back(in.source() +
                              ": /NextToken: the quota list is partial (a NextToken is left); "
                              "quotas on later pages are not known");
    }
  } else if (auto one = in.find("Quota")) {
    read_one(*one, region, into);
  } else {
    in.fail(
        "expected \"Quotas\" (aws service-quotas list-service-quotas --service-code ec2) or "
        "\"Quota\" (get-service-quota)");
  }
}

void load_quotas(const std::filesystem::path& file, const std::string& region,
                 AccountQuotas& into) {
  nlohmann::json doc = JsonInput::parse_file(file, input_kinds::aws_cli_output);
  read_quotas(JsonInput(doc, file.string()), region, into);
}

std::optional<QuotaNeed> quota_need(const std::string& family, PurchaseOption option, int instances,
                                    int vcpus_per_instance, const AccountQuotas* account) {
  if (is_window_option(option)) return std::nullopt;
  const QuotaBucket& b = quota_bucket(family);
  QuotaNeed need;
  need.bucket = b.bucket;
  if (option == PurchaseOption::spot) {
    if (b.spot_code.empty()) return std::nullopt;
    need.name = b.spot_name;
    need.code = b.spot_code;
    need.market = "Spot";
  } else {  // on_demand, savings_plan, reserved: running On-Demand instances
    need.name = b.on_demand_name;
    need.code = b.on_demand_code;
    need.market = "On-Demand";
  }
  need.vcpus = instances * vcpus_per_instance;
  if (account != nullptr) {
    if (const AccountQuota* q = account->find(need.code, need.name)) {
      need.code = q->code;
      need.quota_vcpus = q->vcpus;
      need.aws_default = q->aws_default;
      need.quota_source = q->source;
    }
  }
  return need;
}

}  // namespace gpusizer::sizing
