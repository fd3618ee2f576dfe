// LoopSource: a lane a Looper services once per pass besides its own ordered
// queue. EventLoop's internal lane is the one implementation; the interface
// keeps Looper ignorant of what a runtime is.
#pragma once

#include <cstdint>

#include <cstddef>

#include "base/time.h"

namespace hostloop::loop {

// Whether a pending entry, fd watch or handle keeps its loop running (J3).
enum class Liveness { kKeepsAlive, kWeak };

// How much one lane may run in one pass (L4): whichever limit comes first.
struct LaneBudget {
  std::size_t max_entries;
  base::Duration max_time;
};

class LoopSource {
 public:
  virtual ~LoopSource() = default;

  // Home thread. Runs a bounded snapshot of the entries due at `now`: only
  // entries present when the call starts, at most `budget`.
  virtual void RunDue(base::TimePoint now, const LaneBudget& budget) = 0;

  // Home thread. When this source next has work: TimePoint::min() if some is
  // due now, TimePoint::max() if none is scheduled.
  virtual base::TimePoint NextDue() = 0;

  // Home thread. Whether pending work here should keep the loop running (J3).
  virtual bool KeepsAlive() = 0;

  // The owner its ordered-lane entries carry (TimerMeta::owner); 0 = none.
  virtual uint32_t entry_owner() const { return 0; }
  // Home thread. Called right before each entry of this source runs: its
  // own (RunDue) and the ordered-lane entries posted with its owner. (A V8
  // runtime makes its isolate the thread's current one here: several
  // runtimes may share a Looper.)
  virtual void BeforeEntry() {}
  // Home thread. Runs an ordered-lane call entry of this source's
  // (Looper::ScheduleCall with its entry_owner()): the entry `id`, due at
  // `due`, scheduled with `liveness`. A source that schedules none is never
  // called.
  virtual void RunOrderedCall(uint64_t /*id*/, base::TimePoint /*due*/, Liveness /*liveness*/) {}
};

}  // namespace hostloop::loop
