#include "monitor_format.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "gpusizer/text.hpp"

namespace gpusizer::telemetry {
namespace {

using nlohmann::json;

std::string join_reasons(const GpuSample& s) {
  std::string out;
  for (const auto& r : clock_event_reason_names(s.clock_event_reasons.value_or(0)))
    out += (out.empty() ? "" : ",") + r;
  return out;
}

std::optional<double> throttled_value(const GpuSample& s) {
  if (!s.clock_event_reasons) return std::nullopt;
  return is_throttle_reason(*s.clock_event_reasons) ? 1.0 : 0.0;
}

std::optional<double> power_capped_value(const GpuSample& s) {
  if (!s.clock_event_reasons) return std::nullopt;
  return is_power_cap_reason(*s.clock_event_reasons) ? 1.0 : 0.0;
}

template <typename T>
std::optional<double> as_double(const std::optional<T>& v) {
  if (!v) return std::nullopt;
  return static_cast<double>(*v);
}

// Prometheus escapes \\, \" and \n in a label value; other control characters and invalid UTF-8
// are made visible first (escape_control), so the text is safe on a terminal too.
std::string escape_label(const std::string& v) {
  std::string out;
  for (std::size_t start = 0;;) {
    const std::size_t newline = v.find('\n', start);
    for (char c : escape_control(std::string_view(v).substr(start, newline - start))) {
      if (c == '\\')
        out += "\\\\";
      else if (c == '"')
        out += "\\\"";
      else
        out += c;
    }
    if (newline == std::string::npos) return out;
    out += "\\n";
    start = newline + 1;
  }
}

std::string number_text(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

namespace {

struct EmfEntry {
  const char* name;
  const char* unit;  // null: no Unit (the CloudWatch agent sets none)
  std::optional<double> value;
};

std::optional<double> mib(const std::optional<std::uint64_t>& bytes) {
  if (!bytes) return std::nullopt;
  return static_cast<double>(*bytes) / 1048576.0;
}

std::optional<double> free_mib(const GpuSample& g) {
  if (!g.memory_total_bytes || !g.memory_used_bytes) return std::nullopt;
  return static_cast<double>(*g.memory_total_bytes -
                             std::min(*g.memory_total_bytes, *g.memory_used_bytes)) /
         1048576.0;
}

std::vector<EmfEntry> gpusizer_entries(const MonitorSample& s) {
  const GpuSample& g = s.sample;
  return {
      {"utilization_gpu", "Percent", g.gpu_utilization_percent},
      {"utilization_memory", "Percent", g.memory_utilization_percent},
      {"power_watts", "None", g.power_watts},
      {"energy_joules", "None", s.interval_energy_joules},
      {"sm_clock_mhz", "None", g.sm_clock_mhz},
      {"memory_clock_mhz", "None", g.memory_clock_mhz},
      {"temperature_celsius", "None", g.temperature_celsius},
      {"throttled", "Count", throttled_value(g)},
      {"power_capped", "Count", power_capped_value(g)},
      {"ecc_corrected_volatile", "Count", as_double(g.ecc_corrected_volatile)},
      {"ecc_uncorrected_volatile", "Count", as_double(g.ecc_uncorrected_volatile)},
      {"memory_used_bytes", "Bytes", as_double(g.memory_used_bytes)},
      {"memory_total_bytes", "Bytes", as_double(g.memory_total_bytes)},
  };
}

// The CloudWatch agent's nvidia_gpu plugin: nvidia_smi_<measurement>, in nvidia-smi's units
// (%, W, degrees C, MiB, MHz), no Unit (docs/telemetry.md, "monitor: metric names").
std::vector<EmfEntry> cloudwatch_entries(const MonitorSample& s) {
  const GpuSample& g = s.sample;
  return {
      {"nvidia_smi_utilization_gpu", nullptr, g.gpu_utilization_percent},
      {"nvidia_smi_utilization_memory", nullptr, g.memory_utilization_percent},
      {"nvidia_smi_power_draw", nullptr, g.power_watts},
      {"nvidia_smi_temperature_gpu", nullptr, g.temperature_celsius},
      {"nvidia_smi_memory_total", nullptr, mib(g.memory_total_bytes)},
      {"nvidia_smi_memory_used", nullptr, mib(g.memory_used_bytes)},
      {"nvidia_smi_memory_free", nullptr, free_mib(g)},
      {"nvidia_smi_clocks_current_sm", nullptr, g.sm_clock_mhz},
      {"nvidia_smi_clocks_current_memory", nullptr, g.memory_clock_mhz},
  };
}

}  // namespace

std::string emf_line(const MonitorSample& s, const MonitorHost& host, std::int64_t timestamp_ms,
                     const MonitorOptions& options) {
  const bool cloudwatch = options.names == MetricNames::cloudwatch;
  // The CloudWatch agent's dimension set is {index, name, host} (host left out like the agent's
  // omit_hostname): an alarm matches a metric by its exact dimension set, so only these (and
  // the user's own) are declared. A MIG slice adds dcgm-exporter's GPU_I_PROFILE and GPU_I_ID.
  json dims = cloudwatch ? json::array({"index", "name"}) : json::array({"GpuIndex", "GpuUuid"});
  if (!options.omit_hostname) dims.push_back(cloudwatch ? "host" : "Host");
  if (s.mig) {
    dims.push_back("GPU_I_PROFILE");
    dims.push_back("GPU_I_ID");
  }
  for (const auto& [k, v] : options.dimensions) dims.push_back(k);
  json metrics = json::array();
  json line;
  for (const auto& e : cloudwatch ? cloudwatch_entries(s) : gpusizer_entries(s)) {
    if (!e.value) continue;  // EMF: every declared metric must have a value
    json m = {{"Name", e.name}};
    if (e.unit) m["Unit"] = e.unit;
    metrics.push_back(m);
    line[e.name] = *e.value;
  }
  line["_aws"] = {{"Timestamp", timestamp_ms},
                  {"CloudWatchMetrics", json::array({{{"Namespace", options.emf_namespace},
                                                      {"Dimensions", json::array({dims})},
                                                      {"Metrics", metrics}}})}};
  if (cloudwatch) {
    line["index"] = std::to_string(s.gpu_index);
    line["name"] = s.name;
    if (!options.omit_hostname) line["host"] = host.hostname;
    line["uuid"] = s.uuid;  // a property, not a dimension (the agent drops it)
  } else {
    line["GpuIndex"] = std::to_string(s.gpu_index);
    line["GpuUuid"] = s.uuid;
    if (!options.omit_hostname) line["Host"] = host.hostname;
    line["GpuName"] = s.name;
  }
  if (!s.pci_bus_id.empty()) line["pci_bus_id"] = s.pci_bus_id;
  if (s.mig) {
    line["GPU_I_PROFILE"] = s.mig->profile;
    line["GPU_I_ID"] = std::to_string(s.mig->gpu_instance_id);
    line["MigUuid"] = s.mig->uuid;
  }
  for (const auto& [k, v] : options.dimensions) line[k] = v;
  if (!s.mig) line["ThrottleReasons"] = join_reasons(s.sample);
  if (!s.unavailable.empty()) line["Unavailable"] = s.unavailable;
  return json_for_terminal(line, -1);  // a GPU name that is not UTF-8: U+FFFD, not thrown on
}

std::string prometheus_text(const std::vector<MonitorSample>& samples, const MonitorHost& host,
                            const MonitorOptions& options) {
  struct Family {
    const char* name;
    const char* type;
    const char* help;
    std::function<std::optional<double>(const MonitorSample&)> value;
  };
  // dcgm-exporter's default counters (etc/default-counters.csv): names, types, units and help.
  const std::vector<Family> dcgm_families = {
      {"DCGM_FI_DEV_SM_CLOCK", "gauge", "SM clock frequency (in MHz).",
       [](const MonitorSample& s) { return s.sample.sm_clock_mhz; }},
      {"DCGM_FI_DEV_MEM_CLOCK", "gauge", "Memory clock frequency (in MHz).",
       [](const MonitorSample& s) { return s.sample.memory_clock_mhz; }},
      {"DCGM_FI_DEV_GPU_TEMP", "gauge", "GPU temperature (in C).",
       [](const MonitorSample& s) { return s.sample.temperature_celsius; }},
      {"DCGM_FI_DEV_POWER_USAGE", "gauge", "Power draw (in W).",
       [](const MonitorSample& s) { return s.sample.power_watts; }},
      {"DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "counter",
       "Total energy consumption since boot (in mJ).",
       [](const MonitorSample& s) { return as_double(s.sample.energy_millijoules); }},
      {"DCGM_FI_DEV_GPU_UTIL", "gauge", "GPU utilization (in %).",
       [](const MonitorSample& s) { return s.sample.gpu_utilization_percent; }},
      {"DCGM_FI_DEV_MEM_COPY_UTIL", "gauge", "Memory utilization (in %).",
       [](const MonitorSample& s) { return s.sample.memory_utilization_percent; }},
      {"DCGM_FI_DEV_FB_FREE", "gauge", "Framebuffer memory free (in MiB).",
       [](const MonitorSample& s) {
         return s.memory_by_slice ? std::nullopt : free_mib(s.sample);
       }},
      {"DCGM_FI_DEV_FB_USED", "gauge", "Framebuffer memory used (in MiB).",
       [](const MonitorSample& s) {
         return s.memory_by_slice ? std::nullopt : mib(s.sample.memory_used_bytes);
       }},
  };
  const std::vector<Family> gpusizer_families = {
      {"gpusizer_utilization_gpu_percent", "gauge",
       "Percent of time a kernel ran on the GPU (NVML utilization.gpu).",
       [](const MonitorSample& s) { return s.sample.gpu_utilization_percent; }},
      {"gpusizer_utilization_memory_percent", "gauge",
       "Percent of time device memory was read or written (NVML utilization.memory).",
       [](const MonitorSample& s) { return s.sample.memory_utilization_percent; }},
      {"gpusizer_power_watts", "gauge", "GPU board power (NVML), not wall power.",
       [](const MonitorSample& s) { return s.sample.power_watts; }},
      {"gpusizer_energy_joules_total", "counter",
       "GPU board energy since driver load (NVML total-energy counter).",
       [](const MonitorSample& s) -> std::optional<double> {
         if (!s.sample.energy_millijoules) return std::nullopt;
         return static_cast<double>(*s.sample.energy_millijoules) / 1000.0;
       }},
      {"gpusizer_sm_clock_hertz", "gauge", "SM clock.",
       [](const MonitorSample& s) -> std::optional<double> {
         if (!s.sample.sm_clock_mhz) return std::nullopt;
         return *s.sample.sm_clock_mhz * 1e6;
       }},
      {"gpusizer_memory_clock_hertz", "gauge", "Memory clock.",
       [](const MonitorSample& s) -> std::optional<double> {
         if (!s.sample.memory_clock_mhz) return std::nullopt;
         return *s.sample.memory_clock_mhz * 1e6;
       }},
      {"gpusizer_temperature_celsius", "gauge", "GPU temperature.",
       [](const MonitorSample& s) { return s.sample.temperature_celsius; }},
      {"gpusizer_throttled", "gauge",
       "1 when a thermal, hardware-slowdown, power-brake or sync-boost clock-event reason is "
       "active (NVML); the power cap is gpusizer_power_capped.",
       [](const MonitorSample& s) { return throttled_value(s.sample); }},
      {"gpusizer_power_capped", "gauge",
       "1 when the board is at its power limit (NVML clock-event reason sw_power_cap).",
       [](const MonitorSample& s) { return power_capped_value(s.sample); }},
      {"gpusizer_ecc_volatile_corrected_total", "counter",
       "Corrected ECC errors since driver load (volatile).",
       [](const MonitorSample& s) { return as_double(s.sample.ecc_corrected_volatile); }},
      {"gpusizer_ecc_volatile_uncorrected_total", "counter",
       "Uncorrected ECC errors since driver load (volatile).",
       [](const MonitorSample& s) { return as_double(s.sample.ecc_uncorrected_volatile); }},
      {"gpusizer_memory_used_bytes", "gauge",
       "Device memory in use (NVML memory info; per MIG slice for a slice).",
       [](const MonitorSample& s) { return as_double(s.sample.memory_used_bytes); }},
      {"gpusizer_memory_total_bytes", "gauge",
       "Device memory size (NVML memory info; per MIG slice for a slice).",
       [](const MonitorSample& s) { return as_double(s.sample.memory_total_bytes); }},
  };
  const bool dcgm = options.names == MetricNames::dcgm;
  const std::vector<Family>& families = dcgm ? dcgm_families : gpusizer_families;
  std::ostringstream out;
  auto labels = [&](const MonitorSample& s) {
    std::string l;
    auto add = [&l](const std::string& key, const std::string& value) {
      l += (l.empty() ? "" : ",") + key + "=\"" + escape_label(value) + "\"";
    };
    auto add_mig = [&] {
      if (!s.mig) return;
      add("GPU_I_PROFILE", s.mig->profile);
      add("GPU_I_ID", std::to_string(s.mig->gpu_instance_id));
    };
    if (dcgm) {  // dcgm-exporter's labels, in its order (internal/pkg/rendermetrics)
      add("gpu", std::to_string(s.gpu_index));
      add("UUID", s.uuid);
      add("pci_bus_id", s.pci_bus_id);
      add("device", "nvidia" + std::to_string(s.gpu_index));
      add("modelName", s.name);
      add_mig();
      if (!options.omit_hostname) add("Hostname", host.hostname);
      if (!host.driver_version.empty()) add("DCGM_FI_DRIVER_VERSION", host.driver_version);
    } else {
      add("gpu", std::to_string(s.gpu_index));
      add("uuid", s.uuid);
      add("name", s.name);
      if (!options.omit_hostname) add("hostname", host.hostname);
      add_mig();
    }
    for (const auto& [k, v] : options.dimensions) add(k, v);
    return l;
  };
  // What a series cannot give, said in the text (a comment; Prometheus ignores it).
  auto unavailable = [&] {
    std::string text;
    for (const auto& s : samples) {
      if (!s.unavailable.empty())
        text += "# gpusizer: {" + labels(s) + "}: " + escape_label(s.unavailable) + "\n";
    }
    return text;
  };
  for (const auto& f : families) {
    bool header = false;
    for (const auto& s : samples) {
      const auto v = f.value(s);
      if (!v) continue;
      if (!header) {
        out << "# HELP " << f.name << ' ' << f.help << "\n# TYPE " << f.name << ' ' << f.type
            << '\n';
        header = true;
      }
      out << f.name << '{' << labels(s) << "} " << number_text(*v) << '\n';
    }
  }
  if (dcgm) return out.str() + unavailable();
  // Active reasons as a labelled gauge (one series per reason seen now).
  bool header = false;
  for (const auto& s : samples) {
    if (!s.sample.clock_event_reasons) continue;
    for (const auto& r : clock_event_reason_names(*s.sample.clock_event_reasons)) {
      if (!header) {
        out << "# HELP gpusizer_clock_event_reason Active NVML clock-event (throttle) reasons.\n"
               "# TYPE gpusizer_clock_event_reason gauge\n";
        header = true;
      }
      out << "gpusizer_clock_event_reason{" << labels(s) << ",reason=\"" << r << "\"} 1\n";
    }
  }
  return out.str() + unavailable();
}

}  // namespace gpusizer::telemetry
