#include "v8/host_platform.h"

#include <libplatform/libplatform.h>

#include "base/check.h"
#include "v8/foreground_task_runner.h"

namespace hostloop::v8host {

HostPlatform::HostPlatform(int thread_pool_size)
    : default_platform_(v8::platform::NewDefaultPlatform(
          thread_pool_size, v8::platform::IdleTaskSupport::kDisabled)) {
  if (v8::PageAllocator* inner = default_platform_->GetPageAllocator()) {
    page_allocator_ = std::make_unique<HugePageAllocator>(inner);
  }
}

HostPlatform::~HostPlatform() = default;

RuntimeKey HostPlatform::RegisterIsolate(v8::Isolate* isolate,
                                         std::shared_ptr<loop::EventLoop> loop) {
  base::MutexLock lock(mutex_);
  RuntimeKey key = next_key_++;
  // A stale entry at this address belongs to a disposed isolate: replace it.
  by_isolate_[isolate] = Registration{key, std::make_shared<ForegroundTaskRunner>(this, key)};
  loops_[key] = std::move(loop);
  return key;
}

void HostPlatform::UnregisterIsolate(v8::Isolate* isolate, RuntimeKey key) {
  std::shared_ptr<v8::TaskRunner> runner;  // released outside the lock
  base::MutexLock lock(mutex_);
  loops_.erase(key);
  auto it = by_isolate_.find(isolate);
  if (it != by_isolate_.end() && it->second.key == key) {
    runner = std::move(it->second.runner);
    by_isolate_.erase(it);
  }
}

std::shared_ptr<loop::EventLoop> HostPlatform::LoopFor(RuntimeKey key) {
  base::MutexLock lock(mutex_);
  auto it = loops_.find(key);
  return it == loops_.end() ? nullptr : it->second.lock();
}

v8::PageAllocator* HostPlatform::GetPageAllocator() { return page_allocator_.get(); }

int HostPlatform::NumberOfWorkerThreads() { return default_platform_->NumberOfWorkerThreads(); }

std::shared_ptr<v8::TaskRunner> HostPlatform::GetForegroundTaskRunner(v8::Isolate* isolate) {
  base::MutexLock lock(mutex_);
  auto it = by_isolate_.find(isolate);
  CHECK_MSG(it != by_isolate_.end(),
            "V8 asked for the task runner of an isolate hostloop did not register");
  return it->second.runner;
}

void HostPlatform::CallOnWorkerThread(std::unique_ptr<v8::Task> task) {
  default_platform_->CallOnWorkerThread(std::move(task));
}

void HostPlatform::CallDelayedOnWorkerThread(std::unique_ptr<v8::Task> task,
                                             double delay_in_seconds) {
  default_platform_->CallDelayedOnWorkerThread(std::move(task), delay_in_seconds);
}

std::unique_ptr<v8::JobHandle> HostPlatform::PostJob(v8::TaskPriority priority,
                                                     std::unique_ptr<v8::JobTask> job_task) {
  return default_platform_->PostJob(priority, std::move(job_task));
}

double HostPlatform::MonotonicallyIncreasingTime() {
  return default_platform_->MonotonicallyIncreasingTime();
}

double HostPlatform::CurrentClockTimeMillis() { return default_platform_->CurrentClockTimeMillis(); }

v8::TracingController* HostPlatform::GetTracingController() {
  return default_platform_->GetTracingController();
}

}  // namespace hostloop::v8host
