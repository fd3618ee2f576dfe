// Timers: the native half of HTML timers (J1; the JS half is js/timers.js).
// Each live timer is one entry in the ordered lane of the runtime's
// EventLoop, keyed by (deadline, sequence), so timers fire in HTML order and
// interleave with every other ordered-lane entry (L3). Intervals keep their
// phase: the next deadline is the first `start + k * timeout` after now, so a
// stalled loop skips missed ticks instead of bursting. Home thread only.
#pragma once

#include <v8.h>

#include <cstdint>
#include <unordered_map>

#include "loop/event_loop.h"

namespace hostloop::runtime {

class Runtime;

class Timers {
 public:
  explicit Timers(Runtime* runtime) : runtime_(runtime) {}

  // Arms timer `id` due `timeout_ms` from now. A weak timer does not keep
  // the runtime alive.
  void Start(int32_t id, double timeout_ms, bool weak);
  // Disarms timer `id`; unknown ids are ignored. No wakeup is left behind.
  void Cancel(int32_t id);
  std::size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    loop::EventLoop::TimerId queue_id;
    loop::TimePoint due;
    bool weak;
  };

  void Arm(int32_t id, loop::TimePoint due, bool weak);
  void Fire(int32_t id);

  Runtime* const runtime_;
  std::unordered_map<int32_t, Entry> entries_;
  v8::Global<v8::Function> run_timer_;
};

}  // namespace hostloop::runtime
