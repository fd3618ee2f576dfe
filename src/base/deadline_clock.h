// DeadlineClock: readings to compute deadlines from ("due `timeout` from
// now", a setTimeout), at a fraction of a clock read's cost.
//
// A reading is
//  - never earlier than the clock's time at the call, so a deadline made
//    from it is never early;
//  - never earlier than a reading it returned before, so deadlines set one
//    after another with equal timeouts keep their order (HTML timers);
//  - later than the clock by at most ~200 ns (kRateMargin of
//    kRefreshInterval) plus one clock read.
//
// Between clock reads it extrapolates with the CPU's time-stamp counter: on
// these VMs a kvm-clock read (vDSO, serializing) costs ~26 ns, a plain
// RDTSC ~11, and a million setTimeout()s spent half their time reading the
// clock. The last clock read is paired with the TSC read just before it, so
// the ticks since then overstate the time since then; the rate is
// calibrated against the clock over the object's life, as an upper bound
// (the TSC read after the first pair and before the latest), plus
// kRateMargin for NTP slewing the clock by up to 500 ppm afterwards. The
// clock is read again once kRefreshInterval has passed by the TSC, or when
// the TSC went backwards; a reading below the clock's at that point (the
// TSC not what it seemed) turns the TSC off for good.
//
// The TSC is used only with the system clock (TickClock::Default()), on
// x86-64, when the kernel's clocksource reads it too (tsc or kvm-clock) and
// the CPU says it ticks at a constant rate through sleep states: the same
// trust the vDSO puts in it. Otherwise, and until the calibration has
// kCalibrationSpan behind it, every reading is a clock read.
//
// Not thread-safe: one per thread (a Looper's).
#pragma once

#include <cstdint>

#include "base/time.h"

namespace hostloop::base {

class DeadlineClock {
 public:
  using TscReader = uint64_t (*)();

  // For `clock`: with the TSC when `clock` is TickClock::Default() and
  // TscIsTrusted().
  explicit DeadlineClock(const TickClock* clock)
      : DeadlineClock(clock, clock == TickClock::Default() && TscIsTrusted() ? ReadTsc : nullptr) {}
  // Tests: with `tsc` as the counter (nullptr: none).
  DeadlineClock(const TickClock* clock, TscReader tsc) : clock_(clock), tsc_(tsc) {}

  TimePoint Now() {
    if (ns_per_tick_ > 0) {
      const uint64_t ticks = tsc_() - base_tsc_;  // huge if the TSC went backwards
      if (ticks < refresh_ticks_) return Later(Extrapolate(ticks));
    }
    return Refresh();
  }

  // Whether the TSC is still in use (false once it was found wrong).
  bool uses_tsc() const { return tsc_ != nullptr; }

  // x86-64, the kernel's clocksource is tsc or kvm-clock, and /proc/cpuinfo
  // lists constant_tsc and nonstop_tsc. Read once per process.
  static bool TscIsTrusted();
  static uint64_t ReadTsc();

  static constexpr Duration kRefreshInterval = std::chrono::microseconds(100);
  static constexpr Duration kCalibrationSpan = std::chrono::milliseconds(20);
  static constexpr double kRateMargin = 2e-3;

 private:
  // A clock read (with the TSC's pairs around it, and calibration).
  TimePoint Refresh();
  // The latest clock read plus `ticks` at the calibrated rate. (+1: the
  // product is truncated.)
  TimePoint Extrapolate(uint64_t ticks) const {
    return base_ + Duration(static_cast<int64_t>(static_cast<double>(ticks) * ns_per_tick_) + 1);
  }
  // Stops using the TSC, for good; returns the reading for clock read `now`.
  TimePoint TurnOffTsc(TimePoint now) {
    tsc_ = nullptr;
    ns_per_tick_ = 0;
    return Later(now);
  }
  TimePoint Later(TimePoint t) {
    if (t > last_) last_ = t;
    return last_;
  }

  const TickClock* const clock_;
  TscReader tsc_;
  // The first clock read and the TSC right after it: the calibration's start.
  TimePoint first_{};
  uint64_t first_tsc_after_ = 0;
  bool started_ = false;
  // The latest clock read and the TSC right before it.
  TimePoint base_{};
  uint64_t base_tsc_ = 0;
  // Nanoseconds a tick, an upper bound; 0 until calibrated (or without TSC).
  double ns_per_tick_ = 0;
  uint64_t refresh_ticks_ = 0;
  TimePoint last_ = TimePoint::min();
};

}  // namespace hostloop::base
