#include "v8/foreground_task_runner.h"

#include <chrono>

#include "base/check.h"
#include "v8/delayed_task_capture.h"

namespace hostloop::v8host {

void ForegroundTaskRunner::Post(std::unique_ptr<v8::Task> task, double delay_in_seconds,
                                loop::Nesting nesting) {
  std::shared_ptr<loop::EventLoop> loop = platform_->LoopFor(key_);
  if (!loop) return;  // the runtime is gone: V8 tolerates dropped tasks
  loop::Task entry = [task = std::move(task)] { task->Run(); };
  if (delay_in_seconds <= 0) {
    loop->PostInternal(std::move(entry), nesting);
    return;
  }
  auto delay = std::chrono::duration_cast<loop::Duration>(
      std::chrono::duration<double>(delay_in_seconds));
  loop::EventLoop::TimerId id =
      loop->ScheduleInternal(std::move(entry), delay, nesting, loop::Liveness::kWeak);
  // (The waitAsync wrapper learns its timeout task's entry this way.)
  DelayedTaskCapture::OnDelayedTaskPosted(*loop, nesting, id);
}

void ForegroundTaskRunner::PostTask(std::unique_ptr<v8::Task> task) {
  Post(std::move(task), 0, loop::Nesting::kNestable);
}

void ForegroundTaskRunner::PostNonNestableTask(std::unique_ptr<v8::Task> task) {
  Post(std::move(task), 0, loop::Nesting::kNonNestable);
}

void ForegroundTaskRunner::PostDelayedTask(std::unique_ptr<v8::Task> task,
                                           double delay_in_seconds) {
  Post(std::move(task), delay_in_seconds, loop::Nesting::kNestable);
}

void ForegroundTaskRunner::PostNonNestableDelayedTask(std::unique_ptr<v8::Task> task,
                                                      double delay_in_seconds) {
  Post(std::move(task), delay_in_seconds, loop::Nesting::kNonNestable);
}

void ForegroundTaskRunner::PostIdleTask(std::unique_ptr<v8::IdleTask> task) {
  // IdleTasksEnabled() is false, so V8 never posts these.
  CHECK_MSG(false, "idle tasks are disabled");
}

}  // namespace hostloop::v8host
