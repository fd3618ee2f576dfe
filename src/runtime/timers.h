// Timers: the native half of HTML timers (J1; the JS half is js/timers.js).
// Each live timer is one entry in the ordered lane of the runtime's
// EventLoop, keyed by (deadline, sequence), so timers fire in HTML order and
// interleave with every other ordered-lane entry (L3). A timer's id is its
// entry's id, so this side keeps no table. clearTimeout queues entries in a
// shared buffer instead of calling in; FlushCancels() cancels them at the
// end of the task (before the loop decides how long to sleep, so a cleared
// timer never causes a wakeup). Intervals keep their phase: the next deadline
// is the first `due + k * period` after now, so a stalled loop skips missed
// ticks instead of bursting. Home thread only.
#pragma once

#include <v8.h>

#include <cstdint>
#include <memory>

#include "loop/event_loop.h"

namespace hostloop::runtime {

class Runtime;

class Timers {
 public:
  // Runs the runtime's ordered-lane call entries (its timers) from now on.
  explicit Timers(Runtime* runtime);
  ~Timers();
  Timers(const Timers&) = delete;
  Timers& operator=(const Timers&) = delete;

  // Arms an entry due `timeout_ms` from now and returns its id (a JS-safe
  // number; 0 when the runtime is shutting down). A weak timer does not
  // keep the runtime alive.
  // What Start and Rearm return when the loop's queue has no room left
  // (the JS call throws a RangeError).
  static constexpr double kQueueFull = -1;
  double Start(double timeout_ms, bool weak);
  // From inside the firing timer's callback: arms its next repetition at
  // the next phase point. Returns the new entry's id.
  double Rearm(double period_ms);
  // Cancels the entries queued in the cancel buffer; returns how many were
  // still pending.
  std::size_t FlushCancels();
  // The cancel buffer, for JS: [count, id, id, ...].
  v8::Local<v8::Float64Array> CancelBuffer();

 private:
  static constexpr std::size_t kCancelCapacity = 1024;

  double Arm(loop::TimePoint due, bool weak);
  void Fire(loop::EventLoop::TimerId id, loop::TimePoint due, bool weak);

  Runtime* const runtime_;
  v8::Global<v8::Function> run_timer_;
  std::shared_ptr<v8::BackingStore> cancel_store_;
  double* cancel_buffer_;
  // The timer whose callback is running (for Rearm).
  loop::TimePoint firing_due_{};
  bool firing_weak_ = false;
};

}  // namespace hostloop::runtime
