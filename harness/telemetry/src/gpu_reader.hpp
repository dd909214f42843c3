// Reads one GPU's sensors through the NVML function table, with the current NVML names and the
// deprecated ones only where the driver lacks the current symbol. What a failed call means:
// - NVML_ERROR_GPU_IS_LOST or NVML_ERROR_RESET_REQUIRED: the GPU is gone until a reset; the
//   whole reader stops (lost()).
// - an answer that will not change (not supported, no permission, symbol missing, ...): that
//   metric is switched off with a note, so the sampler does not pay for it again.
// - anything else (unknown error, timeout, ...) is transient: recorded on the sample and the
//   metric is read again at the next sample.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "gpu_sample.hpp"
#include "gpu_sensor.hpp"
#include "nvml_library.hpp"

namespace gpusizer::telemetry {

// What a reader reads: a physical GPU's board (every sensor and counter), or a MIG device handle
// (nvmlDeviceGetMigDeviceHandleByIndex), where NVML answers per instance only for memory used and
// total (utilization is tried: most drivers answer NOT_SUPPORTED, and a note says so). Power,
// clocks, temperature and counters belong to the board and are not read on a slice.
enum class ReaderScope { board, mig_slice };

class GpuReader final : public GpuSensor {
 public:
  GpuReader(std::shared_ptr<NvmlLibrary> nvml, nvmlDevice_t device,
            ReaderScope scope = ReaderScope::board);

  const GpuStatics& statics() const override { return statics_; }
  // A sample stamped with t_seconds; nullopt once the GPU is lost. `counters` also reads the
  // ECC, remapped-row and retired-page counters (a window's first and last sample only).
  std::optional<GpuSample> read(double t_seconds, bool counters = false) override;
  bool lost() const override { return !lost_reason_.empty(); }
  const std::string& lost_reason() const override { return lost_reason_; }

 private:
  // True on success; otherwise classifies the error as above. A transient error is added to
  // `sample` when there is one (else to the notes).
  bool ok(nvmlReturn_t rc, bool& enabled, const char* metric, GpuSample* sample);
  std::optional<double> read_power_watts(GpuSample* sample);
  void read_default_clock();
  void read_counters(GpuSample& s);
  void read_memory_health(GpuSample& s);
  // False (with a note, once) when the driver lacks `symbol`.
  bool has_symbol(bool present, bool& enabled, const char* metric, const char* symbol);

  std::shared_ptr<NvmlLibrary> nvml_;
  nvmlDevice_t device_;
  GpuStatics statics_;
  std::string lost_reason_;
  bool instant_field_ = true;
  bool power_usage_ = true;
  bool energy_ = true;
  bool utilization_ = true;
  bool memory_info_ = true;
  bool sm_clock_ = true;
  bool memory_clock_ = true;
  bool temperature_ = true;
  bool reasons_ = true;
  bool ecc_ = true;
  bool remapped_rows_ = true;
  bool retired_pages_ = true;
  bool retired_pages_pending_ = true;
};

}  // namespace gpusizer::telemetry
