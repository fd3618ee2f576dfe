#include "base/time.h"

#include <gtest/gtest.h>

#include <chrono>
#include <limits>

namespace hostloop::base {
namespace {

TEST(DelayFromMilliseconds, ConvertsFractionsAndClampsNegativeAndNaNToZero) {
  EXPECT_EQ(DelayFromMilliseconds(1.5), std::chrono::microseconds(1500));
  EXPECT_EQ(DelayFromMilliseconds(0), Duration::zero());
  EXPECT_EQ(DelayFromMilliseconds(-5), Duration::zero());
  EXPECT_EQ(DelayFromMilliseconds(std::numeric_limits<double>::quiet_NaN()), Duration::zero());
}

TEST(DelayFromMilliseconds, SaturatesInsteadOfOverflowing) {
  // 9.3e12 ms is 9.3e18 ns, past int64: it must not wrap to a past deadline.
  EXPECT_EQ(DelayFromMilliseconds(9.3e12), kMaxDelay);
  EXPECT_EQ(DelayFromMilliseconds(9007199254740991.0), kMaxDelay);
  EXPECT_EQ(DelayFromMilliseconds(std::numeric_limits<double>::infinity()), kMaxDelay);
  EXPECT_GT(DelayFromMilliseconds(9e11), Duration::zero());
  // now + the longest delay still fits, for any now within a century of the
  // clock's epoch (boot, for the steady clock).
  EXPECT_GT((TimePoint::max() - kMaxDelay).time_since_epoch(), std::chrono::hours(24 * 365 * 100));
}

}  // namespace
}  // namespace hostloop::base
