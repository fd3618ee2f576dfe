#include "base/unique_function.h"

#include <gtest/gtest.h>

#include <array>
#include <memory>

namespace hostloop::base {
namespace {

TEST(UniqueFunction, SmallCaptureRunsAndDestroysOnce) {
  auto counter = std::make_shared<int>(0);
  {
    Task task = [counter] { ++*counter; };
    EXPECT_EQ(counter.use_count(), 2);
    task();
    task();
    EXPECT_EQ(*counter, 2);
  }
  EXPECT_EQ(counter.use_count(), 1);
}

TEST(UniqueFunction, LargeCaptureGoesToHeapAndMoves) {
  std::array<int, 64> big{};
  big[63] = 7;
  int seen = 0;
  Task task = [big, &seen] { seen = big[63]; };
  Task moved = std::move(task);
  EXPECT_FALSE(task);
  moved();
  EXPECT_EQ(seen, 7);
}

TEST(UniqueFunction, MoveOnlyCaptureAndReset) {
  auto owned = std::make_unique<int>(5);
  int* raw = owned.get();
  UniqueFunction<int()> f = [p = std::move(owned)] { return *p; };
  EXPECT_EQ(f(), 5);
  UniqueFunction<int()> g;
  g = std::move(f);
  EXPECT_EQ(g(), 5);
  EXPECT_EQ(*raw, 5);
  g.Reset();
  EXPECT_FALSE(g);
}

TEST(UniqueFunction, PassesArguments) {
  UniqueFunction<int(int, int)> add = [](int a, int b) { return a + b; };
  EXPECT_EQ(add(2, 3), 5);
}

TEST(UniqueFunction, KnowsWhenDestroyingDoesNothing) {
  int value = 0;
  UniqueFunction<void()> empty;
  UniqueFunction<void()> trivial = [&value] { ++value; };
  auto shared = std::make_shared<int>(1);
  UniqueFunction<void()> owning = [shared] {};
  struct Big {
    char bytes[64];
  };
  UniqueFunction<void()> on_heap = [big = Big{}] { (void)big; };
  EXPECT_TRUE(empty.IsTriviallyDestructible());
  EXPECT_TRUE(trivial.IsTriviallyDestructible());
  EXPECT_FALSE(owning.IsTriviallyDestructible());  // drops a reference
  EXPECT_FALSE(on_heap.IsTriviallyDestructible());  // frees its block
  UniqueFunction<void()> moved = std::move(owning);
  EXPECT_TRUE(owning.IsTriviallyDestructible());  // NOLINT(bugprone-use-after-move): empty now
  EXPECT_FALSE(moved.IsTriviallyDestructible());
}

}  // namespace
}  // namespace hostloop::base
