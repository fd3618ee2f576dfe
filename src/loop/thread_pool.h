// ThreadPool: a fixed set of threads (one per core by default, never one per
// request) for blocking native work such as file I/O. A job runs on a pool
// thread; its completion is the caller's business (hostloop posts it to the
// runtime's internal lane). Thread-safe.
#pragma once

#include <condition_variable>
#include <thread>
#include <vector>

#include "base/ring_queue.h"
#include "base/thread_annotations.h"
#include "base/unique_function.h"

namespace hostloop::loop {

class ThreadPool {
 public:
  // `threads` 0 = std::thread::hardware_concurrency() (at least 2).
  explicit ThreadPool(std::size_t threads = 0);
  // Finishes queued jobs, then joins the threads.
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // The process-wide pool for native modules, created on first use.
  static ThreadPool& Shared();

  // Runs `job` on a pool thread, in submission order among free threads.
  void Submit(base::Task job);
  std::size_t size() const { return threads_.size(); }

 private:
  void WorkerMain();

  base::Mutex mutex_;
  std::condition_variable_any wake_;
  base::RingQueue<base::Task> jobs_ GUARDED_BY(mutex_);
  bool stopping_ GUARDED_BY(mutex_) = false;
  std::vector<std::thread> threads_;
};

}  // namespace hostloop::loop
