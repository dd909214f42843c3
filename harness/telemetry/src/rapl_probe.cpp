#include "rapl_probe.hpp"

#include <algorithm>

#include "gpusizer/stats.hpp"

namespace gpusizer::telemetry {

RaplProbe::RaplProbe(RaplReader reader, double sample_period_seconds)
    : reader_(std::move(reader)), period_seconds_(sample_period_seconds) {}

RaplProbe::~RaplProbe() {
  if (sampler_) sampler_->stop();
}

void RaplProbe::take_sample() {
  const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  auto counters = reader_.read();
  std::lock_guard lock(mutex_);
  if (counters) readings_.push_back(Reading{t, std::move(*counters)});
}

void RaplProbe::begin() {
  if (sampler_) sampler_->stop();
  readings_.clear();
  start_ = std::chrono::steady_clock::now();
  take_sample();
  sampler_ = std::make_unique<PeriodicSampler>(std::chrono::duration<double>(period_seconds_),
                                               [this] { take_sample(); });
}

TelemetryWindow RaplProbe::end() {
  if (sampler_) sampler_->stop();
  sampler_.reset();
  take_sample();
  TelemetryWindow w;
  w.scope = "CPU package (RAPL)";
  if (readings_.size() < 2) {
    w.source = TelemetrySource::unavailable;
    w.unavailable_reason = "fewer than two RAPL readings could be taken";
    return w;
  }
  w.source = TelemetrySource::rapl;
  w.sample_count = readings_.size();
  w.sample_period_seconds = period_seconds_;
  w.duration_seconds = readings_.back().t_seconds - readings_.front().t_seconds;
  double joules = 0;
  std::vector<double> rates;
  for (std::size_t i = 1; i < readings_.size(); ++i) {
    const double e = reader_.delta_joules(readings_[i - 1].counters, readings_[i].counters);
    joules += e;
    const double dt = readings_[i].t_seconds - readings_[i - 1].t_seconds;
    if (dt > 0) rates.push_back(e / dt);
  }
  w.energy_joules = joules;
  w.energy_method = "energy counter delta";
  w.power_field = "rapl energy rate";
  if (w.duration_seconds > 0) w.power_mean_watts = joules / w.duration_seconds;
  if (!rates.empty()) {
    std::sort(rates.begin(), rates.end());
    w.power_peak_watts = rates.back();
    w.power_p5_watts = percentile_sorted(rates, 0.05);
    w.power_p95_watts = percentile_sorted(rates, 0.95);
  }
  w.attribution = "whole CPU package(s): " + std::to_string(reader_.domains().size()) +
                  " RAPL package domain(s), including work of other processes";
  return w;
}

}  // namespace gpusizer::telemetry
