#include "gpusizer/kernels/device_identity.hpp"
#include "gpusizer/text.hpp"

#include <algorithm>
#include <cctype>

namespace gpusizer::kernels {
namespace {

// "GPU-abc..." / "MIG-abc..." -> "abc..." (lower case); the legacy "MIG-GPU-<uuid>/gi/ci" form
// keeps its prefix and so never matches a CUDA UUID.
std::string bare_uuid(const std::string& uuid) {
  std::string u = lower(uuid);
  for (const char* prefix : {"gpu-", "mig-"}) {
    if (u.rfind(prefix, 0) == 0) return u.substr(4);
  }
  return u;
}

}  // namespace

std::string mig_profile_from_name(const std::string& name) {
  const auto at = name.find(" MIG ");
  if (at == std::string::npos) return "";
  std::string rest = name.substr(at + 5);
  const auto end = rest.find(' ');
  if (end != std::string::npos) rest = rest.substr(0, end);
  if (rest.size() < 4 || rest.find('g') == std::string::npos) return "";
  return rest;
}

DeviceIdentity identify_device(const std::string& cuda_uuid, int cuda_ordinal,
                               const std::string& cuda_name, const std::vector<Target>& known,
                               const std::vector<std::string>& unlisted_mig_parents,
                               const std::optional<std::string>& cuda_visible_devices) {
  const std::string wanted = bare_uuid(cuda_uuid);
  for (const auto& t : known) {
    if (!t.uuid || wanted.empty() || bare_uuid(*t.uuid) != wanted) continue;
    DeviceIdentity d;
    d.id = t.id;
    d.kind = t.kind;
    d.uuid = *t.uuid;
    d.parent = t.parent;
    d.mig_profile = t.mig_profile;
    if (t.kind == TargetKind::gpu && t.index) d.nvml_index = t.index;
    d.attributes = t.attributes.is_object() ? t.attributes : nlohmann::json::object();
    d.identified_by = "NVML UUID";
    return d;
  }

  DeviceIdentity d;
  const std::string profile = mig_profile_from_name(cuda_name);
  std::string mig_reason;
  if (!profile.empty()) {
    mig_reason = "CUDA's device name carries a MIG profile";
  } else if (cuda_visible_devices && cuda_visible_devices->find("MIG-") != std::string::npos) {
    mig_reason = "CUDA_VISIBLE_DEVICES names MIG devices";
  } else if (!unlisted_mig_parents.empty()) {
    mig_reason = "a GPU in MIG mode whose slices NVML could not list";
  }
  const std::string not_listed =
      known.empty() ? "NVML unavailable" : "UUID " + cuda_uuid + " not among NVML's devices";
  if (mig_reason.empty()) {
    d.id = "gpu" + std::to_string(cuda_ordinal);
    d.kind = TargetKind::gpu;
    d.uuid = "GPU-" + cuda_uuid;
    d.identified_by = "CUDA device ordinal (" + not_listed + ")";
    return d;
  }
  d.kind = TargetKind::mig;
  d.uuid = "MIG-" + cuda_uuid;
  d.mig_profile = profile.empty() ? "unknown" : profile;
  d.parent = unlisted_mig_parents.size() == 1 ? unlisted_mig_parents.front() : "unknown";
  const std::string tag = "mig-" + *d.mig_profile + "-" + cuda_uuid.substr(0, 8);
  d.id = *d.parent == "unknown" ? tag : *d.parent + "/" + tag;
  d.identified_by = "MIG slice: " + mig_reason + " (" + not_listed + ")";
  return d;
}

}  // namespace gpusizer::kernels
