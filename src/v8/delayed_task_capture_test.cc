// DelayedTaskCapture with the real ForegroundTaskRunner: which of V8's
// posts a capture takes, and that its id cancels exactly that task.
#include "v8/delayed_task_capture.h"

#include <gtest/gtest.h>
#include <v8-platform.h>

#include <memory>
#include <thread>

#include "loop/looper.h"
#include "v8/foreground_task_runner.h"
#include "v8/host_platform.h"

namespace hostloop::v8host {
namespace {

constexpr double kMinute = 60;

// Counts its runs and its destruction.
class CountingTask final : public v8::Task {
 public:
  CountingTask(int* runs, int* destroyed) : runs_(runs), destroyed_(destroyed) {}
  ~CountingTask() override { ++*destroyed_; }
  void Run() override { ++*runs_; }

 private:
  int* runs_;
  int* destroyed_;
};

// A runtime's loop and the runner V8 would get for its isolate (the
// platform only files the isolate pointer; it is never dereferenced).
class DelayedTaskCaptureTest : public ::testing::Test {
 protected:
  struct Runtime {
    std::shared_ptr<loop::EventLoop> loop;
    std::shared_ptr<v8::TaskRunner> runner;
  };

  void SetUp() override { looper_ = std::move(loop::Looper::Create()).value(); }
  void TearDown() override {
    for (Runtime* runtime : {&first_, &second_}) {
      if (runtime->loop) runtime->loop->Shutdown();
    }
  }

  Runtime& Start(Runtime& runtime, int* fake_isolate) {
    runtime.loop = loop::EventLoop::Create();
    runtime.loop->Bind(looper_.get());
    auto* isolate = reinterpret_cast<v8::Isolate*>(fake_isolate);
    platform_.RegisterIsolate(isolate, runtime.loop);
    runtime.runner = platform_.GetForegroundTaskRunner(isolate);
    return runtime;
  }

  std::unique_ptr<v8::Task> Task() { return std::make_unique<CountingTask>(&runs_, &destroyed_); }

  HostPlatform platform_{1};
  std::unique_ptr<loop::Looper> looper_;
  int isolate_a_ = 0;
  int isolate_b_ = 0;
  Runtime first_;
  Runtime second_;
  int runs_ = 0;
  int destroyed_ = 0;
};

TEST_F(DelayedTaskCaptureTest, TakesTheOneNonNestableDelayedPostAndItsIdCancelsIt) {
  Runtime& runtime = Start(first_, &isolate_a_);
  loop::EventLoop::TimerId id;
  {
    DelayedTaskCapture capture(*runtime.loop);
    EXPECT_EQ(capture.id(), loop::TimerQueue::kInvalidId);
    runtime.runner->PostNonNestableDelayedTask(Task(), kMinute);
    id = capture.id();
  }
  ASSERT_NE(id, loop::TimerQueue::kInvalidId);
  EXPECT_GT(looper_->NextTimeoutMs(), 50'000);
  EXPECT_TRUE(runtime.loop->CancelInternal(id));
  EXPECT_EQ(destroyed_, 1);
  EXPECT_EQ(looper_->NextTimeoutMs(), -1);
  EXPECT_EQ(runs_, 0);
}

TEST_F(DelayedTaskCaptureTest, LeavesImmediateNestableAndOtherRuntimesPostsAlone) {
  Runtime& mine = Start(first_, &isolate_a_);
  Runtime& other = Start(second_, &isolate_b_);
  DelayedTaskCapture capture(*mine.loop);
  mine.runner->PostTask(Task());
  mine.runner->PostNonNestableTask(Task());
  mine.runner->PostDelayedTask(Task(), kMinute);
  other.runner->PostNonNestableDelayedTask(Task(), kMinute);
  EXPECT_EQ(capture.id(), loop::TimerQueue::kInvalidId);
}

TEST_F(DelayedTaskCaptureTest, LeavesPostsFromOtherThreadsAlone) {
  Runtime& runtime = Start(first_, &isolate_a_);
  DelayedTaskCapture capture(*runtime.loop);
  std::thread([&] { runtime.runner->PostNonNestableDelayedTask(Task(), kMinute); }).join();
  EXPECT_EQ(capture.id(), loop::TimerQueue::kInvalidId);
}

// Which of two is the waitAsync's cannot be told: neither is named.
TEST_F(DelayedTaskCaptureTest, NamesNoneWhenTwoWerePosted) {
  Runtime& runtime = Start(first_, &isolate_a_);
  DelayedTaskCapture capture(*runtime.loop);
  runtime.runner->PostNonNestableDelayedTask(Task(), kMinute);
  runtime.runner->PostNonNestableDelayedTask(Task(), 2 * kMinute);
  EXPECT_EQ(capture.id(), loop::TimerQueue::kInvalidId);
}

// A waitAsync called from a valueOf during another one's call: each
// capture takes the post made while it was the innermost.
TEST_F(DelayedTaskCaptureTest, ANestedCaptureTakesItsOwnPostOnly) {
  Runtime& runtime = Start(first_, &isolate_a_);
  DelayedTaskCapture outer(*runtime.loop);
  loop::EventLoop::TimerId inner_id;
  {
    DelayedTaskCapture inner(*runtime.loop);
    runtime.runner->PostNonNestableDelayedTask(Task(), kMinute);
    inner_id = inner.id();
  }
  ASSERT_NE(inner_id, loop::TimerQueue::kInvalidId);
  runtime.runner->PostNonNestableDelayedTask(Task(), 2 * kMinute);
  ASSERT_NE(outer.id(), loop::TimerQueue::kInvalidId);
  EXPECT_NE(outer.id(), inner_id);
  EXPECT_TRUE(runtime.loop->CancelInternal(inner_id));
  EXPECT_GT(looper_->NextTimeoutMs(), 100'000);  // the outer one's is left
  EXPECT_TRUE(runtime.loop->CancelInternal(outer.id()));
}

TEST_F(DelayedTaskCaptureTest, PostsWithNoCaptureOpenStillRun) {
  Runtime& runtime = Start(first_, &isolate_a_);
  runtime.runner->PostNonNestableDelayedTask(Task(), 0.001);
  runtime.loop->Ref();
  runtime.runner->PostNonNestableDelayedTask(Task(), 0.002);
  runtime.loop->PostInternalDelayed([&] { runtime.loop->Unref(); }, std::chrono::milliseconds(3));
  looper_->Run();
  EXPECT_EQ(runs_, 2);
  EXPECT_EQ(destroyed_, 2);
}

}  // namespace
}  // namespace hostloop::v8host
