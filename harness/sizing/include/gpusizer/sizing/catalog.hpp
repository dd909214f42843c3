// The instance catalog: AWS instance types with their accelerators and prices per purchase
// option. Every price carries its source and as-of date; a price that is not known is absent
// (std::nullopt), never zero. Loaded through the shared JsonInput path
// (reports/schema/catalog.schema.json); overlays replace single prices.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusizer/json_input.hpp"
#include "gpusizer/sizing/hardware_kind.hpp"
#include "gpusizer/sizing/purchase_option.hpp"

namespace gpusizer::sizing {

inline constexpr int kCatalogSchemaVersion = 1;

// The Capacity Block offering a price was read from (`aws ec2 describe-capacity-block-offerings`):
// what the user can actually buy, so the plan can say when it needs more instances or another
// duration than the offer holds.
struct CapacityOffer {
  std::string id;  // CapacityBlockOfferingId
  std::string availability_zone;
  std::string start_date;  // ISO 8601 timestamp, as AWS printed it
  std::string end_date;
  int instance_count = 0;
  double duration_hours = 0;  // CapacityBlockDurationHours + CapacityBlockDurationMinutes / 60
  double upfront_fee_usd = 0;
};

struct Price {
  double usd_per_hour = 0;  // per instance
  std::string source;
  std::string as_of;  // ISO 8601 date or timestamp
  std::string note;   // caveat: "illustrative snapshot", "region us-east-2", ...
  bool illustrative = false;
  std::optional<CapacityOffer> offering;  // capacity_block prices read from an offering
};

// Datasheet figures for one accelerator model (dense, no sparsity), used only to estimate
// instance types that no report measured.
struct DatasheetPeaks {
  std::map<std::string, double> flops_per_second;  // by dtype: "bf16", "fp16", "fp32", ...
  std::optional<double> memory_bandwidth_bytes_per_second;
  std::optional<double> host_link_bytes_per_second;     // per direction
  std::optional<double> interconnect_bytes_per_second;  // per direction (NVLink)
  std::optional<double> power_limit_watts;
  std::string source;
  std::string
      caveat;  // why these figures are weaker than a datasheet ("A10G: third-party figures")
};

struct MigProfile {
  std::string name;  // "1g.18gb"
  int compute_slices = 0;
  int memory_slices = 0;
  std::uint64_t memory_mib = 0;
};

struct Accelerator {
  std::string id;                         // "H200"
  HardwareKind kind = HardwareKind::gpu;  // gpu | inferentia | trainium
  std::vector<std::string> report_names;  // Target.name values that mean this model
  std::vector<std::string> aliases;       // other names users type: "inf2", "Inferentia 2"
  DatasheetPeaks peaks;
  std::vector<MigProfile> mig_profiles;  // empty: no MIG
};

struct InstanceTypeInfo {
  std::string type;                        // "p5.48xlarge"
  std::string family;                      // "p5"
  std::optional<std::string> accelerator;  // Accelerator::id; absent for CPU-only types
  int accelerator_count = 0;
  std::uint64_t accelerator_memory_mib = 0;  // usable, per accelerator
  int vcpu = 0;
  double memory_gib = 0;
  double network_mbps = 0;  // baseline
  double local_nvme_gb = 0;
  std::string cpu_model;                // for CPU types
  std::map<std::string, Price> prices;  // by purchase option
  std::string spec_source;
};

struct Catalog {
  std::string region;
  std::string currency = "USD";
  std::string description;
  std::vector<Accelerator> accelerators;
  std::vector<InstanceTypeInfo> instances;

  const Accelerator* find_accelerator(const std::string& id) const;
  // The accelerator whose report_names contain `target_name` (case-insensitive), if any.
  const Accelerator* accelerator_for_report_name(const std::string& target_name) const;
  // Accelerators a user's name means, case-insensitively: the id, an alias or a report name
  // ("h100", "inf2", "NVIDIA A10G"), else every id of that family ("A100" -> A100-40GB and
  // A100-80GB: the id starts with the name followed by '-' or a digit-free suffix).
  std::vector<const Accelerator*> match_accelerators(const std::string& name) const;
  // "T4, A10G, ..., Inferentia2 (inf2), ..." for "no match" messages.
  std::string known_accelerator_names() const;
  InstanceTypeInfo* find_instance(const std::string& type);
  const InstanceTypeInfo* find_instance(const std::string& type) const;
};

struct PriceOverride {
  std::string instance_type;
  std::string option;
  Price price;
};

struct CatalogOverlay {
  std::string region;
  std::string generated_from;  // the AWS CLI command or file an imported overlay came from
  std::vector<PriceOverride> prices;
};

Catalog catalog_from_json(const JsonInput& in);
Catalog load_catalog(const std::filesystem::path& file);
CatalogOverlay overlay_from_json(const JsonInput& in);
CatalogOverlay load_overlay(const std::filesystem::path& file);
nlohmann::json to_json(const CatalogOverlay& overlay);
nlohmann::json to_json(const Price& price);
nlohmann::json to_json(const CapacityOffer& offer);

// Replaces (or adds) single prices. Throws InputError naming `overlay_source` when the overlay
// names an instance type the catalog lacks or a different region.
void apply_overlay(Catalog& catalog, const CatalogOverlay& overlay,
                   const std::string& overlay_source);

// Default shipped catalog: $GPUSIZER_DATA_DIR/catalog/aws-us-east-1.json, else the compile-time
// data folder.
std::filesystem::path default_catalog_path();
// The shipped catalog of another Region, `<data>/catalog/aws-<region>.json` (may not exist).
std::filesystem::path regional_catalog_path(const std::string& region);

}  // namespace gpusizer::sizing
