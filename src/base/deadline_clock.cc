#include "base/deadline_clock.h"

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace hostloop::base {
namespace {

bool ComputeTscIsTrusted() {
#if defined(__x86_64__)
  std::ifstream source("/sys/devices/system/clocksource/clocksource0/current_clocksource");
  std::string name;
  if (!(source >> name) || (name != "tsc" && name != "kvm-clock")) return false;
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream flags(line.substr(line.find(':') + 1));
    bool constant = false;
    bool nonstop = false;
    for (std::string flag; flags >> flag;) {
      constant = constant || flag == "constant_tsc";
      nonstop = nonstop || flag == "nonstop_tsc";
    }
    return constant && nonstop;  // (the first CPU's flags)
  }
#endif
  return false;
}

}  // namespace

bool DeadlineClock::TscIsTrusted() {
  static const bool trusted = ComputeTscIsTrusted();
  return trusted;
}

uint64_t DeadlineClock::ReadTsc() {
#if defined(__x86_64__)
  return __rdtsc();
#else
  return 0;
#endif
}

TimePoint DeadlineClock::Refresh() {
  if (tsc_ == nullptr) return Later(clock_->Now());
  const uint64_t before = tsc_();
  const TimePoint now = clock_->Now();
  const uint64_t after = tsc_();
  if (!started_) {
    started_ = true;
    first_ = now;
    first_tsc_after_ = after;
  } else if (ns_per_tick_ > 0) {
    // What Now() would say at `after`, which is later than the clock read:
    // below it, the rate or the counter is not what it seemed (a
    // preemption in between only raises it).
    if (after < base_tsc_ || Extrapolate(after - base_tsc_) < now) return TurnOffTsc(now);
  }
  base_ = now;
  base_tsc_ = before;  // (before the read: the ticks since overstate the time since)
  if (now - first_ >= kCalibrationSpan && before > first_tsc_after_) {
    // The counter ran at least before - first_tsc_after_ ticks between the
    // two clock reads: an upper bound on the time a tick takes.
    const double ns_per_tick = static_cast<double>((now - first_).count()) /
                               static_cast<double>(before - first_tsc_after_) * (1 + kRateMargin);
    // (A counter between 10 MHz and 100 GHz, or none.)
    if (!std::isfinite(ns_per_tick) || ns_per_tick < 0.01 || ns_per_tick > 100) {
      return TurnOffTsc(now);
    }
    ns_per_tick_ = ns_per_tick;
    refresh_ticks_ =
        static_cast<uint64_t>(static_cast<double>(kRefreshInterval.count()) / ns_per_tick);
  }
  return Later(now);
}

}  // namespace hostloop::base
