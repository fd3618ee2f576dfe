#include "runtime/timers.h"

#include <array>
#include <chrono>

#include "base/check.h"
#include "base/time.h"
#include "runtime/runtime.h"

namespace hostloop::runtime {
namespace {

// TimerQueue ids fit in 53 bits: exact as JS numbers.
double ToHandle(loop::EventLoop::TimerId id) { return static_cast<double>(id); }

}  // namespace

Timers::Timers(Runtime* runtime)
    : runtime_(runtime),
      cancel_store_(v8::ArrayBuffer::NewBackingStore(runtime->isolate(),
                                                     (kCancelCapacity + 1) * sizeof(double))),
      cancel_buffer_(static_cast<double*>(cancel_store_->Data())) {
  cancel_buffer_[0] = 0;
  // A timer's entry is a call entry: it holds no task (the callback is in
  // JS, found by the id), and this handler runs it.
  runtime_->event_loop().SetOrderedCallHandler(
      [this](loop::EventLoop::TimerId id, loop::TimePoint due, loop::Liveness liveness) {
        Fire(id, due, liveness == loop::Liveness::kWeak);
      });
}

Timers::~Timers() { runtime_->event_loop().SetOrderedCallHandler(nullptr); }

v8::Local<v8::Float64Array> Timers::CancelBuffer() {
  v8::Local<v8::ArrayBuffer> buffer = v8::ArrayBuffer::New(runtime_->isolate(), cancel_store_);
  return v8::Float64Array::New(buffer, 0, kCancelCapacity + 1);
}

double Timers::Start(double timeout_ms, bool weak) {
  // A fresh reading: the timeout is measured from this call.
  loop::TimePoint now = runtime_->event_loop().looper()->DeadlineNow();
  return Arm(now + base::DelayFromMilliseconds(timeout_ms), weak);
}

double Timers::Arm(loop::TimePoint due, bool weak) {
  loop::EventLoop& loop = runtime_->event_loop();
  if (loop.IsShutDownOnHomeThread()) return 0;
  loop::Liveness liveness = weak ? loop::Liveness::kWeak : loop::Liveness::kKeepsAlive;
  loop::EventLoop::TimerId id = loop.ScheduleOrderedCall(due, liveness);
  if (id == loop::TimerQueue::kInvalidId && FlushCancels() > 0) {
    // The queue was full, but timers cleared in this task still held their
    // slots (their cancels wait in the buffer): room again.
    id = loop.ScheduleOrderedCall(due, liveness);
  }
  if (id == loop::TimerQueue::kInvalidId) return kQueueFull;
  return ToHandle(id);
}

std::size_t Timers::FlushCancels() {
  std::size_t count = static_cast<std::size_t>(cancel_buffer_[0]);
  if (count == 0) return 0;
  if (count > kCancelCapacity) count = kCancelCapacity;
  // The ids as the loop takes them; one batch (CancelOrderedMany overlaps
  // the cache misses of ids spread over a large queue).
  std::array<loop::EventLoop::TimerId, kCancelCapacity> ids;
  for (std::size_t i = 0; i < count; ++i) {
    ids[i] = static_cast<loop::EventLoop::TimerId>(cancel_buffer_[i + 1]);
  }
  cancel_buffer_[0] = 0;
  return runtime_->event_loop().CancelOrderedMany(ids.data(), count);
}

double Timers::Rearm(double period_ms) {
  // Next phase point strictly after now; missed ticks are skipped.
  loop::TimePoint now = runtime_->event_loop().looper()->Now();
  loop::Duration period = base::DelayFromMilliseconds(period_ms);
  loop::TimePoint next = firing_due_ + period;
  if (next <= now) {
    if (period <= loop::Duration::zero()) {
      next = now;
    } else {
      auto missed = (now - firing_due_) / period;
      next = firing_due_ + (missed + 1) * period;
    }
  }
  return Arm(next, firing_weak_);
}

void Timers::Fire(loop::EventLoop::TimerId id, loop::TimePoint due, bool weak) {
  if (runtime_->stopping()) return;
  v8::Isolate* isolate = runtime_->isolate();
  v8::HandleScope scope(isolate);
  if (run_timer_.IsEmpty()) {
    v8::Local<v8::Function> run_timer;
    CHECK(runtime_->InternalFunction("runTimer").ToLocal(&run_timer));
    run_timer_.Reset(isolate, run_timer);
  }
  firing_due_ = due;
  firing_weak_ = weak;
  v8::Local<v8::Value> argv[] = {v8::Number::New(isolate, ToHandle(id))};
  v8::Local<v8::Value> result;
  if (!runtime_->CallAndReport(run_timer_.Get(isolate), v8::Undefined(isolate), 1, argv)
           .ToLocal(&result)) {
    // The callback threw and was reported with its own location; the timer
    // still finishes (an interval re-arms).
    v8::Local<v8::Function> finish;
    if (!runtime_->stopping() && runtime_->InternalFunction("finishTimer").ToLocal(&finish)) {
      runtime_->CallAndReport(finish, v8::Undefined(isolate), 0, nullptr);
    }
  }
}

}  // namespace hostloop::runtime
