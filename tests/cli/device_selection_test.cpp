// Device selection (harness/telemetry/device_selection.hpp), pure: NVML inventories built by hand
// after tests/telemetry/scenarios/p5_gpu0_mig.json (8 x H100, GPU0 in MIG mode with 4 slices).
#include <gtest/gtest.h>

#include <algorithm>

#include "gpusizer/telemetry/device_selection.hpp"

namespace gpusizer::telemetry {
namespace {

std::string gpu_uuid(int i) {
  return "GPU-5000000" + std::to_string(i) + "-0000-0000-0000-00000000000" + std::to_string(i);
}

Target slice(const std::string& profile, int gi, const std::string& uuid) {
  Target t;
  t.kind = TargetKind::mig;
  t.id = "gpu0/mig-" + profile + "-gi" + std::to_string(gi) + "-ci0";
  t.name = "NVIDIA H100 80GB HBM3 MIG " + profile;
  t.uuid = uuid;
  t.parent = "gpu0";
  t.mig_profile = profile;
  return t;
}

// A p5.48xlarge: 8 GPUs, only GPU0 in MIG mode (3g + 2g + 1g + 1g).
NvmlInventory p5(const std::string& mig_error = "") {
  NvmlInventory inv;
  inv.available = true;
  for (int i = 0; i < 8; ++i) {
    NvmlGpu g;
    g.index = static_cast<unsigned int>(i);
    g.id = "gpu" + std::to_string(i);
    g.uuid = gpu_uuid(i);
    g.name = "NVIDIA H100 80GB HBM3";
    g.mig_mode = g.mig_pending_mode = i == 0 ? MigState::enabled : MigState::disabled;
    if (i == 0) g.mig_enumeration_error = mig_error;
    inv.gpus.push_back(g);
  }
  if (mig_error.empty()) {
    inv.mig_targets = {slice("3g.40gb", 1, "MIG-50000000-3g00-0000-0000-000000000001"),
                       slice("2g.20gb", 5, "MIG-50000000-2g00-0000-0000-000000000002"),
                       slice("1g.10gb", 13, "MIG-50000000-1g00-0000-0000-000000000003"),
                       slice("1g.10gb", 14, "MIG-50000000-1g00-0000-0000-000000000004")};
  }
  return inv;
}

std::vector<std::string> ids(const std::vector<Target>& targets) {
  std::vector<std::string> out;
  for (const auto& t : targets) out.push_back(t.id);
  return out;
}

bool has_warning(const DeviceSelection& s, const std::string& part) {
  return std::any_of(s.warnings.begin(), s.warnings.end(),
                     [&](const std::string& w) { return w.find(part) != std::string::npos; });
}

TEST(DeviceSelection, P5WithGpu0InMigModeMeasuresTheSevenWholeGpusByUuidAndGpu0sSlices) {
  const DeviceSelection s = select_devices(p5(), {std::nullopt, {}});
  EXPECT_EQ(ids(s.whole_gpus),
            (std::vector<std::string>{"gpu1", "gpu2", "gpu3", "gpu4", "gpu5", "gpu6", "gpu7"}));
  // CUDA_VISIBLE_DEVICES is set to the seven UUIDs, in NVML order: without it, CUDA would show
  // one slice of GPU0 and hide GPUs 1-7 (kokkos#6529).
  std::string expected;
  for (int i = 1; i < 8; ++i) expected += (i > 1 ? "," : "") + gpu_uuid(i);
  ASSERT_TRUE(s.set_cuda_visible_devices.has_value());
  EXPECT_EQ(*s.set_cuda_visible_devices, expected);
  EXPECT_TRUE(s.parent_measures_gpus);
  EXPECT_EQ(ids(s.mig_slices).size(), 4u);
  EXPECT_EQ(ids(s.mig_parents), std::vector<std::string>{"gpu0"});
  EXPECT_TRUE(has_warning(s, "gpu0 (NVIDIA H100 80GB HBM3): MIG enabled; measured per MIG slice"));
  EXPECT_NE(s.explanation.find("7 whole GPUs"), std::string::npos) << s.explanation;
  EXPECT_NE(s.explanation.find("4 MIG slices"), std::string::npos) << s.explanation;
  EXPECT_EQ(s.known_devices.size(), 12u);  // 8 GPUs + 4 slices, for naming CUDA's devices
  const auto j = to_json(s);
  EXPECT_EQ(j["cuda_visible_devices_set"], expected);
  EXPECT_TRUE(j["cuda_visible_devices_found"].is_null());
}

TEST(DeviceSelection, GpusAreNvmlIndicesMappedThroughUuids) {
  const DeviceSelection s = select_devices(p5(), {std::nullopt, {0, 3, 5, 9}});
  EXPECT_EQ(ids(s.whole_gpus), (std::vector<std::string>{"gpu3", "gpu5"}));
  EXPECT_EQ(*s.set_cuda_visible_devices, gpu_uuid(3) + "," + gpu_uuid(5));
  EXPECT_EQ(s.mig_slices.size(), 4u);    // gpu0 requested: its slices
  EXPECT_TRUE(s.cuda_ordinals.empty());  // CUDA sees exactly the two: no ordinal filter
  EXPECT_TRUE(has_warning(s, "--gpus: GPU 9 does not exist"));
  const DeviceSelection only_mig = select_devices(p5(), {std::nullopt, {0}});
  EXPECT_FALSE(only_mig.parent_measures_gpus);
  EXPECT_TRUE(only_mig.whole_gpus.empty());
  EXPECT_EQ(only_mig.mig_slices.size(), 4u);
}

TEST(DeviceSelection, ASchedulersCudaVisibleDevicesIsAGrant) {
  // Slurm gave GPUs 2 and 3 by UUID: measure exactly those, leave the variable as it is, say so.
  const std::string grant = gpu_uuid(2) + "," + gpu_uuid(3);
  const DeviceSelection s = select_devices(p5(), {grant, {}});
  EXPECT_EQ(ids(s.whole_gpus), (std::vector<std::string>{"gpu2", "gpu3"}));
  EXPECT_FALSE(s.set_cuda_visible_devices.has_value());
  EXPECT_TRUE(s.mig_slices.empty());
  EXPECT_TRUE(has_warning(s, "CUDA_VISIBLE_DEVICES=" + grant + " was set before gpusizer"));
  EXPECT_EQ(to_json(s)["cuda_visible_devices_found"], grant);
  // Integer entries are NVML (PCI bus) indices; --gpus narrows the grant, never widens it.
  const DeviceSelection n = select_devices(p5(), {std::string("4,5"), {5, 6}});
  EXPECT_EQ(ids(n.whole_gpus), std::vector<std::string>{"gpu5"});
  EXPECT_EQ(*n.set_cuda_visible_devices, gpu_uuid(5));
  EXPECT_TRUE(has_warning(n, "--gpus: gpu6 is not granted by CUDA_VISIBLE_DEVICES=4,5"));
}

TEST(DeviceSelection, AGrantedMigSliceIsMeasuredInAChildAndTheParentKeepsTheWholeGpus) {
  const DeviceSelection s =
      select_devices(p5(), {gpu_uuid(1) + ",MIG-50000000-2g00-0000-0000-000000000002", {}});
  EXPECT_EQ(ids(s.whole_gpus), std::vector<std::string>{"gpu1"});
  EXPECT_EQ(ids(s.mig_slices), std::vector<std::string>{"gpu0/mig-2g.20gb-gi5-ci0"});
  EXPECT_EQ(ids(s.mig_parents), std::vector<std::string>{"gpu0"});
  // The parent must not see the slice: its CUDA_VISIBLE_DEVICES is narrowed to the whole GPU.
  EXPECT_EQ(*s.set_cuda_visible_devices, gpu_uuid(1));
}

TEST(DeviceSelection, NoPermissionToListSlicesIsRecordedAndTheOtherGpusAreStillMeasured) {
  const std::string error =
      "nvmlDeviceGetMigDeviceHandleByIndex: NVML_ERROR_NO_PERMISSION (Insufficient Permissions)";
  const DeviceSelection s = select_devices(p5(error), {std::nullopt, {}});
  EXPECT_EQ(s.whole_gpus.size(), 7u);
  EXPECT_TRUE(s.mig_slices.empty());
  EXPECT_EQ(s.gpus_with_unlisted_slices, std::vector<std::string>{"gpu0"});
  EXPECT_TRUE(has_warning(s, "NVML_ERROR_NO_PERMISSION"));
  EXPECT_TRUE(has_warning(s, "its slices are not measured"));
}

TEST(DeviceSelection, NoPermissionWithOnlyMigGpusFallsBackToWhatCudaExposes) {
  // A pod granted a slice, without MIG monitoring rights: NVML sees one GPU in MIG mode and
  // cannot list its slices. Never "no slices, nothing to measure": CUDA decides, untouched.
  NvmlInventory inv = p5("nvmlDeviceGetMigDeviceHandleByIndex: NVML_ERROR_NO_PERMISSION (...)");
  inv.gpus.resize(1);
  const DeviceSelection s = select_devices(inv, {std::nullopt, {}});
  EXPECT_TRUE(s.parent_measures_gpus);
  EXPECT_FALSE(s.set_cuda_visible_devices.has_value());
  EXPECT_EQ(s.basis, "CUDA's own");
  EXPECT_TRUE(has_warning(s, "NVML_ERROR_NO_PERMISSION"));
  EXPECT_TRUE(has_warning(s, "measuring the devices CUDA itself exposes"));
  EXPECT_EQ(ids(s.mig_parents), std::vector<std::string>{"gpu0"});
}

TEST(DeviceSelection, WithoutNvmlCudaDecidesAndGpusAreCudaOrdinals) {
  NvmlInventory inv;
  inv.unavailable_reason = "cannot load libnvidia-ml.so.1";
  const DeviceSelection s = select_devices(inv, {std::nullopt, {1}});
  EXPECT_TRUE(s.parent_measures_gpus);
  EXPECT_FALSE(s.set_cuda_visible_devices.has_value());
  EXPECT_EQ(s.cuda_ordinals, std::vector<int>{1});
  EXPECT_TRUE(s.known_devices.empty());
  EXPECT_NE(s.explanation.find("cannot load libnvidia-ml.so.1"), std::string::npos);
}

TEST(DeviceSelection, AnEntryNvmlDoesNotKnowLeavesTheGrantToCuda) {
  const DeviceSelection s = select_devices(p5(), {std::string("GPU-ffffffff"), {}});
  EXPECT_FALSE(s.set_cuda_visible_devices.has_value());
  EXPECT_TRUE(s.parent_measures_gpus);
  EXPECT_TRUE(has_warning(s, "\"GPU-ffffffff\" matches no single device NVML lists"));
}

}  // namespace
}  // namespace gpusizer::telemetry
