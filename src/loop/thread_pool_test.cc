#include "loop/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>

namespace hostloop::loop {
namespace {

TEST(ThreadPool, RunsEveryJobOnceOnAFixedSetOfThreads) {
  std::atomic<int> ran{0};
  std::mutex mutex;
  std::set<std::thread::id> threads;
  {
    ThreadPool pool(3);
    EXPECT_EQ(pool.size(), 3u);
    for (int i = 0; i < 1000; ++i) {
      pool.Submit([&] {
        ran.fetch_add(1);
        std::lock_guard lock(mutex);
        threads.insert(std::this_thread::get_id());
      });
    }
  }  // the destructor finishes queued jobs first
  EXPECT_EQ(ran.load(), 1000);
  EXPECT_LE(threads.size(), 3u);
  EXPECT_EQ(threads.count(std::this_thread::get_id()), 0u);
}

TEST(ThreadPool, SharedPoolIsSizedToTheMachine) {
  EXPECT_GE(ThreadPool::Shared().size(), 2u);
  EXPECT_EQ(&ThreadPool::Shared(), &ThreadPool::Shared());
}

}  // namespace
}  // namespace hostloop::loop
