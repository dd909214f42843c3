#include "thread_pool.hpp"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>

namespace gpusizer::kernels::cpu {
namespace {

std::vector<int> allowed_cpus() {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    for (int c = 0; c < CPU_SETSIZE; ++c) {
      if (CPU_ISSET(c, &set)) cpus.push_back(c);
    }
  }
  return cpus;
}

std::string cpu_list(const std::vector<int>& cpus) {
  std::string out;
  std::size_t i = 0;
  while (i < cpus.size()) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!out.empty()) out += ",";
    out += std::to_string(cpus[i]);
    if (j > i) out += "-" + std::to_string(cpus[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace

std::size_t allowed_cpu_count() {
  const std::size_t n = allowed_cpus().size();
  if (n > 0) return n;
  return std::max(1u, std::thread::hardware_concurrency());
}

ThreadPool::ThreadPool(std::size_t threads) {
  std::vector<int> cpus = allowed_cpus();
  std::size_t count = threads;
  if (count == 0)
    count = cpus.empty() ? std::max(1u, std::thread::hardware_concurrency()) : cpus.size();
  // Pin only when there is one allowed CPU per worker; otherwise let the scheduler place them.
  const bool pin = !cpus.empty() && count <= cpus.size();
  std::atomic<int> pin_failures{0};
  workers_.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const int cpu = pin ? cpus[i] : -1;
    workers_.emplace_back([this, i, cpu, &pin_failures] {
      if (cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set) != 0) ++pin_failures;
      }
      worker_main(i);
    });
  }
  // A first (empty) region guarantees every worker has pinned itself before we report placement.
  run([](std::size_t) {});
  pinned_ = pin && pin_failures.load() == 0;
  if (pinned_) {
    cpus.resize(count);
    placement_ = "pinned, one worker per CPU (" + cpu_list(cpus) + ")";
  } else if (!pin) {
    placement_ = "not pinned (more workers than allowed CPUs)";
  } else {
    placement_ = "not pinned (pthread_setaffinity_np refused)";
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  start_cv_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::run(const std::function<void(std::size_t)>& fn) {
  std::lock_guard region(region_mutex_);
  std::unique_lock lock(mutex_);
  task_ = &fn;
  remaining_ = workers_.size();
  ++generation_;
  start_cv_.notify_all();
  done_cv_.wait(lock, [this] { return remaining_ == 0; });
  task_ = nullptr;
}

void ThreadPool::worker_main(std::size_t index) {
  std::size_t seen = 0;
  for (;;) {
    const std::function<void(std::size_t)>* task = nullptr;
    {
      std::unique_lock lock(mutex_);
      start_cv_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
      task = task_;
    }
    (*task)(index);
    {
      std::lock_guard lock(mutex_);
      if (--remaining_ == 0) done_cv_.notify_one();
    }
  }
}

void ThreadPool::partition(std::size_t count, std::size_t workers, std::size_t index,
                           std::size_t align_items, std::size_t& begin, std::size_t& end) {
  if (align_items == 0) align_items = 1;
  const std::size_t blocks = (count + align_items - 1) / align_items;
  const std::size_t per = blocks / workers;
  const std::size_t extra = blocks % workers;
  const std::size_t first_block = index * per + std::min(index, extra);
  const std::size_t block_count = per + (index < extra ? 1 : 0);
  begin = std::min(count, first_block * align_items);
  end = std::min(count, (first_block + block_count) * align_items);
}

}  // namespace gpusizer::kernels::cpu
