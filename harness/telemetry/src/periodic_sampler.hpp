// A thread that calls `sample()` every period until stopped. begin/end sampling stays with the
// owner (synchronous first and last samples), so a window always has its two end points.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace gpusizer::telemetry {

class PeriodicSampler {
 public:
  PeriodicSampler(std::chrono::duration<double> period, std::function<void()> sample)
      : period_(std::chrono::duration_cast<std::chrono::steady_clock::duration>(period)),
        sample_(std::move(sample)),
        thread_([this] { loop(); }) {}
  ~PeriodicSampler() { stop(); }
  PeriodicSampler(const PeriodicSampler&) = delete;
  PeriodicSampler& operator=(const PeriodicSampler&) = delete;

  void stop() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

 private:
  void loop() {
    auto next = std::chrono::steady_clock::now() + period_;
    std::unique_lock lock(mutex_);
    while (!wake_.wait_until(lock, next, [this] { return stopping_; })) {
      lock.unlock();
      sample_();
      lock.lock();
      next += period_;
      const auto now = std::chrono::steady_clock::now();
      if (next < now) next = now + period_;  // fell behind: do not burst
    }
  }

  std::chrono::steady_clock::duration period_;
  std::function<void()> sample_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;  // last member: starts after the others exist
};

}  // namespace gpusizer::telemetry
