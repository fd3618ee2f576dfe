#include "base/deadline_clock.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <random>
#include <thread>

namespace hostloop::base {
namespace {

using std::chrono::microseconds;
using std::chrono::milliseconds;
using std::chrono::nanoseconds;

// A simulated machine: true time in nanoseconds, a counter that ticks
// `ghz` times a nanosecond of it, and a clock that reads true time scaled by
// `clock_rate` (NTP slewing the clock against the counter). Each read of
// either costs `read_ns` of true time. The counter reader is a plain
// function, so the machine is a global.
struct Machine {
  double true_ns = 1e12;
  double ghz = 2.5;
  double ticks = 5e12;  // the counter, which runs at `ghz`
  double clock_rate = 1.0;
  double clock_ns = 1e12;  // the clock's reading at true_ns
  double read_ns = 20;
  int64_t tsc_offset = 1000;  // added to the counter (a jump: tests make it go back)
  int clock_reads = 0;

  void Pass(double ns) {
    true_ns += ns;
    ticks += ns * ghz;
    clock_ns += ns * clock_rate;
  }
};
Machine machine;

uint64_t FakeTsc() {
  machine.Pass(machine.read_ns);
  return static_cast<uint64_t>(machine.ticks + static_cast<double>(machine.tsc_offset));
}

class MachineClock final : public TickClock {
 public:
  TimePoint Now() const override {
    machine.Pass(machine.read_ns / 2);
    ++machine.clock_reads;
    TimePoint now = TimePoint(nanoseconds(static_cast<int64_t>(machine.clock_ns)));
    machine.Pass(machine.read_ns / 2);
    return now;
  }
};

// The clock's reading right now, without counting it as a read.
TimePoint ClockNow() { return TimePoint(nanoseconds(static_cast<int64_t>(machine.clock_ns))); }

class DeadlineClockTest : public ::testing::Test {
 protected:
  void SetUp() override { machine = Machine(); }
  MachineClock clock_;
};

TEST_F(DeadlineClockTest, NeverEarlierThanTheClockNorThanItselfAndNeverFarLater) {
  std::mt19937_64 rng(1);
  DeadlineClock deadlines(&clock_, FakeTsc);
  TimePoint previous = TimePoint::min();
  Duration worst{0};
  for (int i = 0; i < 2'000'000; ++i) {
    // Calls 5 ns to 50 us apart (a tight setTimeout loop, and pauses), and
    // the clock slewed by up to 500 ppm either way, changing at times.
    machine.Pass(rng() % 4 == 0 ? static_cast<double>(rng() % 50'000)
                                : 5 + static_cast<double>(rng() % 30));
    if (i % 100'000 == 0) machine.clock_rate = 1 + (static_cast<double>(rng() % 1001) - 500) * 1e-6;
    const TimePoint before = ClockNow();
    const TimePoint reading = deadlines.Now();
    ASSERT_GE(reading, before) << i;
    ASSERT_GE(reading, previous) << i;
    previous = reading;
    worst = std::max(worst, reading - ClockNow());
  }
  EXPECT_TRUE(deadlines.uses_tsc());
  // Later than the clock by the margin over a refresh interval and a read.
  EXPECT_LT(worst, nanoseconds(400)) << worst.count();
}

TEST_F(DeadlineClockTest, ReadsTheClockUntilCalibratedThenOncePerRefreshInterval) {
  DeadlineClock deadlines(&clock_, FakeTsc);
  // Calibrating: every reading is a clock read.
  for (int i = 0; i < 1000; ++i) {
    deadlines.Now();
    machine.Pass(1000);
  }
  EXPECT_EQ(machine.clock_reads, 1000);
  machine.Pass(static_cast<double>(DeadlineClock::kCalibrationSpan.count()));
  deadlines.Now();  // calibrates
  machine.clock_reads = 0;
  // 1 ms of calls 100 ns apart: one read per 100 us.
  for (int i = 0; i < 10'000; ++i) {
    deadlines.Now();
    machine.Pass(100);
  }
  EXPECT_GE(machine.clock_reads, 9);
  EXPECT_LE(machine.clock_reads, 12);
}

TEST_F(DeadlineClockTest, ACounterSlowerThanCalibratedTurnsItOff) {
  DeadlineClock deadlines(&clock_, FakeTsc);
  deadlines.Now();
  machine.Pass(30e6);
  deadlines.Now();  // calibrated at 2.5 ticks a nanosecond
  ASSERT_TRUE(deadlines.uses_tsc());
  // The counter slows by 4% (past the margin; a constant-rate TSC does not,
  // and NTP slews the clock by 500 ppm at most). Until the next refresh,
  // readings may fall behind the clock by that much of the refresh
  // interval; the refresh finds out.
  machine.ghz = 2.4;
  int calls = 0;
  while (deadlines.uses_tsc()) {
    machine.Pass(50);
    const TimePoint before = ClockNow();
    ASSERT_GE(deadlines.Now(), before - microseconds(5));
    ASSERT_LT(++calls, 2100);  // (100 us of 50 ns steps)
  }
  // Clock reads from now on, still never below the clock.
  machine.clock_reads = 0;
  for (int i = 0; i < 100; ++i) {
    const TimePoint before = ClockNow();
    ASSERT_GE(deadlines.Now(), before);
    machine.Pass(10);
  }
  EXPECT_EQ(machine.clock_reads, 100);
}

TEST_F(DeadlineClockTest, ACounterThatGoesBackTurnsItOff) {
  DeadlineClock deadlines(&clock_, FakeTsc);
  deadlines.Now();
  machine.Pass(30e6);
  deadlines.Now();
  ASSERT_TRUE(deadlines.uses_tsc());
  machine.tsc_offset = -500;  // another CPU's counter, behind
  const TimePoint before = ClockNow();
  EXPECT_GE(deadlines.Now(), before);
  EXPECT_FALSE(deadlines.uses_tsc());
}

TEST_F(DeadlineClockTest, WithoutACounterEveryReadingIsTheClocks) {
  DeadlineClock deadlines(&clock_, nullptr);
  for (int i = 0; i < 100; ++i) {
    const TimePoint before = ClockNow();
    ASSERT_GE(deadlines.Now(), before);
    machine.Pass(1e6);
  }
  EXPECT_EQ(machine.clock_reads, 100);
  EXPECT_FALSE(deadlines.uses_tsc());
  // A fake TickClock never gets the counter.
  FakeTickClock fake;
  EXPECT_FALSE(DeadlineClock(&fake).uses_tsc());
}

// The real counter against the real clock (the trust the kernel's
// clocksource gives it): readings taken in a tight loop and across sleeps
// of the thread are never below a clock read made before them.
TEST(DeadlineClock, TheMachinesCounterNeverReadsBelowItsClock) {
  const TickClock* clock = TickClock::Default();
  DeadlineClock deadlines(clock);
  if (!deadlines.uses_tsc())
    GTEST_SKIP() << "the TSC is not trusted here; readings are clock reads";
  TimePoint previous = TimePoint::min();
  Duration worst{0};
  for (int round = 0; round < 40; ++round) {
    for (int i = 0; i < 20'000; ++i) {
      const TimePoint before = clock->Now();
      const TimePoint reading = deadlines.Now();
      ASSERT_GE(reading, before);
      ASSERT_GE(reading, previous);
      previous = reading;
      worst = std::max(worst, reading - clock->Now());
    }
    std::this_thread::sleep_for(microseconds(700));  // (and maybe another CPU)
  }
  EXPECT_TRUE(deadlines.uses_tsc());
  EXPECT_LT(worst, milliseconds(1)) << worst.count();  // (generous: preemption)
}

}  // namespace
}  // namespace hostloop::base
