#include "loop/thread_pool.h"

#include <algorithm>

#include "loop/run_guarded.h"

namespace hostloop::loop {

ThreadPool::ThreadPool(std::size_t threads) {
  if (threads == 0) threads = std::max(2u, std::thread::hardware_concurrency());
  threads_.reserve(threads);
  for (std::size_t i = 0; i < threads; ++i) threads_.emplace_back([this] { WorkerMain(); });
}

ThreadPool::~ThreadPool() {
  {
    base::MutexLock lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

ThreadPool& ThreadPool::Shared() {
  // Leaked on purpose: pool threads may still be finishing jobs while
  // static destructors run at exit.
  static ThreadPool* pool = new ThreadPool();
  return *pool;
}

void ThreadPool::Submit(base::Task job) {
  {
    base::MutexLock lock(mutex_);
    jobs_.push_back(std::move(job));
  }
  wake_.notify_one();
}

void ThreadPool::WorkerMain() {
  while (true) {
    base::Task job;
    {
      std::unique_lock<base::Mutex> lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;  // stopping, and everything is done
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    RunGuarded(
        [&job] {
          job();
          job.Reset();
        },
        "a thread-pool job");
  }
}

}  // namespace hostloop::loop
