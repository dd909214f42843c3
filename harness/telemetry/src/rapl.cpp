#include "gpusizer/telemetry/rapl.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>

namespace gpusizer::telemetry {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> read_line(const fs::path& file, std::string* error) {
  std::ifstream in(file);
  if (!in) {
    if (error) *error = file.string() + ": " + std::strerror(errno);
    return std::nullopt;
  }
  std::string line;
  std::getline(in, line);
  if (!in && !in.eof()) {
    if (error) *error = file.string() + ": read failed";
    return std::nullopt;
  }
  return line;
}

std::optional<std::uint64_t> read_u64(const fs::path& file, std::string* error) {
  auto line = read_line(file, error);
  if (!line) return std::nullopt;
  try {
    std::size_t used = 0;
    const auto v = std::stoull(*line, &used);
    return v;
  } catch (const std::exception&) {
    if (error) *error = file.string() + ": not a number";
    return std::nullopt;
  }
}

}  // namespace

std::uint64_t rapl_counter_delta(std::uint64_t before, std::uint64_t after,
                                 std::uint64_t max_range) {
  if (after >= before) return after - before;
  if (max_range == 0 || before > max_range) return 0;  // cannot tell: count nothing
  return (max_range - before) + after;
}

std::optional<RaplReader> RaplReader::open(const std::string& root, std::string& why_not) {
  const fs::path base = fs::path(root + "/sys/class/powercap");
  std::error_code ec;
  if (!fs::is_directory(base, ec)) {
    why_not = base.string() + " not found (no RAPL powercap interface)";
    return std::nullopt;
  }
  static const std::regex package_dir(R"(intel-rapl:\d+)");
  std::vector<RaplDomain> domains;
  for (const auto& entry : fs::directory_iterator(base, ec)) {
    const std::string leaf = entry.path().filename().string();
    if (!std::regex_match(leaf, package_dir)) continue;
    auto name = read_line(entry.path() / "name", nullptr);
    if (!name || name->rfind("package", 0) != 0) continue;
    RaplDomain d;
    d.path = entry.path().string();
    d.name = *name;
    d.max_energy_range_uj = read_u64(entry.path() / "max_energy_range_uj", nullptr).value_or(0);
    domains.push_back(std::move(d));
  }
  if (domains.empty()) {
    why_not = "no RAPL package domain under " + base.string();
    return std::nullopt;
  }
  std::sort(domains.begin(), domains.end(),
            [](const RaplDomain& a, const RaplDomain& b) { return a.path < b.path; });
  for (const auto& d : domains) {
    std::string error;
    if (!read_u64(fs::path(d.path) / "energy_uj", &error)) {
      why_not = error;
      return std::nullopt;
    }
  }
  return RaplReader(std::move(domains));
}

std::optional<std::vector<std::uint64_t>> RaplReader::read() const {
  std::vector<std::uint64_t> values;
  for (const auto& d : domains_) {
    auto v = read_u64(fs::path(d.path) / "energy_uj", nullptr);
    if (!v) return std::nullopt;
    values.push_back(*v);
  }
  return values;
}

double RaplReader::delta_joules(const std::vector<std::uint64_t>& before,
                                const std::vector<std::uint64_t>& after) const {
  double joules = 0;
  for (std::size_t i = 0; i < domains_.size() && i < before.size() && i < after.size(); ++i)
    joules += static_cast<double>(
                  rapl_counter_delta(before[i], after[i], domains_[i].max_energy_range_uj)) /
              1e6;
  return joules;
}

}  // namespace gpusizer::telemetry
