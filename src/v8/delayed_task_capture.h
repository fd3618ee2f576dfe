// DelayedTaskCapture: learns which internal-lane entry holds the delayed
// task V8 posts during one call into V8.
//
// Why: V8 never cancels a platform task. When an Atomics.waitAsync with a
// finite timeout is notified, V8 marks its timeout task aborted, and the
// entry would wait in the lane's timer queue until its deadline, holding
// memory and waking the loop for nothing. The waitAsync wrapper
// (runtime/builtin_liveness.cc) opens a capture around its call to the
// builtin, which posts that task synchronously, and cancels the entry when
// the wait's promise settles.
//
// While a capture is the innermost one of its thread, ForegroundTaskRunner
// reports to it every non-nestable delayed task it posts for the capture's
// loop (V8 10.2 posts the timeout with PostNonNestableDelayedTask).
// Not counted: posts made on other threads (the capture is thread-local),
// posts for another runtime's loop, immediate and nestable ones, and posts
// made while a capture nested inside it is open (a waitAsync called from a
// valueOf during the outer call counts its own). id() names an entry only
// when exactly one post was counted: with two (a GC task V8 posted during
// the call, say), nobody can tell which is the waitAsync's, and the capture
// names none, rather than let its owner cancel a task V8 still needs.
#pragma once

#include "loop/event_loop.h"

namespace hostloop::v8host {

class DelayedTaskCapture {
 public:
  // On `loop`'s home thread: opens the capture, as the innermost one.
  explicit DelayedTaskCapture(const loop::EventLoop& loop);
  // Closes it; captures close in the reverse order they opened.
  ~DelayedTaskCapture();
  DelayedTaskCapture(const DelayedTaskCapture&) = delete;
  DelayedTaskCapture& operator=(const DelayedTaskCapture&) = delete;

  // The entry of the one task counted so far, else kInvalidId (none, or
  // more than one).
  loop::EventLoop::TimerId id() const { return posts_ == 1 ? id_ : loop::TimerQueue::kInvalidId; }

  // ForegroundTaskRunner, after scheduling a delayed task as entry `id` of
  // `loop`'s internal lane; any thread. Counts it in this thread's
  // innermost capture when it is one that capture watches.
  static void OnDelayedTaskPosted(const loop::EventLoop& loop, loop::Nesting nesting,
                                  loop::EventLoop::TimerId id);

 private:
  const loop::EventLoop* const loop_;
  DelayedTaskCapture* const outer_;
  loop::EventLoop::TimerId id_ = loop::TimerQueue::kInvalidId;
  int posts_ = 0;
};

}  // namespace hostloop::v8host
