#include "base/ring_queue.h"

#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <random>
#include <vector>

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

TEST(RingQueue, PushFrontPutsBackInOrderAndSwapExchangesContents) {
  RingQueue<std::unique_ptr<int>> ring;
  std::deque<int> reference;
  for (int i = 0; i < 20; ++i) {
    ring.push_back(std::make_unique<int>(i));
    reference.push_back(i);
  }
  // Take 15 off the front, put 10 of them back (last first), across a
  // growth: push_front wraps the head below index 0.
  std::vector<std::unique_ptr<int>> taken;
  for (int i = 0; i < 15; ++i) {
    taken.push_back(std::move(ring.front()));
    ring.pop_front();
    reference.pop_front();
  }
  for (int i = 0; i < 30; ++i) {
    ring.push_back(std::make_unique<int>(100 + i));
    reference.push_back(100 + i);
  }
  for (int i = 9; i >= 0; --i) {
    reference.push_front(*taken[static_cast<std::size_t>(i)]);
    ring.push_front(std::move(taken[static_cast<std::size_t>(i)]));
  }
  ASSERT_EQ(ring.size(), reference.size());
  for (std::size_t i = 0; i < reference.size(); ++i) ASSERT_EQ(*ring[i], reference[i]);

  // erase() in the middle keeps the order of the rest.
  ring.erase(3);
  reference.erase(reference.begin() + 3);
  ring.erase(0);
  reference.erase(reference.begin());
  ASSERT_EQ(ring.size(), reference.size());
  for (std::size_t i = 0; i < reference.size(); ++i) ASSERT_EQ(*ring[i], reference[i]);

  RingQueue<std::unique_ptr<int>> other;
  other.push_back(std::make_unique<int>(-1));
  ring.swap(other);
  ASSERT_EQ(ring.size(), 1u);
  EXPECT_EQ(*ring.front(), -1);
  ASSERT_EQ(other.size(), reference.size());
  for (std::size_t i = 0; i < reference.size(); ++i) ASSERT_EQ(*other[i], reference[i]);
}

TEST(RingQueue, KeepsASmallBufferAndFreesABurstsBufferWhenEmpty) {
  RingQueue<int> ring;
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 1000; ++i) ring.push_back(int{i});
    while (!ring.empty()) ring.pop_front();
  }
  EXPECT_EQ(ring.capacity(), 1024u);  // kept: refilling it allocates nothing
  for (int i = 0; i < 5000; ++i) ring.push_back(int{i});
  EXPECT_EQ(ring.capacity(), 8192u);
  for (int i = 0; i < 4999; ++i) ring.pop_front();
  EXPECT_EQ(ring.capacity(), 8192u);  // not empty yet
  ring.pop_front();
  EXPECT_EQ(ring.capacity(), 0u);
  ring.push_back(7);
  EXPECT_EQ(ring.front(), 7);
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
