// Naming a CUDA device from its UUID (kernels/device_identity.hpp), pure: the CUDA backend feeds
// it cudaDeviceProp::uuid; here the UUIDs are those of tests/telemetry/scenarios/p5_gpu0_mig.json.
#include <gtest/gtest.h>

#include "gpusizer/kernels/device_identity.hpp"

namespace gpusizer::kernels {
namespace {

std::vector<Target> p5_known() {
  std::vector<Target> known;
  for (int i = 0; i < 8; ++i) {
    Target g;
    g.id = "gpu" + std::to_string(i);
    g.kind = TargetKind::gpu;
    g.uuid = "GPU-5000000" + std::to_string(i) + "-0000-0000-0000-00000000000" + std::to_string(i);
    g.index = i;
    known.push_back(g);
  }
  Target m;
  m.id = "gpu0/mig-1g.10gb-gi13-ci0";
  m.kind = TargetKind::mig;
  m.uuid = "MIG-50000000-1g00-0000-0000-000000000003";
  m.parent = "gpu0";
  m.mig_profile = "1g.10gb";
  m.attributes = {{"gpu_instance_id", 13}};
  known.push_back(m);
  return known;
}

TEST(DeviceIdentity, ASliceGrantedWithoutCudaVisibleDevicesIsNamedFromNvmlsMigHandles) {
  // Inside a pod the device plugin may leave CUDA_VISIBLE_DEVICES unset: the slice is still
  // recognised by its UUID, with its parent GPU, so its board telemetry can be found.
  const DeviceIdentity d =
      identify_device("50000000-1g00-0000-0000-000000000003", 0,
                      "NVIDIA H100 80GB HBM3 MIG 1g.10gb", p5_known(), {}, std::nullopt);
  EXPECT_EQ(d.kind, TargetKind::mig);
  EXPECT_EQ(d.id, "gpu0/mig-1g.10gb-gi13-ci0");
  EXPECT_EQ(d.uuid, "MIG-50000000-1g00-0000-0000-000000000003");
  EXPECT_EQ(d.parent, "gpu0");
  EXPECT_EQ(d.mig_profile, "1g.10gb");
  EXPECT_EQ(d.attributes["gpu_instance_id"], 13);
  EXPECT_EQ(d.identified_by, "NVML UUID");
}

TEST(DeviceIdentity, WholeGpusAreNamedByNvmlIndexNotCudaOrdinal) {
  // CUDA_VISIBLE_DEVICES = GPUs 1-7: CUDA's ordinal 2 is NVML's GPU 3.
  const DeviceIdentity d = identify_device("50000003-0000-0000-0000-000000000003", 2,
                                           "NVIDIA H100 80GB HBM3", p5_known(), {}, std::nullopt);
  EXPECT_EQ(d.kind, TargetKind::gpu);
  EXPECT_EQ(d.id, "gpu3");
  EXPECT_EQ(d.nvml_index, 3);
  EXPECT_EQ(d.uuid, "GPU-50000003-0000-0000-0000-000000000003");
}

TEST(DeviceIdentity, WithoutAMatchTheOrdinalOrTheMigHintsName) {
  const DeviceIdentity plain = identify_device("abcdef01-0000-0000-0000-000000000000", 1,
                                               "NVIDIA H200", {}, {}, std::nullopt);
  EXPECT_EQ(plain.kind, TargetKind::gpu);
  EXPECT_EQ(plain.id, "gpu1");
  EXPECT_EQ(plain.uuid, "GPU-abcdef01-0000-0000-0000-000000000000");
  // NVML could not list GPU0's slices (no permission): an unmatched device there is a slice.
  const DeviceIdentity slice =
      identify_device("abcdef01-0000-0000-0000-000000000000", 0,
                      "NVIDIA H100 80GB HBM3 MIG 1g.10gb", p5_known(), {"gpu0"}, std::nullopt);
  EXPECT_EQ(slice.kind, TargetKind::mig);
  EXPECT_EQ(slice.parent, "gpu0");
  EXPECT_EQ(slice.mig_profile, "1g.10gb");
  EXPECT_EQ(slice.id, "gpu0/mig-1g.10gb-abcdef01");
  EXPECT_EQ(slice.uuid, "MIG-abcdef01-0000-0000-0000-000000000000");
  // No NVML at all, CUDA_VISIBLE_DEVICES naming a MIG device (the old rule, kept as a fallback).
  const DeviceIdentity hinted = identify_device("abcdef01-0000-0000-0000-000000000000", 0, "GPU",
                                                {}, {}, std::string("MIG-abcdef01"));
  EXPECT_EQ(hinted.kind, TargetKind::mig);
  EXPECT_EQ(hinted.parent, "unknown");
  EXPECT_EQ(hinted.mig_profile, "unknown");
}

TEST(DeviceIdentity, ProfileFromCudasName) {
  EXPECT_EQ(mig_profile_from_name("NVIDIA H100 80GB HBM3 MIG 3g.40gb"), "3g.40gb");
  EXPECT_EQ(mig_profile_from_name("NVIDIA H100 80GB HBM3"), "");
}

}  // namespace
}  // namespace gpusizer::kernels
