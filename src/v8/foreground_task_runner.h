// ForegroundTaskRunner: the v8::TaskRunner V8 gets for an isolate. Every
// post goes to the internal lane of the isolate's EventLoop, found through
// the platform by RuntimeKey on each post (L11); posts after the runtime is
// gone are dropped. Delayed tasks wait in the loop's own timer queue (no
// helper thread, no polling, LESSONS 2) and never keep the runtime alive:
// they are V8 housekeeping (J3); a DelayedTaskCapture open on the posting
// thread learns their entry ids. Idle tasks are disabled.
#pragma once

#include <v8-platform.h>

#include <memory>

#include "v8/host_platform.h"

namespace hostloop::v8host {

class ForegroundTaskRunner final : public v8::TaskRunner {
 public:
  ForegroundTaskRunner(HostPlatform* platform, RuntimeKey key) : platform_(platform), key_(key) {}

  // All thread-safe: V8 posts from its worker threads too.
  void PostTask(std::unique_ptr<v8::Task> task) override;
  void PostNonNestableTask(std::unique_ptr<v8::Task> task) override;
  void PostDelayedTask(std::unique_ptr<v8::Task> task, double delay_in_seconds) override;
  void PostNonNestableDelayedTask(std::unique_ptr<v8::Task> task,
                                  double delay_in_seconds) override;
  void PostIdleTask(std::unique_ptr<v8::IdleTask> task) override;
  bool IdleTasksEnabled() override { return false; }
  bool NonNestableTasksEnabled() const override { return true; }
  bool NonNestableDelayedTasksEnabled() const override { return true; }

 private:
  void Post(std::unique_ptr<v8::Task> task, double delay_in_seconds, loop::Nesting nesting);

  HostPlatform* const platform_;
  const RuntimeKey key_;
};

}  // namespace hostloop::v8host
