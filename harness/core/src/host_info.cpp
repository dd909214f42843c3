#include "gpusizer/host_info.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

namespace gpusizer {
namespace detail {
// The git revision this binary was built from (generated at build time: cmake/GitRevision.cmake).
const char* build_git_revision();
}  // namespace detail

namespace {

std::string read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::string trim(std::string s) {
  auto b = s.find_first_not_of(" \t\"");
  auto e = s.find_last_not_of(" \t\"\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

struct CpuInfo {
  std::string model;
  int logical = 0;
  int physical_cores = 0;
  int sockets = 0;
  std::set<std::string> flags;
};

CpuInfo read_cpuinfo(const std::string& root) {
  CpuInfo info;
  std::ifstream in(root + "/proc/cpuinfo");
  std::string line;
  std::set<std::pair<std::string, std::string>> cores;
  std::set<std::string> sockets;
  std::string physical_id;
  while (std::getline(in, line)) {
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = trim(line.substr(0, colon));
    std::string value = trim(line.substr(colon + 1));
    if (key == "processor") {
      ++info.logical;
    } else if (key == "model name" && info.model.empty()) {
      info.model = value;
    } else if (key == "physical id") {
      physical_id = value;
      sockets.insert(value);
    } else if (key == "core id") {
      cores.emplace(physical_id, value);
    } else if (key == "flags" && info.flags.empty()) {
      std::istringstream ss(value);
      std::string f;
      while (ss >> f) info.flags.insert(f);
    }
  }
  info.physical_cores = static_cast<int>(cores.size());
  info.sockets = static_cast<int>(sockets.size());
  if (info.logical == 0) info.logical = static_cast<int>(std::thread::hardware_concurrency());
  return info;
}

std::uint64_t read_mem_total(const std::string& root) {
  std::ifstream in(root + "/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit) {
    if (key == "MemTotal:") return kib * 1024;
  }
  return 0;
}

int count_numa_nodes(const std::string& root) {
  int n = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(root + "/sys/devices/system/node", ec)) {
    std::string name = e.path().filename().string();
    if (name.rfind("node", 0) == 0 && name.size() > 4 &&
        name.find_first_not_of("0123456789", 4) == std::string::npos) {
      ++n;
    }
  }
  return n == 0 ? 1 : n;
}

std::string os_pretty_name(const std::string& root) {
  std::ifstream in(root + "/etc/os-release");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("PRETTY_NAME=", 0) == 0) return trim(line.substr(12));
  }
  return "";
}

}  // namespace

std::string sysfs_root() {
  const char* root = std::getenv("GPUSIZER_SYSFS_ROOT");
  return root ? root : "";
}

std::optional<double> parse_load_average(const std::string& loadavg_text) {
  std::istringstream in(loadavg_text);
  std::string first;
  if (!(in >> first)) return std::nullopt;
  if (first.find_first_not_of("0123456789.") != std::string::npos) return std::nullopt;
  std::istringstream number(first);
  double value = 0;
  if (!(number >> value) || !number.eof() || !(value >= 0)) return std::nullopt;
  return value;
}

std::optional<double> load_average_1min() {
  return parse_load_average(read_first_line(sysfs_root() + "/proc/loadavg"));
}

ToolInfo current_tool() {
  return ToolInfo{"gpusizer", GPUSIZER_VERSION, detail::build_git_revision()};
}

Host collect_host() {
  const std::string root = sysfs_root();
  Host host;
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) == 0) host.hostname = name;
  host.os = os_pretty_name(root);
  struct utsname uts {};
  if (::uname(&uts) == 0) host.kernel = std::string(uts.release) + " " + uts.machine;
  CpuInfo cpu = read_cpuinfo(root);
  host.cpu_model = cpu.model;
  host.logical_cpus = cpu.logical;
  host.numa_nodes = count_numa_nodes(root);
  host.memory_bytes = read_mem_total(root);
  return host;
}

std::optional<InstanceType> detect_instance_type_dmi() {
  const std::string dir = sysfs_root() + "/sys/devices/virtual/dmi/id/";
  std::string vendor = trim(read_first_line(dir + "sys_vendor"));
  std::string product = trim(read_first_line(dir + "product_name"));
  // Nitro instances report the instance type as the DMI product name (e.g. "p5.48xlarge").
  if (vendor == "Amazon EC2" && product.find('.') != std::string::npos) {
    return InstanceType{product, "DMI product_name (/sys/devices/virtual/dmi/id)"};
  }
  return std::nullopt;
}

Target cpu_target() {
  const std::string root = sysfs_root();
  CpuInfo cpu = read_cpuinfo(root);
  Target t;
  t.id = "cpu";
  t.kind = TargetKind::cpu;
  t.name = cpu.model.empty() ? "unknown CPU" : cpu.model;
  t.memory_bytes = read_mem_total(root);
  nlohmann::json features = nlohmann::json::array();
  for (const char* f :
       {"avx2", "fma", "avx512f", "avx512_bf16", "amx_bf16", "amx_int8", "asimd", "sve"}) {
    if (cpu.flags.count(f)) features.push_back(f);
  }
  t.attributes = {{"logical_cpus", cpu.logical}, {"physical_cores", cpu.physical_cores},
                  {"sockets", cpu.sockets},      {"numa_nodes", count_numa_nodes(root)},
                  {"isa_features", features},    {"l3_cache_bytes", 0}};
  // Largest cache level the kernel lists for cpu0 (bytes), to size arrays far beyond it.
  std::uint64_t largest = 0;
  std::error_code ec;
  for (const auto& e :
       std::filesystem::directory_iterator(root + "/sys/devices/system/cpu/cpu0/cache", ec)) {
    std::string size = read_first_line(e.path().string() + "/size");
    if (size.empty()) continue;
    std::uint64_t v = std::strtoull(size.c_str(), nullptr, 10);
    if (size.back() == 'K') v *= 1024;
    if (size.back() == 'M') v *= 1024 * 1024;
    largest = std::max(largest, v);
  }
  t.attributes["l3_cache_bytes"] = largest;
  return t;
}

}  // namespace gpusizer
