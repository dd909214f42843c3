#include "gpusizer/sizing/capability.hpp"

#include <algorithm>
#include <set>

#include "gpusizer/error.hpp"
#include "gpusizer/input_file.hpp"
#include "gpusizer/plausibility.hpp"
#include "gpusizer/report_io.hpp"
#include "gpusizer/report_verify.hpp"
#include "uncertainty.hpp"

namespace gpusizer::sizing {
namespace {

bool has_flag(const Record& r, const char* flag) {
  return std::find(r.flags.begin(), r.flags.end(), flag) != r.flags.end();
}

// Implausible records (above a physical ceiling, plausibility.hpp) are left out with a warning.
// Aggregates of GPUs loaded together are no one device's figure (each GPU's own record is), and
// simulated records (a CPU stand-in for a GPU, a test seam) are no GPU's figure at all.
bool usable(const Record& r) {
  return r.status == RecordStatus::ok && r.verification.status != VerificationStatus::failed &&
         !is_implausible(r) && !has_flag(r, "aggregate") && !has_flag(r, "simulated");
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

bool runs_on(const Record& r, const std::string& target_id) {
  return std::find(r.targets.begin(), r.targets.end(), target_id) != r.targets.end();
}

ResourceRate rate_of(const LoadedReport& lr, const Record& r, const Metric& m,
                     const std::string& target_id) {
  ResourceRate rate;
  rate.value = m.value;
  rate.evidence = Evidence{lr.file, lr.sha256, r.id,         target_id,    m.name,
                           m.value, m.unit,    r.parameters, r.concurrency};
  rate.spread = detail::sample_spread(r, m.value);
  if (r.telemetry && r.telemetry->source != TelemetrySource::unavailable &&
      r.telemetry->power_mean_watts) {
    rate.power_watts = r.telemetry->power_mean_watts;
    rate.power_scope = r.telemetry->scope;
  }
  return rate;
}

// Keeps the faster of two rates measured on one target (best stated size).
void keep_max(std::optional<ResourceRate>& slot, const ResourceRate& r) {
  if (!slot || r.value > slot->value) slot = r;
}
void keep_max(std::map<std::string, ResourceRate>& slots, const std::string& key,
              const ResourceRate& r) {
  auto it = slots.find(key);
  if (it == slots.end() || r.value > it->second.value) slots[key] = r;
}
// Merges targets of one model: the slower one wins.
void keep_min(std::optional<ResourceRate>& slot, const std::optional<ResourceRate>& r) {
  if (r && (!slot || r->value < slot->value)) slot = r;
}
void keep_min(std::map<std::string, ResourceRate>& slots,
              const std::map<std::string, ResourceRate>& other) {
  for (const auto& [key, r] : other) {
    auto it = slots.find(key);
    if (it == slots.end() || r.value < it->second.value) slots[key] = r;
  }
}

// Hosts a record's targets sit on (fleet reports name each target's host; else one host).
std::size_t hosts_spanned(const Report& report, const std::vector<std::string>& targets) {
  std::set<std::string> hosts;
  for (const auto& id : targets) {
    const Target* t = report.find_target(id);
    hosts.insert(t != nullptr && t->host ? *t->host : std::string());
  }
  return hosts.size();
}

// Capability of one target from its own records. `mode_filter` keeps only the target's own
// records (not those it shares with other GPUs: P2P, collectives) of that mode when non-empty.
DeviceCapability target_capability(const LoadedReport& lr, const Target& t,
                                   Concurrency mode_filter) {
  DeviceCapability cap;
  cap.kind = t.kind;
  cap.report_name = t.name;
  cap.memory_bytes = t.memory_bytes;
  cap.memory_source = lr.file + " target " + t.id;
  cap.report_file = lr.file;
  cap.mig_profile = t.mig_profile;
  cap.mig_mode = mode_filter;
  cap.target_count = 1;
  cap.logical_cpus = lr.report.host_of(t).logical_cpus;
  for (const auto& r : lr.report.records) {
    if (!usable(r)) continue;
    if (!runs_on(r, t.id)) continue;
    if (mode_filter != Concurrency::not_stated && r.targets.size() == 1 &&
        r.concurrency != mode_filter)
      continue;
    if (r.family == Family::gemm) {
      if (const Metric* m = r.metric("throughput"))
        keep_max(cap.flops, r.operation, rate_of(lr, r, *m, t.id));
    } else if (r.family == Family::memory) {
      const Metric* m = r.metric("bandwidth");
      if (m == nullptr) continue;
      if (r.operation == "h2d_pinned") {
        keep_max(cap.host_link, rate_of(lr, r, *m, t.id));
      } else if (!starts_with(r.operation, "h2d") && !starts_with(r.operation, "d2h") &&
                 !starts_with(r.operation, "p2p")) {
        keep_max(cap.memory_bandwidth, rate_of(lr, r, *m, t.id));
      }
    } else if (r.family == Family::io) {
      if (const Metric* m = r.metric("bandwidth")) keep_max(cap.io, rate_of(lr, r, *m, t.id));
    } else if (r.family == Family::collectives) {
      if (const Metric* m = r.metric("busbw")) {
        keep_max(
            hosts_spanned(lr.report, r.targets) > 1 ? cap.inter_node_collectives : cap.collectives,
            r.operation, rate_of(lr, r, *m, t.id));
      }
    }
  }
  return cap;
}

// The accelerator model of a target. A MIG slice is named by CUDA and NVML "<model> MIG
// <profile>" ("NVIDIA H200 MIG 1g.18gb"): its model is its parent GPU's name when the report has
// the parent, else the name without the " MIG <profile>" suffix.
std::string model_name(const Report& report, const Target& t) {
  if (t.kind != TargetKind::mig) return t.name;
  if (t.parent) {
    if (const Target* parent = report.find_target(*t.parent)) return parent->name;
  }
  const auto pos = t.name.find(" MIG ");
  return pos == std::string::npos ? t.name : t.name.substr(0, pos);
}

// Which of a target's records to use: measured while the other slices or GPUs were loaded too
// (concurrent, preferred: the production-like case) when there are any; else a MIG slice's
// isolated ones, a whole GPU's all (not_stated).
Concurrency mode_for(const LoadedReport& lr, const Target& t) {
  bool concurrent = false;
  for (const auto& r : lr.report.records) {
    if (!usable(r) || r.concurrency != Concurrency::concurrent) continue;
    if (r.targets == std::vector<std::string>{t.id}) concurrent = true;
  }
  if (concurrent) return Concurrency::concurrent;
  return t.kind == TargetKind::mig ? Concurrency::isolated : Concurrency::not_stated;
}

void merge_into(DeviceCapability& into, const DeviceCapability& other) {
  keep_min(into.flops, other.flops);
  keep_min(into.memory_bandwidth, other.memory_bandwidth);
  keep_min(into.host_link, other.host_link);
  keep_min(into.io, other.io);
  keep_min(into.collectives, other.collectives);
  keep_min(into.inter_node_collectives, other.inter_node_collectives);
  if (other.memory_bytes < into.memory_bytes) {
    into.memory_bytes = other.memory_bytes;
    into.memory_source = other.memory_source;
  }
  if (into.kind == TargetKind::cpu && other.logical_cpus > 0)
    into.logical_cpus = other.logical_cpus;
  into.target_count += other.target_count;
}

bool empty(const DeviceCapability& c) {
  return c.flops.empty() && !c.memory_bandwidth && !c.host_link && !c.io && c.collectives.empty() &&
         c.inter_node_collectives.empty();
}

}  // namespace

LoadedReport load_report_file(const std::filesystem::path& file) {
  LoadedReport lr;
  lr.file = file.string();
  // One read: the bytes hashed are the bytes loaded (no second open to race with).
  const std::string bytes = read_input_file(file, input_kinds::report);
  lr.report = load_report_text(bytes, file.string());
  lr.sha256 = sha256_hex(bytes);
  const ReportVerification v = verify_report_text(
      bytes, file.string(), certificate_source(default_identity_certificates_file()));
  lr.verified = v.verified();
  lr.verification = lr.verified ? "verified" : v.first_failure();
  return lr;
}

const DeviceCapability* CapabilityTable::gpu(const std::string& accelerator) const {
  for (const auto& d : devices) {
    if (d.kind == TargetKind::gpu && d.accelerator == accelerator) return &d;
  }
  return nullptr;
}

const DeviceCapability* CapabilityTable::mig(const std::string& accelerator,
                                             const std::string& profile) const {
  for (const auto& d : devices) {
    if (d.kind == TargetKind::mig && d.accelerator == accelerator && d.mig_profile == profile)
      return &d;
  }
  return nullptr;
}

const DeviceCapability* CapabilityTable::cpu() const {
  for (const auto& d : devices) {
    if (d.kind == TargetKind::cpu) return &d;
  }
  return nullptr;
}

std::vector<const DeviceCapability*> CapabilityTable::cpus() const {
  std::vector<const DeviceCapability*> out;
  for (const auto& d : devices) {
    if (d.kind == TargetKind::cpu) out.push_back(&d);
  }
  return out;
}

CapabilityTable build_capabilities(const std::vector<LoadedReport>& reports,
                                   const Catalog& catalog) {
  CapabilityTable table;
  std::set<std::string> versions;
  for (const auto& lr : reports) {
    versions.insert(lr.report.tool.version + " (" + lr.report.tool.git_revision + ")");
    for (const auto& r : lr.report.records) {
      if (!is_implausible(r)) continue;
      auto why = r.details.find("implausible");
      table.warnings.push_back(
          lr.file + ": record " + r.id + " is implausible and not used (" +
          (why == r.details.end() ? std::string("flagged in the report") : why->second) + ")");
    }
    for (const auto& t : lr.report.targets) {
      DeviceCapability cap;
      if (t.kind == TargetKind::cpu) {
        cap = target_capability(lr, t, Concurrency::not_stated);
        cap.accelerator = t.name;
        if (const auto& it = lr.report.host_of(t).instance_type) cap.instance_type = it->value;
      } else {
        const Accelerator* acc = catalog.accelerator_for_report_name(model_name(lr.report, t));
        if (acc == nullptr) {
          table.warnings.push_back(lr.file + ": target " + t.id + " \"" + t.name +
                                   "\" matches no catalog accelerator (add its name to "
                                   "report_names); its records are not used");
          continue;
        }
        cap = target_capability(lr, t, mode_for(lr, t));
        cap.accelerator = acc->id;
      }
      if (empty(cap)) continue;
      DeviceCapability* existing = nullptr;
      for (auto& d : table.devices) {
        if (d.kind == cap.kind && d.accelerator == cap.accelerator &&
            d.mig_profile == cap.mig_profile && d.mig_mode == cap.mig_mode &&
            d.instance_type == cap.instance_type) {
          existing = &d;
        }
      }
      if (existing != nullptr) {
        merge_into(*existing, cap);
      } else {
        table.devices.push_back(std::move(cap));
      }
    }
  }
  // A MIG profile or GPU model measured both concurrently and not: keep the concurrent figures.
  std::vector<DeviceCapability> kept;
  for (const auto& d : table.devices) {
    if ((d.kind == TargetKind::mig || d.kind == TargetKind::gpu) &&
        d.mig_mode != Concurrency::concurrent) {
      bool has_concurrent = false;
      for (const auto& o : table.devices) {
        if (o.kind == d.kind && o.accelerator == d.accelerator && o.mig_profile == d.mig_profile &&
            o.mig_mode == Concurrency::concurrent) {
          has_concurrent = true;
        }
      }
      if (has_concurrent) continue;
    }
    kept.push_back(d);
  }
  table.devices = std::move(kept);
  if (versions.size() > 1) {
    std::string list;
    for (const auto& v : versions) list += (list.empty() ? "" : ", ") + v;
    table.warnings.push_back("reports come from different gpusizer versions: " + list +
                             "; figures are compared as measured");
  }
  return table;
}

}  // namespace gpusizer::sizing
