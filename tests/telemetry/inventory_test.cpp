// MIG discovery through the fake NVML: an H200 with 3g + 2g + 1g + 1g, and one without MIG.
#include <gtest/gtest.h>

#include "fake_nvml_env.hpp"
#include "gpusizer/telemetry/nvml_inventory.hpp"

namespace gpusizer::telemetry {
namespace {

TEST(NvmlInventory, ListsMigSlicesByProfileUnderTheirParent) {
  test::use_fake_nvml("mig_h200.json", 0.0);
  const auto inv = nvml_inventory();
  ASSERT_TRUE(inv.available) << inv.unavailable_reason;
  ASSERT_EQ(inv.gpus.size(), 2u);
  EXPECT_EQ(inv.gpus[0].id, "gpu0");
  EXPECT_EQ(inv.gpus[0].mig_mode, MigState::enabled);
  EXPECT_EQ(inv.gpus[1].mig_mode, MigState::disabled);
  EXPECT_EQ(inv.gpus[1].mig_pending_mode, MigState::enabled);  // needs a GPU reset to apply
  EXPECT_EQ(*inv.gpus[0].default_sm_clock_mhz, 1980.0);
  EXPECT_EQ(*inv.gpus[0].power_limit_watts, 700.0);
  ASSERT_EQ(inv.gpus[0].mig_devices.size(), 4u);
  ASSERT_EQ(inv.mig_targets.size(), 4u);

  const std::vector<std::string> ids{"gpu0/mig-3g.71gb-gi1-ci0", "gpu0/mig-2g.35gb-gi5-ci0",
                                     "gpu0/mig-1g.18gb-gi13-ci0", "gpu0/mig-1g.18gb-gi14-ci0"};
  const std::vector<unsigned> sms{60, 32, 16, 16};
  const std::vector<std::uint64_t> mib{71424, 35584, 17920, 17920};
  for (std::size_t i = 0; i < 4; ++i) {
    const Target& t = inv.mig_targets[i];
    EXPECT_EQ(t.id, ids[i]);
    EXPECT_EQ(t.kind, TargetKind::mig);
    EXPECT_EQ(*t.parent, "gpu0");
    EXPECT_EQ(t.uuid->rfind("MIG-", 0), 0u);
    EXPECT_EQ(t.attributes["sm_count"].get<unsigned>(), sms[i]);
    EXPECT_EQ(t.memory_bytes, mib[i] * 1024 * 1024);
  }
  EXPECT_EQ(*inv.mig_targets[0].mig_profile, "3g.71gb");
  EXPECT_EQ(inv.mig_targets[0].attributes["profile_source"], "device name");
  // The 4th device's name carries no profile: derived from 1 slice and 17920 MiB = 17.5 GiB.
  EXPECT_EQ(*inv.mig_targets[3].mig_profile, "1g.18gb");
  EXPECT_EQ(inv.mig_targets[3].attributes["profile_source"], "derived from attributes (g, MiB)");

  const auto j = to_json(inv);
  EXPECT_EQ(j["gpus"][0]["mig_devices"].size(), 4u);
  EXPECT_EQ(j["gpus"][0]["mig_devices"][1]["profile"], "2g.35gb");
}

TEST(NvmlInventory, UnavailableWithReasonWithoutDriver) {
  test::use_fake_nvml("no_driver.json");
  auto inv = nvml_inventory();
  EXPECT_FALSE(inv.available);
  EXPECT_NE(inv.unavailable_reason.find("Driver Not Loaded"), std::string::npos);
  EXPECT_EQ(to_json(inv)["available"], false);
}

TEST(NvmlInventory, MigModeNotSupportedIsReported) {
  test::use_fake_nvml("errors.json", 0.0);
  auto inv = nvml_inventory();
  ASSERT_TRUE(inv.available);
  EXPECT_EQ(inv.gpus[0].mig_mode, MigState::not_supported);
  EXPECT_EQ(inv.gpus[0].default_sm_clock_source, "max SM clock");
  EXPECT_TRUE(inv.mig_targets.empty());
}

}  // namespace
}  // namespace gpusizer::telemetry
