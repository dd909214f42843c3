// Idle power is measured with each GPU's context already open (bench::measure_idle_with_contexts):
// a device with a context draws more than one without, and every benchmark starts from the former.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpusizer/bench/runner.hpp"

namespace gpusizer::bench {
namespace {

// What happened, in order: "context gpu0", "idle", ...
using Log = std::vector<std::string>;

class FakeBackend final : public kernels::Backend {
 public:
  FakeBackend(std::string id, std::string kind, Log& log, bool fails = false)
      : log_(log), fails_(fails) {
    target_.id = std::move(id);
    target_.kind = *parse<TargetKind>(kind);
  }
  const Target& target() const override { return target_; }
  void open_context() override {
    if (fails_) throw RuntimeError("cudaFree: out of memory");
    log_.push_back("context " + target_.id);
  }
  std::unique_ptr<kernels::Workload> stream(const kernels::StreamCase&) override { return {}; }
  std::unique_ptr<kernels::Workload> copy(const kernels::CopyCase&) override { return {}; }
  std::unique_ptr<kernels::Workload> gemm(const kernels::GemmCase&) override { return {}; }
  std::unique_ptr<kernels::Workload> io_pipeline(const kernels::IoCase&) override { return {}; }
  std::vector<kernels::CopyKind> copy_kinds() const override { return {}; }
  std::vector<kernels::Dtype> gemm_dtypes() const override { return {}; }

 private:
  Target target_;
  Log& log_;
  bool fails_;
};

class FakeTelemetry final : public TelemetryProvider {
 public:
  explicit FakeTelemetry(Log& log) : log_(log) {}
  std::unique_ptr<TelemetryProbe> probe_for(const Target&) override {
    return std::make_unique<UnavailableProbe>("", "fake");
  }
  nlohmann::json measure_idle(const std::vector<Target>& targets) override {
    log_.push_back("idle");
    nlohmann::json out = nlohmann::json::object();
    for (const auto& t : targets) out[t.id] = {{"idle_power_watts", 100.0}};
    return out;
  }

 private:
  Log& log_;
};

TEST(IdlePower, EveryGpuContextIsOpenBeforeIdleIsMeasured) {
  Log log;
  FakeBackend cpu("cpu", "cpu", log), gpu0("gpu0", "gpu", log), gpu1("gpu1", "gpu", log);
  FakeTelemetry telemetry(log);
  std::vector<std::string> warnings;
  const nlohmann::json idle = measure_idle_with_contexts(
      {&cpu, &gpu0, &gpu1}, {cpu.target(), gpu0.target(), gpu1.target()}, telemetry, warnings);
  EXPECT_EQ(log, (Log{"context gpu0", "context gpu1", "idle"}));
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(idle["gpu0"]["conditions"], "CUDA context open on every measured GPU, nothing running");
  EXPECT_FALSE(idle["cpu"].contains("conditions"));
}

TEST(IdlePower, AContextThatCannotBeOpenedIsAWarningNotAFailure) {
  Log log;
  FakeBackend gpu0("gpu0", "gpu", log, /*fails=*/true);
  FakeTelemetry telemetry(log);
  std::vector<std::string> warnings;
  const nlohmann::json idle =
      measure_idle_with_contexts({&gpu0}, {gpu0.target()}, telemetry, warnings);
  EXPECT_EQ(log, Log{"idle"});
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("gpu0 measured without a context: cudaFree: out of memory"),
            std::string::npos);
  EXPECT_FALSE(idle["gpu0"].contains("conditions"));
}

}  // namespace
}  // namespace gpusizer::bench
