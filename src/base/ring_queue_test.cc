#include "base/ring_queue.h"

#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <random>

namespace hostloop::base {
namespace {

TEST(RingQueue, IsFifoAcrossWrapAndGrowth) {
  // Interleaved pushes and pops against std::deque: the head wraps around
  // the buffer many times and the buffer grows while wrapped.
  RingQueue<std::unique_ptr<int>> ring;
  std::deque<int> reference;
  std::mt19937 rng(7);
  int next = 0;
  for (int step = 0; step < 100000; ++step) {
    bool push = reference.empty() || rng() % 100 < (step < 50000 ? 55u : 45u);
    if (push) {
      ring.push_back(std::make_unique<int>(next));
      reference.push_back(next++);
    } else {
      ASSERT_EQ(*ring.front(), reference.front());
      ring.pop_front();
      reference.pop_front();
    }
    ASSERT_EQ(ring.size(), reference.size());
  }
  for (std::size_t i = 0; i < reference.size(); ++i) ASSERT_EQ(*ring[i], reference[i]);
}

TEST(RingQueue, DestroysWhatItHolds) {
  auto token = std::make_shared<int>(0);
  {
    RingQueue<std::shared_ptr<int>> ring;
    for (int i = 0; i < 40; ++i) ring.push_back(std::shared_ptr<int>(token));  // grows twice
    for (int i = 0; i < 10; ++i) ring.pop_front();
    EXPECT_EQ(token.use_count(), 31);
    ring.clear();
    EXPECT_EQ(token.use_count(), 1);
    EXPECT_TRUE(ring.empty());
    for (int i = 0; i < 5; ++i) ring.push_back(std::shared_ptr<int>(token));
  }
  EXPECT_EQ(token.use_count(), 1);  // the destructor released the rest
}

}  // namespace
}  // namespace hostloop::base
