// CPU package energy from Linux RAPL (powercap): <root>/sys/class/powercap/intel-rapl:N/energy_uj
// for each package domain (AMD Zen exposes the same interface). Counters wrap at
// max_energy_range_uj; deltas account for one wrap per reading interval.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpusizer::telemetry {

struct RaplDomain {
  std::string path;  // folder of the domain
  std::string name;  // "package-0"
  std::uint64_t max_energy_range_uj = 0;
};

class RaplReader {
 public:
  // The package domains under `root` (sysfs_root() in production). nullopt with `why_not` when
  // there are none or they cannot be read (permission denied is common: since 2020 many kernels
  // make energy_uj readable by root only).
  static std::optional<RaplReader> open(const std::string& root, std::string& why_not);

  const std::vector<RaplDomain>& domains() const { return domains_; }
  // Current counter of each domain (µJ); nullopt if any read fails.
  std::optional<std::vector<std::uint64_t>> read() const;
  // Energy (J) between two readings of all domains, allowing one wrap per domain.
  double delta_joules(const std::vector<std::uint64_t>& before,
                      const std::vector<std::uint64_t>& after) const;

 private:
  explicit RaplReader(std::vector<RaplDomain> domains) : domains_(std::move(domains)) {}
  std::vector<RaplDomain> domains_;
};

// Counter difference with wraparound at `max_range` (µJ).
std::uint64_t rapl_counter_delta(std::uint64_t before, std::uint64_t after,
                                 std::uint64_t max_range);

}  // namespace gpusizer::telemetry
