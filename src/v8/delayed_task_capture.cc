#include "v8/delayed_task_capture.h"

#include "base/check.h"

namespace hostloop::v8host {
namespace {

// This thread's innermost open capture (a stack linked through outer_).
constinit thread_local DelayedTaskCapture* innermost = nullptr;

}  // namespace

DelayedTaskCapture::DelayedTaskCapture(const loop::EventLoop& loop)
    : loop_(&loop), outer_(innermost) {
  DCHECK(loop.IsHomeThread());
  innermost = this;
}

DelayedTaskCapture::~DelayedTaskCapture() {
  CHECK_MSG(innermost == this, "DelayedTaskCapture scopes must nest");
  innermost = outer_;
}

void DelayedTaskCapture::OnDelayedTaskPosted(const loop::EventLoop& loop, loop::Nesting nesting,
                                             loop::EventLoop::TimerId id) {
  DelayedTaskCapture* capture = innermost;
  if (capture == nullptr || capture->loop_ != &loop || nesting != loop::Nesting::kNonNestable ||
      id == loop::TimerQueue::kInvalidId) {
    return;
  }
  capture->id_ = id;
  ++capture->posts_;
}

}  // namespace hostloop::v8host
