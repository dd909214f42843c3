// Facts about the machine a run happens on, read from /proc, /sys and uname. Never throws for a
// missing file: what cannot be read is left empty.
#pragma once

#include <optional>
#include <string>

#include "gpusizer/report.hpp"

namespace gpusizer {

ToolInfo current_tool();
Host collect_host();
// The CPU as a benchmark target: model, logical CPUs, physical cores, sockets, NUMA nodes, RAM,
// caches and ISA features worth knowing (avx512, amx).
Target cpu_target();

// The EC2 instance type from the local DMI table (/sys/devices/virtual/dmi/id), when the vendor
// is Amazon EC2. Reads local files only; no network.
std::optional<InstanceType> detect_instance_type_dmi();

// The 1-minute load average from /proc/loadavg; nullopt when it cannot be read.
std::optional<double> load_average_1min();
// The first field of /proc/loadavg's text ("0.52 0.58 0.59 2/1109 12345"): nullopt when it is
// not a non-negative number.
std::optional<double> parse_load_average(const std::string& loadavg_text);

// Root of /proc and /sys, overridable for tests (GPUSIZER_SYSFS_ROOT).
std::string sysfs_root();

}  // namespace gpusizer
