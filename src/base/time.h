// Typed time for the whole project, read through an injectable clock so tests
// control it. All deadlines are monotonic (steady_clock) with ns resolution.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace hostloop::base {

using Duration = std::chrono::nanoseconds;
using TimePoint = std::chrono::time_point<std::chrono::steady_clock, Duration>;

class TickClock {
 public:
  virtual ~TickClock() = default;
  // Thread-safe. Never goes backwards.
  virtual TimePoint Now() const = 0;

  // The process-wide monotonic clock.
  static const TickClock* Default();
};

// A clock that only moves when told. Thread-safe.
class FakeTickClock final : public TickClock {
 public:
  explicit FakeTickClock(TimePoint start = TimePoint(std::chrono::hours(1)))
      : now_ns_(start.time_since_epoch().count()) {}

  TimePoint Now() const override { return TimePoint(Duration(now_ns_.load())); }
  void Advance(Duration delta) { now_ns_.fetch_add(delta.count()); }

 private:
  std::atomic<int64_t> now_ns_;
};

// The longest delay anything waits for: ~100 years. `now + delay` cannot
// overflow with it.
inline constexpr Duration kMaxDelay = std::chrono::hours(24 * 365 * 100);

// The deadline `delay` after `now`, with the delay capped at kMaxDelay: an
// embedder's Duration::max() means "practically never", not an overflow into
// the past (which ran the task at once).
inline TimePoint DueAfter(TimePoint now, Duration delay) {
  return now + (delay < kMaxDelay ? delay : kMaxDelay);
}

// A delay given in (fractional) milliseconds, as JS gives them: negative or
// NaN is zero, and a longer one than kMaxDelay waits kMaxDelay (converting
// a double beyond int64's range to nanoseconds is undefined: a postTask
// delay of 1e13 ms became a delay in the past and ran at once).
inline Duration DelayFromMilliseconds(double ms) {
  if (!(ms > 0)) return Duration::zero();
  const double max_ms = std::chrono::duration<double, std::milli>(kMaxDelay).count();
  if (ms >= max_ms) return kMaxDelay;
  return std::chrono::duration_cast<Duration>(std::chrono::duration<double, std::milli>(ms));
}

// Rounds a duration up to whole milliseconds, for APIs that take ms (poll()).
inline int64_t CeilMilliseconds(Duration d) {
  return std::chrono::ceil<std::chrono::milliseconds>(d).count();
}

}  // namespace hostloop::base
