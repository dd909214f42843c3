#include "gpusizer/telemetry/device_selection.hpp"
#include "gpusizer/text.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace gpusizer::telemetry {
namespace {

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

std::vector<std::string> split_entries(const std::string& value) {
  std::vector<std::string> out;
  std::string item;
  for (std::size_t start = 0;;) {
    const auto comma = value.find(',', start);
    item =
        trim(value.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (!item.empty()) out.push_back(item);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

bool is_index(const std::string& s) {
  return !s.empty() && s.size() < 6 &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

// CUDA accepts a unique prefix of a UUID.
bool uuid_matches(const std::string& entry, const std::string& uuid) {
  const std::string e = lower(entry);
  return !uuid.empty() && lower(uuid).rfind(e, 0) == 0;
}

Target whole_gpu_target(const NvmlGpu& g) {
  Target t;
  t.id = g.id;
  t.kind = TargetKind::gpu;
  t.name = g.name;
  t.uuid = g.uuid;
  t.index = static_cast<int>(g.index);
  t.attributes = {{"mig_mode", g.mig_mode}, {"source", "NVML"}};
  return t;
}

std::string count(std::size_t n, const std::string& what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

std::string ids(const std::vector<Target>& targets) {
  std::vector<std::string> out;
  for (const auto& t : targets) out.push_back(t.id);
  return join(out, ", ");
}

template <typename T, typename Key>
void push_unique(std::vector<T>& v, const T& item, Key key) {
  for (const auto& existing : v)
    if (key(existing) == key(item)) return;
  v.push_back(item);
}

// What CUDA_VISIBLE_DEVICES (or, when it is unset, the whole machine) grants.
struct Grant {
  std::vector<const NvmlGpu*> gpus;    // whole GPUs named (or all, when unset)
  std::vector<const Target*> slices;   // MIG devices named by their UUID
  std::vector<std::string> unmatched;  // entries NVML lists no device for
};

Grant resolve_grant(const NvmlInventory& inv, const std::optional<std::string>& visible) {
  Grant g;
  if (!visible) {
    for (const auto& gpu : inv.gpus) g.gpus.push_back(&gpu);
    return g;
  }
  for (const auto& entry : split_entries(*visible)) {
    std::vector<const NvmlGpu*> gpus;
    std::vector<const Target*> slices;
    if (is_index(entry)) {
      for (const auto& gpu : inv.gpus)
        if (std::to_string(gpu.index) == entry) gpus.push_back(&gpu);
    } else if (lower(entry).rfind("gpu-", 0) == 0) {
      for (const auto& gpu : inv.gpus)
        if (uuid_matches(entry, gpu.uuid)) gpus.push_back(&gpu);
    } else if (lower(entry).rfind("mig-", 0) == 0) {
      for (const auto& m : inv.mig_targets)
        if (m.uuid && uuid_matches(entry, *m.uuid)) slices.push_back(&m);
    }
    if (gpus.size() + slices.size() != 1) {
      g.unmatched.push_back(entry);
    } else if (!gpus.empty()) {
      if (std::find(g.gpus.begin(), g.gpus.end(), gpus.front()) == g.gpus.end())
        g.gpus.push_back(gpus.front());
    } else if (std::find(g.slices.begin(), g.slices.end(), slices.front()) == g.slices.end()) {
      g.slices.push_back(slices.front());
    }
  }
  return g;
}

const NvmlGpu* gpu_by_id(const NvmlInventory& inv, const std::string& id) {
  for (const auto& g : inv.gpus)
    if (g.id == id) return &g;
  return nullptr;
}

// --gpus (NVML indices) narrows the grant; an index that does not exist or was not granted is
// a warning, never silently ignored.
void apply_requested(const NvmlInventory& inv, const DeviceSelectionRequest& req, Grant& grant,
                     std::vector<std::string>& warnings) {
  if (req.gpu_indices.empty()) return;
  auto wanted = [&](const NvmlGpu* g) {
    return g && std::find(req.gpu_indices.begin(), req.gpu_indices.end(),
                          static_cast<int>(g->index)) != req.gpu_indices.end();
  };
  for (int index : req.gpu_indices) {
    const NvmlGpu* gpu = nullptr;
    for (const auto& g : inv.gpus)
      if (static_cast<int>(g.index) == index) gpu = &g;
    if (!gpu) {
      warnings.push_back("--gpus: GPU " + std::to_string(index) + " does not exist (NVML lists " +
                         count(inv.gpus.size(), "GPU") + ")");
      continue;
    }
    bool granted = std::find(grant.gpus.begin(), grant.gpus.end(), gpu) != grant.gpus.end();
    for (const Target* s : grant.slices) granted = granted || (s->parent && *s->parent == gpu->id);
    if (!granted) {
      warnings.push_back("--gpus: " + gpu->id + " is not granted by CUDA_VISIBLE_DEVICES=" +
                         req.cuda_visible_devices.value_or("") + "; not measured");
    }
  }
  std::erase_if(grant.gpus, [&](const NvmlGpu* g) { return !wanted(g); });
  std::erase_if(grant.slices,
                [&](const Target* s) { return !s->parent || !wanted(gpu_by_id(inv, *s->parent)); });
}

std::string mig_warning(const NvmlGpu& g) {
  return g.id + " (" + g.name + "): MIG enabled; measured per MIG slice, not as a whole GPU";
}

}  // namespace

std::vector<Target> known_devices(const NvmlInventory& inventory) {
  std::vector<Target> out;
  for (const auto& g : inventory.gpus) {
    Target t = whole_gpu_target(g);
    t.attributes = nlohmann::json::object();  // what CUDA reads about the device is added later
    out.push_back(std::move(t));
  }
  for (const auto& m : inventory.mig_targets) out.push_back(m);
  return out;
}

std::vector<std::string> gpus_with_unlisted_slices(const NvmlInventory& inventory) {
  std::vector<std::string> out;
  for (const auto& g : inventory.gpus)
    if (g.mig_mode == MigState::enabled && !g.mig_enumeration_error.empty()) out.push_back(g.id);
  return out;
}

std::optional<std::string> cuda_visible_devices_from_environment() {
  const char* v = std::getenv("CUDA_VISIBLE_DEVICES");
  if (v == nullptr) return std::nullopt;
  return std::string(v);
}

DeviceSelection select_devices(const NvmlInventory& inv, const DeviceSelectionRequest& req) {
  DeviceSelection s;
  s.cuda_visible_devices_found = req.cuda_visible_devices;
  s.requested_gpus = req.gpu_indices;
  const std::string visible_text =
      req.cuda_visible_devices ? "CUDA_VISIBLE_DEVICES=" + *req.cuda_visible_devices : "";
  if (!inv.available) {
    s.basis = "CUDA's own";
    s.cuda_ordinals = req.gpu_indices;
    s.explanation = "NVML is unavailable (" + inv.unavailable_reason +
                    "): measuring the GPUs CUDA exposes" +
                    (req.cuda_visible_devices ? " under " + visible_text : std::string()) +
                    (req.gpu_indices.empty() ? "" : "; --gpus taken as CUDA device ordinals");
    return s;
  }
  s.known_devices = known_devices(inv);
  s.gpus_with_unlisted_slices = gpus_with_unlisted_slices(inv);
  if (inv.gpus.empty()) {
    s.basis = "CUDA's own";
    s.cuda_ordinals = req.gpu_indices;
    s.explanation = "NVML lists no GPU: measuring the GPUs CUDA exposes, if any";
    return s;
  }

  Grant grant = resolve_grant(inv, req.cuda_visible_devices);
  const std::size_t granted = grant.gpus.size() + grant.slices.size();
  apply_requested(inv, req, grant, s.warnings);

  // Whole GPUs for the parent; GPUs in MIG mode become parents of slices run by children.
  std::vector<const NvmlGpu*> unlisted;
  auto add_parent = [&](const NvmlGpu& g) {
    push_unique(s.mig_parents, whole_gpu_target(g), [](const Target& t) { return t.id; });
  };
  for (const NvmlGpu* g : grant.gpus) {
    if (g->mig_mode != MigState::enabled) {
      s.whole_gpus.push_back(whole_gpu_target(*g));
      continue;
    }
    add_parent(*g);
    if (!g->mig_enumeration_error.empty()) {
      unlisted.push_back(g);
      continue;
    }
    std::size_t slices = 0;
    for (const auto& m : inv.mig_targets) {
      if (m.parent && *m.parent == g->id) {
        push_unique(s.mig_slices, m, [](const Target& t) { return t.id; });
        ++slices;
      }
    }
    s.warnings.push_back(slices > 0 ? mig_warning(*g)
                                    : g->id + " (" + g->name +
                                          "): MIG enabled with no MIG device created; nothing "
                                          "to measure on it (docs/telemetry.md, MIG layout)");
  }
  for (const Target* m : grant.slices) {
    push_unique(s.mig_slices, *m, [](const Target& t) { return t.id; });
    if (const NvmlGpu* g = m->parent ? gpu_by_id(inv, *m->parent) : nullptr) {
      if (std::none_of(s.mig_parents.begin(), s.mig_parents.end(),
                       [&](const Target& t) { return t.id == g->id; }))
        s.warnings.push_back(mig_warning(*g));
      add_parent(*g);
    }
  }

  if (req.cuda_visible_devices) {
    s.warnings.push_back(visible_text +
                         " was set before gpusizer started (a scheduler's grant, e.g. Slurm or "
                         "the Kubernetes device plugin): only the devices it names are measured");
  }
  for (const auto& entry : grant.unmatched) {
    s.warnings.push_back("CUDA_VISIBLE_DEVICES entry \"" + entry +
                         "\" matches no single device NVML lists");
  }

  // Fallbacks: the run measures what CUDA itself exposes, with CUDA_VISIBLE_DEVICES untouched.
  if (!grant.unmatched.empty()) {
    s.basis = "CUDA's own";
    s.mig_slices.clear();  // CUDA may show them to the parent: never measure a slice twice
    s.explanation = visible_text + " names devices NVML does not list: measuring the devices " +
                    "CUDA exposes with it as set, each named by its UUID where NVML knows it";
    return s;
  }
  const bool nothing_else = s.whole_gpus.empty() && s.mig_slices.empty();
  for (const NvmlGpu* g : unlisted) {
    const std::string head = g->id + " (" + g->name +
                             "): MIG enabled, but its MIG devices could not be listed (" +
                             g->mig_enumeration_error + "); ";
    s.warnings.push_back(
        head + (nothing_else
                    ? "measuring the devices CUDA itself exposes instead"
                    : "its slices are not measured (to measure one: CUDA_VISIBLE_DEVICES=MIG-"
                      "<uuid> gpusizer run)"));
  }
  if (!unlisted.empty() && nothing_else) {
    s.basis = "CUDA's own";
    s.explanation = "NVML could not list the MIG devices of " +
                    join(
                        [&] {
                          std::vector<std::string> v;
                          for (const NvmlGpu* g : unlisted) v.push_back(g->id);
                          return v;
                        }(),
                        ", ") +
                    ": measuring the devices CUDA exposes (CUDA_VISIBLE_DEVICES " +
                    (req.cuda_visible_devices ? "left as set" : "left unset") +
                    "), each named by its UUID";
    return s;
  }

  s.basis = req.cuda_visible_devices ? "CUDA_VISIBLE_DEVICES as set, matched to NVML UUIDs"
                                     : "NVML UUIDs";
  std::vector<std::string> uuids;
  for (const auto& t : s.whole_gpus) uuids.push_back(t.uuid.value_or(""));
  const std::string wanted = join(uuids, ",");
  if (s.whole_gpus.empty()) {
    s.parent_measures_gpus = false;
  } else if (!req.cuda_visible_devices || granted != s.whole_gpus.size()) {
    // Unset, or a grant that also names MIG devices or GPUs in MIG mode, or --gpus narrowed it:
    // the parent sees exactly the chosen whole GPUs (always a subset of any grant).
    s.set_cuda_visible_devices = wanted;
  }

  std::string text =
      req.cuda_visible_devices
          ? visible_text + " was set before gpusizer started: measuring only what it grants. "
          : "NVML lists " + count(inv.gpus.size(), "GPU") +
                (s.mig_parents.empty() ? "" : " (" + ids(s.mig_parents) + " in MIG mode)") + ". ";
  if (s.whole_gpus.empty()) {
    text += "No whole GPU is measured";
  } else {
    text += "The run measures " + count(s.whole_gpus.size(), "whole GPU") + " (" +
            ids(s.whole_gpus) + ")" +
            (s.set_cuda_visible_devices
                 ? " with CUDA_VISIBLE_DEVICES set to their UUIDs before the first CUDA call"
                 : "");
  }
  if (!s.mig_slices.empty()) {
    text += ", and " + count(s.mig_slices.size(), "MIG slice") + " (" + ids(s.mig_slices) +
            ") in child processes, one per slice";
  }
  text += ".";
  if (!s.mig_parents.empty() && !req.cuda_visible_devices) {
    text +=
        " Without CUDA_VISIBLE_DEVICES a process would see one MIG slice and none of the other "
        "GPUs (kokkos#6529).";
  }
  s.explanation = text;
  return s;
}

nlohmann::json to_json(const DeviceSelection& s) {
  using nlohmann::json;
  auto list = [](const std::vector<Target>& targets) {
    json out = json::array();
    for (const auto& t : targets) {
      json j{{"id", t.id}, {"uuid", t.uuid.value_or("")}};
      if (t.parent) j["parent"] = *t.parent;
      out.push_back(std::move(j));
    }
    return out;
  };
  return json{{"basis", s.basis},
              {"explanation", s.explanation},
              {"cuda_visible_devices_found",
               s.cuda_visible_devices_found ? json(*s.cuda_visible_devices_found) : json(nullptr)},
              {"cuda_visible_devices_set",
               s.set_cuda_visible_devices ? json(*s.set_cuda_visible_devices) : json(nullptr)},
              {"requested_gpus", s.requested_gpus},
              {"whole_gpus", list(s.whole_gpus)},
              {"mig_slices", list(s.mig_slices)},
              {"gpus_with_unlisted_slices", s.gpus_with_unlisted_slices}};
}

std::vector<Target> device_listing(const std::vector<Target>& discovered,
                                   const std::vector<Target>& mig_parents,
                                   const std::vector<Target>& mig_slices) {
  std::vector<Target> targets;
  auto listed = [&](const std::string& id) {
    return std::any_of(targets.begin(), targets.end(), [&](const Target& t) { return t.id == id; });
  };
  auto add_with_slices = [&](const Target& gpu) {
    if (listed(gpu.id)) return;
    targets.push_back(gpu);
    for (const auto& m : mig_slices) {  // MIG slices listed under their parent
      if (m.parent && *m.parent == gpu.id && !listed(m.id)) targets.push_back(m);
    }
  };
  for (const auto& t : discovered) add_with_slices(t);
  for (const auto& p : mig_parents) add_with_slices(p);
  for (const auto& m : mig_slices) {  // slices of GPUs not listed
    if (!listed(m.id)) targets.push_back(m);
  }
  return targets;
}

}  // namespace gpusizer::telemetry
