#include "gpu_probe.hpp"

#include "window_summary.hpp"

namespace gpusizer::telemetry {

GpuProbe::GpuProbe(std::shared_ptr<GpuSensor> reader, double sample_period_seconds,
                   std::string attribution)
    : reader_(std::move(reader)),
      period_seconds_(sample_period_seconds),
      attribution_(std::move(attribution)) {}

GpuProbe::~GpuProbe() {
  if (sampler_) sampler_->stop();
}

void GpuProbe::take_sample(bool counters) {
  const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::lock_guard lock(mutex_);
  if (auto s = reader_->read(t, counters)) samples_.push_back(*s);
}

void GpuProbe::begin() {
  if (sampler_) sampler_->stop();
  samples_.clear();
  start_ = std::chrono::steady_clock::now();
  take_sample(true);
  sampler_ = std::make_unique<PeriodicSampler>(std::chrono::duration<double>(period_seconds_),
                                               [this] { take_sample(false); });
}

TelemetryWindow GpuProbe::end() {
  if (sampler_) sampler_->stop();
  sampler_.reset();
  take_sample(true);
  TelemetryWindow w;
  if (samples_.empty()) {
    w.source = TelemetrySource::unavailable;
    w.scope = "GPU board power (NVML)";
    w.unavailable_reason =
        reader_->lost() ? reader_->lost_reason() : "no NVML sample could be read";
    w.notes = reader_->statics().notes;
  } else {
    w = summarize_gpu_window(samples_, reader_->statics(), period_seconds_);
    if (reader_->lost()) w.notes.push_back(reader_->lost_reason() + " (during the window)");
  }
  w.attribution = attribution_;
  return w;
}

}  // namespace gpusizer::telemetry
