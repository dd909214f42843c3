// The order `gpusizer devices` lists targets in, computed without printing.
#include <gtest/gtest.h>

#include "gpusizer/telemetry/device_selection.hpp"

namespace gpusizer::telemetry {
namespace {

Target target(const std::string& id, std::optional<std::string> parent = std::nullopt) {
  Target t;
  t.id = id;
  t.kind = parent ? TargetKind::mig : TargetKind::gpu;
  t.parent = std::move(parent);
  return t;
}

std::vector<std::string> ids(const std::vector<Target>& targets) {
  std::vector<std::string> out;
  for (const auto& t : targets) out.push_back(t.id);
  return out;
}

TEST(DeviceListing, GpusThenTheirSlicesThenOrphanSlices) {
  // CUDA found the CPU, gpu1 and gpu2; gpu0 is a MIG parent CUDA does not list; gpu2 has a slice
  // too (listed under it), and gpu9's slice has no listed parent (listed last).
  const std::vector<Target> discovered{target("cpu"), target("gpu1"), target("gpu2")};
  const std::vector<Target> parents{target("gpu0"), target("gpu2")};
  const std::vector<Target> slices{target("gpu0/mig-a", "gpu0"), target("gpu9/mig-c", "gpu9"),
                                   target("gpu2/mig-b", "gpu2"), target("gpu0/mig-d", "gpu0")};
  EXPECT_EQ(ids(device_listing(discovered, parents, slices)),
            (std::vector<std::string>{"cpu", "gpu1", "gpu2", "gpu2/mig-b", "gpu0", "gpu0/mig-a",
                                      "gpu0/mig-d", "gpu9/mig-c"}));
  EXPECT_TRUE(device_listing({}, {}, {}).empty());
  // A target given twice is listed once.
  EXPECT_EQ(ids(device_listing({target("gpu1"), target("gpu1")}, {target("gpu1")}, {})),
            (std::vector<std::string>{"gpu1"}));
}

}  // namespace
}  // namespace gpusizer::telemetry
