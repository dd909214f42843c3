// Persistent worker threads, one per logical CPU this process may run on, each pinned to its CPU
// where the kernel allows it. A parallel region hands every worker its index; work is partitioned
// statically by the caller, so the thread that first touches a slice of an array is the thread
// that later works on it (first-touch NUMA placement, as BabelStream's OpenMP version does).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace gpusizer::kernels::cpu {

// CPUs in this process's affinity mask (at least 1).
std::size_t allowed_cpu_count();

class ThreadPool {
 public:
  // threads = 0: one per CPU in the process's affinity mask.
  explicit ThreadPool(std::size_t threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  std::size_t size() const { return workers_.size(); }
  // True when every worker was pinned to its own CPU.
  bool pinned() const { return pinned_; }
  // "pinned to CPUs 0-15" or "not pinned (<why>)", for details().
  std::string placement() const { return placement_; }

  // Runs fn(worker_index) on every worker and returns when all are done. fn must not throw.
  // One region at a time; the call itself allocates nothing.
  void run(const std::function<void(std::size_t)>& fn);

  // [begin, end) of `count` items for worker `index` under static partitioning, with block
  // boundaries rounded to `align_items` (keeps each worker's slice cache-line aligned).
  static void partition(std::size_t count, std::size_t workers, std::size_t index,
                        std::size_t align_items, std::size_t& begin, std::size_t& end);

 private:
  void worker_main(std::size_t index);

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable start_cv_;
  std::condition_variable done_cv_;
  const std::function<void(std::size_t)>* task_ = nullptr;
  std::size_t generation_ = 0;
  std::size_t remaining_ = 0;
  bool stopping_ = false;
  bool pinned_ = false;
  std::string placement_;
  std::mutex region_mutex_;  // serialises callers of run()
};

}  // namespace gpusizer::kernels::cpu
