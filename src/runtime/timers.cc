#include "runtime/timers.h"

#include <chrono>

#include "base/check.h"
#include "runtime/runtime.h"

namespace hostloop::runtime {
namespace {

loop::Duration Milliseconds(double ms) {
  return std::chrono::duration_cast<loop::Duration>(std::chrono::duration<double, std::milli>(ms));
}

}  // namespace

void Timers::Start(int32_t id, double timeout_ms, bool weak) {
  loop::EventLoop& loop = runtime_->event_loop();
  // A fresh clock reading: the timeout is measured from this call.
  Arm(id, loop.looper()->Now() + Milliseconds(timeout_ms < 0 ? 0 : timeout_ms), weak);
}

void Timers::Arm(int32_t id, loop::TimePoint due, bool weak) {
  loop::EventLoop& loop = runtime_->event_loop();
  loop::Liveness liveness = weak ? loop::Liveness::kWeak : loop::Liveness::kKeepsAlive;
  loop::EventLoop::TimerId queue_id =
      loop.ScheduleOrderedAt([this, id] { Fire(id); }, due, liveness);
  if (queue_id == loop::TimerQueue::kInvalidId) return;  // shut down
  entries_[id] = Entry{queue_id, due, weak};
}

void Timers::Cancel(int32_t id) {
  auto it = entries_.find(id);
  if (it == entries_.end()) return;
  runtime_->event_loop().CancelOrdered(it->second.queue_id);
  entries_.erase(it);
}

void Timers::Fire(int32_t id) {
  auto it = entries_.find(id);
  if (it == entries_.end()) return;
  Entry entry = it->second;
  entries_.erase(it);
  if (runtime_->stopping()) return;

  v8::Isolate* isolate = runtime_->isolate();
  v8::HandleScope scope(isolate);
  if (run_timer_.IsEmpty()) {
    v8::Local<v8::Function> run_timer;
    CHECK(runtime_->InternalFunction("runTimer").ToLocal(&run_timer));
    run_timer_.Reset(isolate, run_timer);
  }
  v8::Local<v8::Value> argv[] = {v8::Integer::New(isolate, id)};
  v8::Local<v8::Value> result;
  if (!runtime_->CallAndReport(run_timer_.Get(isolate), v8::Undefined(isolate), 1, argv)
           .ToLocal(&result)) {
    // The callback threw and was reported with its own location; the timer
    // still finishes (an interval keeps running).
    v8::Local<v8::Function> finish;
    if (runtime_->stopping() || !runtime_->InternalFunction("finishTimer").ToLocal(&finish) ||
        !runtime_->CallAndReport(finish, v8::Undefined(isolate), 0, nullptr).ToLocal(&result)) {
      return;
    }
  }
  if (!result->IsNumber()) return;
  double timeout_ms = result.As<v8::Number>()->Value();
  if (timeout_ms < 0 || entries_.count(id) != 0) return;

  // Next phase point strictly after now; missed ticks are skipped.
  loop::TimePoint now = runtime_->event_loop().looper()->Now();
  loop::Duration period = Milliseconds(timeout_ms);
  loop::TimePoint next = entry.due + period;
  if (next <= now) {
    if (period <= loop::Duration::zero()) {
      next = now;
    } else {
      auto missed = (now - entry.due) / period;
      next = entry.due + (missed + 1) * period;
    }
  }
  Arm(id, next, entry.weak);
}

}  // namespace hostloop::runtime
