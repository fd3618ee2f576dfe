// HostPlatform: hostloop's v8::Platform. Worker threads, jobs, clocks and
// tracing are libplatform's default platform; each isolate's foreground task
// runner is served by the EventLoop of the runtime that owns the isolate, so
// every task V8 posts (Atomics.waitAsync wakeups, FinalizationRegistry
// cleanup, async WebAssembly compile steps, GC tasks) wakes that runtime's
// loop and runs there, followed by a microtask checkpoint (L5, J2).
//
// Isolate lifetime (L11): isolates register under a RuntimeKey that is never
// reused. A runner carries its key and resolves the loop on every post, so a
// new isolate at a disposed one's address never reaches the old loop, and the
// old runtime's late unregister (matched on the key) never evicts the new one.
#pragma once

#include <v8-platform.h>

#include <cstdint>
#include <memory>
#include <unordered_map>

#include "base/thread_annotations.h"
#include "loop/event_loop.h"
#include "v8/huge_page_allocator.h"

namespace hostloop::v8host {

using RuntimeKey = uint64_t;

class HostPlatform final : public v8::Platform {
 public:
  // `thread_pool_size` 0 = one per core minus one (libplatform's default).
  explicit HostPlatform(int thread_pool_size = 0);
  ~HostPlatform() override;

  // Thread-safe. Call between v8::Isolate::Allocate() and Initialize(): V8
  // asks for the foreground runner inside Initialize (tasks posted then are
  // buffered by the unbound loop, L2). Returns the isolate's key.
  RuntimeKey RegisterIsolate(v8::Isolate* isolate, std::shared_ptr<loop::EventLoop> loop);
  // Thread-safe. Removes the registration only while it is still `key`'s.
  void UnregisterIsolate(v8::Isolate* isolate, RuntimeKey key);
  // Thread-safe. The loop registered under `key`, or nullptr once gone.
  std::shared_ptr<loop::EventLoop> LoopFor(RuntimeKey key);

  // From now on V8's large read-write commits are populated at once
  // (HugePageAllocator::EnablePopulate). Thread-safe.
  void PopulateLargeCommits() {
    if (page_allocator_) page_allocator_->EnablePopulate();
  }

  // v8::Platform
  v8::PageAllocator* GetPageAllocator() override;
  int NumberOfWorkerThreads() override;
  std::shared_ptr<v8::TaskRunner> GetForegroundTaskRunner(v8::Isolate* isolate) override;
  void CallOnWorkerThread(std::unique_ptr<v8::Task> task) override;
  void CallDelayedOnWorkerThread(std::unique_ptr<v8::Task> task, double delay_in_seconds) override;
  bool IdleTasksEnabled(v8::Isolate* isolate) override { return false; }
  std::unique_ptr<v8::JobHandle> PostJob(v8::TaskPriority priority,
                                         std::unique_ptr<v8::JobTask> job_task) override;
  double MonotonicallyIncreasingTime() override;
  double CurrentClockTimeMillis() override;
  v8::TracingController* GetTracingController() override;

 private:
  struct Registration {
    RuntimeKey key;
    std::shared_ptr<v8::TaskRunner> runner;
  };

  std::unique_ptr<v8::Platform> default_platform_;
  // The default platform's page allocator with huge pages behind large
  // commits; null when it has none (V8 then uses its own).
  std::unique_ptr<HugePageAllocator> page_allocator_;

  base::Mutex mutex_;
  RuntimeKey next_key_ GUARDED_BY(mutex_) = 1;
  std::unordered_map<v8::Isolate*, Registration> by_isolate_ GUARDED_BY(mutex_);
  std::unordered_map<RuntimeKey, std::weak_ptr<loop::EventLoop>> loops_ GUARDED_BY(mutex_);
};

}  // namespace hostloop::v8host
