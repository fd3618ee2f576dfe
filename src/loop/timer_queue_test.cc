#include "loop/timer_queue.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <vector>

namespace hostloop::loop {
namespace {

TimePoint At(int64_t ms) { return TimePoint(std::chrono::milliseconds(ms)); }

Task Record(std::vector<int>* log, int value) {
  return [log, value] { log->push_back(value); };
}

// Record, as a task whose destructor does something (it holds a reference).
Task RecordHolding(std::vector<int>* log, int value, std::shared_ptr<int> held) {
  return [log, value, held = std::move(held)] { log->push_back(value); };
}

void DrainAll(TimerQueue& queue) {
  while (!queue.empty()) queue.PopTop()();
}

TEST(TimerQueue, L3OrdersByDueThenSequence) {
  TimerQueue queue;
  std::vector<int> log;
  queue.Add(At(20), 1, Record(&log, 1));
  queue.Add(At(10), 2, Record(&log, 2));
  queue.Add(At(10), 3, Record(&log, 3));
  queue.Add(At(5), 4, Record(&log, 4));
  queue.Add(At(20), 5, Record(&log, 5));
  DrainAll(queue);
  EXPECT_EQ(log, (std::vector<int>{4, 2, 3, 1, 5}));
}

TEST(TimerQueue, L3OrdersDuesBeforeTheClockEpochAndLargeSequences) {
  // An injected clock may start anywhere, so dues can be negative; the
  // sequence is a 64-bit counter, compared unsigned.
  TimerQueue queue;
  std::vector<int> log;
  queue.Add(At(3), 1, Record(&log, 1));
  queue.Add(At(-7), 2, Record(&log, 2));
  queue.Add(At(0), ~uint64_t{0}, Record(&log, 3));
  queue.Add(At(0), uint64_t{1} << 63, Record(&log, 4));
  queue.Add(At(-7), 0, Record(&log, 5));
  queue.Add(TimePoint::min(), 9, Record(&log, 6));
  queue.Add(TimePoint::max(), 8, Record(&log, 7));
  DrainAll(queue);
  EXPECT_EQ(log, (std::vector<int>{6, 5, 2, 4, 3, 1, 7}));
}

TEST(TimerQueue, CancelRemovesAtOnce) {
  TimerQueue queue;
  std::vector<int> log;
  auto a = queue.Add(At(1), 1, Record(&log, 1));
  auto b = queue.Add(At(2), 2, Record(&log, 2));
  auto c = queue.Add(At(3), 3, Record(&log, 3));
  EXPECT_TRUE(queue.Cancel(a));
  EXPECT_EQ(queue.size(), 2u);
  // The earliest remaining deadline is the next one: no tombstone lingers.
  EXPECT_EQ(queue.TopDue(), At(2));
  EXPECT_FALSE(queue.Cancel(a));  // twice: unknown
  EXPECT_TRUE(queue.Contains(b));
  queue.Cancel(c);
  DrainAll(queue);
  EXPECT_EQ(log, (std::vector<int>{2}));
}

TEST(TimerQueue, ClearingInSetOrderKeepsTheTopExact) {
  // Cancelling the top does not reclaim it at once; the accessors must still
  // see the earliest pending entry, and empty() must hold with only
  // cancelled nodes left.
  TimerQueue queue;
  std::vector<int> log;
  std::vector<TimerQueue::Id> ids;
  constexpr int kCount = 50;  // below the compaction threshold (64 cancelled)
  for (int i = 0; i < kCount; ++i) {
    ids.push_back(queue.Add(At(100 + i), static_cast<uint64_t>(i + 1), Record(&log, i)));
  }
  for (int i = 0; i < kCount - 3; ++i) {
    ASSERT_TRUE(queue.Cancel(ids[static_cast<std::size_t>(i)]));
    ASSERT_EQ(queue.TopDue(), At(100 + i + 1));
    ASSERT_EQ(queue.TopSequence(), static_cast<uint64_t>(i + 2));
  }
  EXPECT_EQ(queue.size(), 3u);
  queue.Cancel(ids[kCount - 3]);
  queue.Cancel(ids[kCount - 2]);
  queue.Cancel(ids[kCount - 1]);
  EXPECT_TRUE(queue.empty());
  // A new entry after a run of cancelled tops is the top, and runs alone.
  queue.Add(At(500), 1000, Record(&log, 1000));
  EXPECT_EQ(queue.TopDue(), At(500));
  DrainAll(queue);
  EXPECT_EQ(log, (std::vector<int>{1000}));
}

TEST(TimerQueue, IdsAreNeverReusedAfterTheSlotIs) {
  TimerQueue queue;
  auto first = queue.Add(At(1), 1, [] {});
  queue.PopTop();
  auto second = queue.Add(At(1), 2, [] {});
  EXPECT_NE(first, second);
  EXPECT_FALSE(queue.Cancel(first));  // the stale id must not cancel the new entry
  EXPECT_TRUE(queue.Contains(second));
}

TEST(TimerQueue, CancelledTaskDestructorRuns) {
  TimerQueue queue;
  auto token = std::make_shared<int>(0);
  auto id = queue.Add(At(1), 1, [token] {});
  EXPECT_EQ(token.use_count(), 2);
  queue.Cancel(id);
  EXPECT_EQ(token.use_count(), 1);
}

// A cancelled task's destructor runs inside Cancel, after the queue is
// consistent: it may add and cancel entries.
TEST(TimerQueue, CancelledTaskDestructorMayUseTheQueue) {
  TimerQueue queue;
  std::vector<int> log;
  TimerQueue::Id victim = 0;
  TimerQueue::Id added = 0;
  struct OnDestroy {
    std::function<void()> run;
    ~OnDestroy() {
      if (run) run();
    }
  };
  auto hook = std::make_shared<OnDestroy>();
  // Not the last leaf, so the cancel leaves a node behind.
  victim = queue.Add(At(1), 1, [hook] {});
  queue.Add(At(2), 2, Record(&log, 2));
  queue.Add(At(3), 3, Record(&log, 3));
  hook->run = [&] {
    added = queue.Add(At(0), 4, Record(&log, 4));
    queue.Cancel(added);  // cancels what it just added
    queue.Add(At(0), 5, Record(&log, 5));
  };
  hook.reset();  // the task holds the last reference
  EXPECT_TRUE(queue.Cancel(victim));
  EXPECT_FALSE(queue.Contains(added));
  EXPECT_EQ(queue.size(), 3u);
  DrainAll(queue);
  EXPECT_EQ(log, (std::vector<int>{5, 2, 3}));
}

// A task whose destructor does nothing is left in its slot at cancel and
// overwritten when the slot is reused: only the new entry ever runs.
TEST(TimerQueue, ReusedSlotsRunOnlyTheirNewTask) {
  TimerQueue queue;
  std::vector<int> log;
  std::vector<TimerQueue::Id> ids;
  for (int i = 0; i < 200; ++i) {
    ids.push_back(queue.Add(At(i), static_cast<uint64_t>(i + 1), Record(&log, i)));
  }
  // Cancel all but the last leaf, in an order that leaves nodes behind
  // and makes the queue compact.
  for (int i = 0; i < 199; i += 2) ASSERT_TRUE(queue.Cancel(ids[static_cast<std::size_t>(i)]));
  for (int i = 1; i < 199; i += 2) ASSERT_TRUE(queue.Cancel(ids[static_cast<std::size_t>(i)]));
  EXPECT_EQ(queue.size(), 1u);
  for (int i = 0; i < 200; ++i) {
    queue.Add(At(1000 + i), static_cast<uint64_t>(1000 + i), Record(&log, 1000 + i));
  }
  DrainAll(queue);
  std::vector<int> expected = {199};
  for (int i = 0; i < 200; ++i) expected.push_back(1000 + i);
  EXPECT_EQ(log, expected);
}

TEST(TimerQueue, KeepAliveCountFollowsEntries) {
  TimerQueue queue;
  auto a = queue.Add(At(1), 1, [] {}, {0, true, 0});
  queue.Add(At(2), 2, [] {}, {0, false, 0});
  EXPECT_EQ(queue.keep_alive_count(), 1u);
  queue.Cancel(a);
  EXPECT_EQ(queue.keep_alive_count(), 0u);
}

TEST(TimerQueue, RemoveOwnedByDropsOnlyThatOwner) {
  TimerQueue queue;
  std::vector<int> log;
  auto held = std::make_shared<int>(0);
  for (int i = 0; i < 100; ++i) {
    queue.Add(At(100 - i), static_cast<uint64_t>(i), RecordHolding(&log, i, held),
              {static_cast<uint32_t>(i % 2 + 1), true, 0});
  }
  std::vector<Task> dropped;
  queue.RemoveOwnedBy(1, &dropped);
  EXPECT_EQ(dropped.size(), 50u);
  dropped.clear();
  EXPECT_EQ(held.use_count(), 51);
  EXPECT_EQ(queue.size(), 50u);
  DrainAll(queue);
  // Owner 2 entries (odd i) remain, in due order (later i = earlier due).
  ASSERT_EQ(log.size(), 50u);
  for (std::size_t k = 0; k < log.size(); ++k) EXPECT_EQ(log[k], 99 - 2 * static_cast<int>(k));
}

// A runtime that ends with a million JS timers pending: their tasks have
// nothing to destroy, so none is moved out (that was most of the time such
// an exit took); they are gone from the queue all the same, their ids dead,
// their slots reused.
TEST(TimerQueue, RemoveOwnedByLeavesTasksWithNothingToDestroyInPlace) {
  TimerQueue queue;
  std::vector<int> log;
  std::vector<TimerQueue::Id> trivial_ids;
  for (int i = 0; i < 100; ++i) {
    trivial_ids.push_back(
        queue.Add(At(10 + i), static_cast<uint64_t>(i), Record(&log, -1), {1, true, 0}));
  }
  auto held = std::make_shared<int>(0);
  queue.Add(At(5), 100, RecordHolding(&log, 1, held), {1, true, 0});
  queue.Add(At(6), 101, Record(&log, 2), {2, true, 0});
  std::vector<Task> dropped;
  queue.RemoveOwnedBy(1, &dropped);
  EXPECT_EQ(dropped.size(), 1u);  // the one that holds a reference
  dropped.clear();
  EXPECT_EQ(held.use_count(), 1);
  EXPECT_EQ(queue.size(), 1u);
  EXPECT_EQ(queue.keep_alive_count(), 1u);
  for (TimerQueue::Id id : trivial_ids) EXPECT_FALSE(queue.Cancel(id, 1));
  // The freed slots take new entries, which run in order.
  for (int i = 0; i < 100; ++i)
    queue.Add(At(20 + i), 200 + static_cast<uint64_t>(i), Record(&log, 10 + i), {1, true, 0});
  DrainAll(queue);
  ASSERT_EQ(log.size(), 101u);
  EXPECT_EQ(log[0], 2);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(log[1 + i], 10 + i);
}

// Random adds, cancels and pops (weights in tenths), checked against a
// sorted reference after every step. With `calls`, a third of the adds are
// call entries and a third are tasks that hold a reference (a destructor
// that does something), so slots pass between the kinds.
void RunAgainstReference(TimerQueue& queue, std::mt19937_64& rng, int rounds, int add_weight,
                         int cancel_weight, bool calls = false) {
  struct Ref {
    int64_t due;
    uint64_t seq;
    TimerQueue::Id id;
    bool call;
  };
  std::vector<Ref> reference;
  std::vector<uint64_t> popped;
  auto held = std::make_shared<int>(0);
  uint64_t seq = 0;
  // Pops the top, which must be `ref`.
  auto pop = [&](const Ref& ref) {
    ASSERT_EQ(queue.TopIsCall(), ref.call);
    ASSERT_EQ(queue.TopId(), ref.id);
    Task task = queue.PopTop();
    ASSERT_EQ(static_cast<bool>(task), !ref.call);
    if (ref.call) {
      popped.push_back(ref.seq);
    } else {
      task();
    }
  };
  for (int round = 0; round < rounds; ++round) {
    int op = static_cast<int>(rng() % 10);
    if (op < add_weight || reference.empty()) {
      int64_t due = static_cast<int64_t>(rng() % 1000);
      uint64_t s = ++seq;
      const int kind = calls ? static_cast<int>(rng() % 3) : 0;
      TimerQueue::Id id;
      if (kind == 1) {
        id = queue.AddCall(At(due), s, 0, true);
      } else if (kind == 2) {
        id = queue.Add(At(due), s, [&popped, s, held] { popped.push_back(s); });
      } else {
        id = queue.Add(At(due), s, [&popped, s] { popped.push_back(s); });
      }
      reference.push_back({due, s, id, kind == 1});
    } else if (op < add_weight + cancel_weight) {
      std::size_t pick = rng() % reference.size();
      ASSERT_TRUE(queue.Cancel(reference[pick].id));
      ASSERT_FALSE(queue.Contains(reference[pick].id));
      reference.erase(reference.begin() + static_cast<std::ptrdiff_t>(pick));
    } else {
      auto min = std::min_element(reference.begin(), reference.end(), [](auto& a, auto& b) {
        return a.due < b.due || (a.due == b.due && a.seq < b.seq);
      });
      ASSERT_EQ(queue.TopDue(), At(min->due));
      ASSERT_EQ(queue.TopSequence(), min->seq);
      pop(*min);
      ASSERT_EQ(popped.back(), min->seq);
      reference.erase(min);
    }
    ASSERT_EQ(queue.size(), reference.size());
  }
  for (const Ref& ref : reference) ASSERT_TRUE(queue.Contains(ref.id));
  while (!reference.empty()) {
    auto min = std::min_element(reference.begin(), reference.end(), [](auto& a, auto& b) {
      return a.due < b.due || (a.due == b.due && a.seq < b.seq);
    });
    ASSERT_EQ(queue.TopSequence(), min->seq);
    pop(*min);
    reference.erase(min);
  }
  ASSERT_TRUE(queue.empty());
  // Every task that held the reference was destroyed, once.
  EXPECT_EQ(held.use_count(), 1);
}

TEST(TimerQueue, RandomizedAgainstASortedReference) {
  std::mt19937_64 rng(42);
  TimerQueue queue;
  RunAgainstReference(queue, rng, 20000, 6, 2);
}

TEST(TimerQueue, RandomizedWithCallEntriesAgainstASortedReference) {
  std::mt19937_64 rng(43);
  TimerQueue queue;
  RunAgainstReference(queue, rng, 20000, 6, 2, true);
  // Cancel-heavy: compactions, and slots reused across the kinds.
  RunAgainstReference(queue, rng, 40000, 5, 4, true);
}

TEST(TimerQueue, CallEntriesOrderWithTasksAndAreKnownByTheirIds) {
  TimerQueue queue;
  std::vector<int> log;
  const TimerQueue::Id call_a = queue.AddCall(At(10), 1, 7, true);
  queue.Add(At(10), 2, Record(&log, 2), {7, true, 0});
  const TimerQueue::Id call_b = queue.AddCall(At(5), 3, 8, false);
  EXPECT_EQ(queue.size(), 3u);
  EXPECT_EQ(queue.keep_alive_count(), 2u);
  EXPECT_TRUE(queue.Contains(call_a));

  ASSERT_TRUE(queue.TopIsCall());
  EXPECT_EQ(queue.TopId(), call_b);
  EXPECT_EQ(queue.TopOwner(), 8u);
  EXPECT_FALSE(queue.TopMeta().keeps_alive);
  EXPECT_EQ(queue.TopMeta().owner, 8u);
  EXPECT_FALSE(queue.PopTop());  // no task
  EXPECT_FALSE(queue.Contains(call_b));

  ASSERT_TRUE(queue.TopIsCall());
  EXPECT_EQ(queue.TopId(), call_a);
  EXPECT_TRUE(queue.TopMeta().keeps_alive);
  EXPECT_FALSE(queue.PopTop());

  ASSERT_FALSE(queue.TopIsCall());
  EXPECT_EQ(queue.TopOwner(), 7u);
  queue.PopTop()();
  EXPECT_EQ(log, (std::vector<int>{2}));
  EXPECT_TRUE(queue.empty());
  EXPECT_EQ(queue.keep_alive_count(), 0u);
}

TEST(TimerQueue, CallEntriesCancelAndLeaveWithTheirOwner) {
  TimerQueue queue;
  std::vector<TimerQueue::Id> ids;
  for (int i = 0; i < 200; ++i)
    ids.push_back(queue.AddCall(At(i), static_cast<uint64_t>(i), 1 + i % 2, true));
  EXPECT_FALSE(queue.Cancel(ids[0], 2));  // owner 1's
  EXPECT_TRUE(queue.Cancel(ids[0], 1));
  EXPECT_FALSE(queue.Cancel(ids[0], 1));
  EXPECT_TRUE(queue.Cancel(ids[199], 2));  // the last leaf
  std::vector<TimerQueue::Id> batch(ids.begin() + 1, ids.begin() + 11);
  EXPECT_EQ(queue.CancelMany(batch.data(), batch.size(), 1), 5u);  // the odd-indexed are owner 2's
  EXPECT_EQ(queue.size(), 193u);
  std::vector<Task> dropped;
  queue.RemoveOwnedBy(2, &dropped);
  EXPECT_TRUE(dropped.empty());  // call entries hold nothing to destroy
  EXPECT_EQ(queue.size(), 94u);
  EXPECT_EQ(queue.keep_alive_count(), 94u);
  for (int i = 12; i < 199; i += 2) {
    ASSERT_TRUE(queue.TopIsCall());
    ASSERT_EQ(queue.TopId(), ids[static_cast<std::size_t>(i)]);
    queue.PopTop();
  }
  EXPECT_TRUE(queue.empty());
}

TEST(TimerQueue, ASlotPassesBetweenTasksAndCallEntries) {
  // Slot 0, in turn: a call entry (the slot is never constructed), a task
  // that holds a reference (constructs it), a call entry again (the popped
  // task's remains stay), a task, and one left pending at destruction.
  std::vector<int> log;
  auto held = std::make_shared<int>(0);
  {
    TimerQueue queue;
    TimerQueue::Id id = queue.AddCall(At(1), 1, 0, true);
    EXPECT_EQ(TimerQueue::SlotOf(id), 1u);
    EXPECT_FALSE(queue.PopTop());
    id = queue.Add(At(2), 2, RecordHolding(&log, 2, held));
    EXPECT_EQ(TimerQueue::SlotOf(id), 1u);
    EXPECT_EQ(held.use_count(), 2);
    queue.PopTop()();
    EXPECT_EQ(held.use_count(), 1);
    id = queue.AddCall(At(3), 3, 0, true);
    EXPECT_EQ(TimerQueue::SlotOf(id), 1u);
    EXPECT_TRUE(queue.Cancel(id));
    queue.ReclaimCancelled();
    queue.Add(At(4), 4, Record(&log, 4));
    queue.PopTop()();
    queue.Add(At(5), 5, RecordHolding(&log, 5, held));
    queue.AddCall(At(6), 6, 0, true);  // a second slot, never constructed
    EXPECT_EQ(held.use_count(), 2);
  }
  EXPECT_EQ(held.use_count(), 1);  // the pending task was destroyed with the queue
  EXPECT_EQ(log, (std::vector<int>{2, 4}));
}

TEST(TimerQueue, CallEntriesLeaveTheirSlotsUntouched) {
  // A call entry costs its node (24 bytes) and its state word (8): not one
  // page of the slots' memory is faulted in for it (mincore), where 400k
  // tasks fill 19 MB.
  constexpr std::size_t kCount = 400000;
  TimerQueue queue;
  queue.Add(At(0), 0, [] {});  // slot 0: the slots' memory exists
  for (std::size_t i = 1; i <= kCount; ++i)
    queue.AddCall(At(static_cast<int64_t>(i % 1000)), i, 1, true);
  EXPECT_EQ(queue.size(), kCount + 1);
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  // The pages past slot 0's (48 bytes each) that slots 1..kCount would be in.
  char* slots = static_cast<char*>(const_cast<void*>(queue.slots_for_testing()));
  const std::size_t bytes = (kCount + 1) * 48 - page;
  std::vector<unsigned char> resident(bytes / page + 1);
  ASSERT_EQ(mincore(slots + page, bytes, resident.data()), 0) << std::strerror(errno);
  std::size_t pages = 0;
  for (unsigned char flags : resident) pages += flags & 1;
  EXPECT_EQ(pages, 0u) << "of " << resident.size();
}

TEST(TimerQueue, CancelHeavyRunsCompactAndStayCorrect) {
  // Cancels outnumber pops, so cancelled nodes pile up inside the heap and
  // compaction runs again and again.
  std::mt19937_64 rng(7);
  TimerQueue queue;
  RunAgainstReference(queue, rng, 40000, 5, 4);
  // The same after one slot far above the rest was cancelled while not the
  // last leaf: the cancelled bitmap is then large next to the few cancelled
  // entries, which compaction handles by sorting instead of scanning it.
  std::vector<TimerQueue::Id> ids;
  for (int i = 0; i < 100000; ++i) ids.push_back(queue.Add(At(i), static_cast<uint64_t>(i), [] {}));
  ASSERT_TRUE(queue.Cancel(ids[99990]));
  while (!queue.empty()) queue.PopTop()();
  RunAgainstReference(queue, rng, 40000, 5, 4);
}

TEST(TimerQueue, CompactionReusesTheLowestFreedSlotFirst) {
  TimerQueue queue;
  std::vector<TimerQueue::Id> ids;
  // Dues rise with the slot, so the heap holds slot i at index i and slot 999
  // is the last leaf (cancelling it would take the shortcut).
  for (int i = 0; i < 1000; ++i) ids.push_back(queue.Add(At(i), static_cast<uint64_t>(i), [] {}));
  std::vector<int> victims;
  for (int i = 997; i >= 1; i -= 2) victims.push_back(i);   // 499
  for (int i = 996; i >= 664; i -= 2) victims.push_back(i);  // 167 more
  // The 667th: cancelled nodes are now twice the live ones, compaction runs.
  victims.push_back(2);
  for (std::size_t i = 0; i < victims.size(); ++i) {
    ASSERT_TRUE(queue.Cancel(ids[static_cast<std::size_t>(victims[i])]));
    // No compaction before it: no slot is free yet, a new entry gets a new one.
    if (i + 1 < victims.size()) {
      ASSERT_EQ(TimerQueue::SlotOf(queue.NextId()), TimerQueue::SlotOf(ids.back()) + 1) << i;
    }
  }
  EXPECT_EQ(queue.size(), 333u);
  EXPECT_EQ(TimerQueue::SlotOf(queue.NextId()), TimerQueue::SlotOf(ids[1]));
  TimerQueue::Id reused = queue.Add(At(5000), 5000, [] {});
  EXPECT_EQ(TimerQueue::SlotOf(reused), TimerQueue::SlotOf(ids[1]));
  EXPECT_FALSE(queue.Contains(ids[1]));
  EXPECT_TRUE(queue.Contains(reused));
  EXPECT_EQ(TimerQueue::SlotOf(queue.NextId()), TimerQueue::SlotOf(ids[2]));
}

// Cancels never rebuild the heap, however many there are: the rebuild
// waits for the next look at the top (which then reclaims every cancelled
// node at once, not only those above the earliest live one, and even when
// the top is live) or the next Add(), so a task that clears nearly everything pays for one rebuild
// of what is left instead of one every time cancelled nodes reach 2/3.
TEST(TimerQueue, CancelsLeaveTheRebuildToTheNextAddOrLookAtTheTop) {
  TimerQueue queue;
  std::vector<int> log;
  std::vector<TimerQueue::Id> ids;
  constexpr int kCount = 1000;
  // Dues rise with the slot: slot 999 is the last leaf and stays live, so
  // no cancel takes the last-leaf shortcut.
  for (int i = 0; i < kCount; ++i) {
    ids.push_back(queue.Add(At(i), static_cast<uint64_t>(i), Record(&log, i)));
  }
  for (int i = 0; i < kCount - 1; ++i) {
    if (i == 500) continue;
    ASSERT_TRUE(queue.Cancel(ids[static_cast<std::size_t>(i)]));
  }
  EXPECT_EQ(queue.cancelled(), static_cast<std::size_t>(kCount - 2));
  EXPECT_EQ(queue.slots_in_use(), static_cast<std::size_t>(kCount));
  EXPECT_EQ(queue.size(), 2u);
  // Popping the 500 cancelled nodes above entry 500 would leave 498; the
  // rebuild leaves none and frees every cancelled slot.
  EXPECT_EQ(queue.TopDue(), At(500));
  EXPECT_EQ(queue.cancelled(), 0u);
  EXPECT_EQ(queue.slots_in_use(), 2u);

  // The same through Add(): cancel all but entry 999 again, then add one.
  std::vector<TimerQueue::Id> more;
  for (int i = 0; i < kCount; ++i) {
    more.push_back(
        queue.Add(At(2000 + i), static_cast<uint64_t>(2000 + i), Record(&log, 2000 + i)));
  }
  ASSERT_TRUE(queue.Cancel(ids[500]));
  for (TimerQueue::Id id : more) ASSERT_TRUE(queue.Cancel(id));
  EXPECT_EQ(queue.size(), 1u);
  EXPECT_GE(queue.cancelled(),
            static_cast<std::size_t>(kCount - 1));  // (the last leaf may go at once)
  TimerQueue::Id next = queue.NextId();
  EXPECT_EQ(queue.cancelled(), 0u);
  EXPECT_EQ(queue.Add(At(5000), 5000, Record(&log, 5000)), next);
  EXPECT_EQ(queue.slots_in_use(), 2u);
  DrainAll(queue);
  EXPECT_EQ(log, (std::vector<int>{999, 5000}));

  // A look at the top rebuilds even when the top itself is live (the loop
  // looks after every task: that is where a task's cancels are reclaimed).
  queue.Add(At(0), 6000, Record(&log, 6000));
  more.clear();
  for (int i = 0; i < kCount; ++i) {
    more.push_back(queue.Add(At(7000 + i), static_cast<uint64_t>(7000 + i), [] {}));
  }
  for (TimerQueue::Id id : more) ASSERT_TRUE(queue.Cancel(id));
  EXPECT_GE(queue.cancelled(), static_cast<std::size_t>(kCount - 1));
  EXPECT_EQ(queue.TopDue(), At(0));
  EXPECT_EQ(queue.cancelled(), 0u);
  EXPECT_EQ(queue.slots_in_use(), 1u);
}

// Free slots are handed out lowest first, whatever order they were freed
// in, across the free set's summary words (4096 slots each) and top words
// (262,144 each).
TEST(TimerQueue, AddTakesTheLowestFreeSlot) {
  TimerQueue queue;
  constexpr int kCount = 300000;
  const int early[] = {70, 5000, 299999};  // fire first, in this order
  for (int i = 0; i < kCount; ++i) {
    int due = 1000000 + i;
    for (int k = 0; k < 3; ++k) {
      if (i == early[k]) due = k;
    }
    queue.Add(At(due), static_cast<uint64_t>(i), [] {});
  }
  for (int k = 0; k < 3; ++k) queue.PopTop();  // frees 70, then 5000, then 299999
  EXPECT_EQ(queue.slots_in_use(), static_cast<std::size_t>(kCount - 3));
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(TimerQueue::SlotOf(queue.NextId()), static_cast<uint32_t>(early[k]) + 1);
    TimerQueue::Id id = queue.Add(At(5), 1000000, [] {});
    // (An id's slot part counts from 1.)
    EXPECT_EQ(TimerQueue::SlotOf(id), static_cast<uint32_t>(early[k]) + 1) << k;
  }
  EXPECT_EQ(TimerQueue::SlotOf(queue.Add(At(5), 1000001, [] {})),
            static_cast<uint32_t>(kCount) + 1);
}

// CancelMany is Cancel for each id in order: it counts the pending ones,
// skips unknown, finished, repeated and malformed ids, and runs across
// compactions (100 ids, more than the fetch distance).
TEST(TimerQueue, CancelRemovesOnlyTheGivenOwnersEntry) {
  TimerQueue queue;
  const TimePoint due(std::chrono::seconds(1));
  TimerQueue::Id mine = queue.Add(
      due, 1, [] {}, TimerQueue::Meta{7, true, 0});
  TimerQueue::Id theirs = queue.Add(
      due, 2, [] {}, TimerQueue::Meta{8, true, 0});
  TimerQueue::Id unowned = queue.Add(due, 3, [] {});
  EXPECT_FALSE(queue.Cancel(theirs, 7));
  EXPECT_FALSE(queue.Cancel(unowned, 7));
  EXPECT_FALSE(queue.Cancel(mine));  // owner 0
  const TimerQueue::Id batch[] = {theirs, unowned, mine};
  EXPECT_EQ(queue.CancelMany(batch, 3, 7), 1u);
  EXPECT_EQ(queue.size(), 2u);
  EXPECT_TRUE(queue.Cancel(theirs, 8));
  EXPECT_TRUE(queue.Cancel(unowned));
  EXPECT_TRUE(queue.empty());
}

// Take() is Cancel() that hands the task over (EventLoop destroys it after
// unlocking): the entry is gone at once, only the owner's id takes it, and
// a stale id takes nothing from the entry that reused its slot.
TEST(TimerQueue, TakeRemovesTheEntryAndHandsItsTaskOver) {
  TimerQueue queue;
  std::vector<int> log;
  auto token = std::make_shared<int>(0);
  TimerQueue::Id taken = queue.Add(At(1), 1, [token, &log] { log.push_back(1); });
  queue.Add(At(2), 2, Record(&log, 2));
  TimerQueue::Id theirs = queue.Add(At(3), 3, Record(&log, 3), TimerQueue::Meta{8, true, 0});
  EXPECT_FALSE(queue.Take(theirs));  // another owner's
  Task task = queue.Take(taken);
  ASSERT_TRUE(task);
  EXPECT_EQ(token.use_count(), 2);  // not destroyed: the caller holds it
  EXPECT_EQ(queue.size(), 2u);
  EXPECT_FALSE(queue.Contains(taken));
  EXPECT_FALSE(queue.Take(taken));
  task = Task();
  EXPECT_EQ(token.use_count(), 1);
  DrainAll(queue);
  EXPECT_EQ(log, (std::vector<int>{2, 3}));
  // The slot is reused; the old id takes nothing.
  TimerQueue::Id reused = queue.Add(At(4), 4, Record(&log, 4));
  EXPECT_EQ(TimerQueue::SlotOf(reused), TimerQueue::SlotOf(taken));
  EXPECT_FALSE(queue.Take(taken));
  EXPECT_TRUE(queue.Contains(reused));
}

TEST(TimerQueue, CancelManyCancelsEachPendingIdOnce) {
  TimerQueue queue;
  std::vector<int> log;
  std::vector<TimerQueue::Id> ids;
  for (int i = 0; i < 300; ++i) ids.push_back(queue.Add(At(i), static_cast<uint64_t>(i), Record(&log, i)));
  TimerQueue::Id popped = ids[0];
  queue.PopTop()();  // runs 0: its id is finished
  // A live id with a bit set above its generation's names nothing.
  const TimerQueue::Id forged = ids[2] | (TimerQueue::Id{1} << 60);
  EXPECT_FALSE(queue.Contains(forged));
  std::vector<TimerQueue::Id> batch = {popped, TimerQueue::kInvalidId, ~TimerQueue::Id{0}, forged};
  for (int i = 1; i < 300; i += 3) batch.push_back(ids[static_cast<std::size_t>(i)]);  // 100 ids
  batch.push_back(ids[1]);  // again
  EXPECT_EQ(queue.CancelMany(batch.data(), batch.size()), 100u);
  EXPECT_EQ(queue.size(), 199u);
  for (int i = 1; i < 300; ++i) {
    EXPECT_EQ(queue.Contains(ids[static_cast<std::size_t>(i)]), i % 3 != 1) << i;
  }
  EXPECT_EQ(queue.CancelMany(batch.data(), 0), 0u);
  DrainAll(queue);
  std::vector<int> expected = {0};
  for (int i = 1; i < 300; ++i) {
    if (i % 3 != 1) expected.push_back(i);
  }
  EXPECT_EQ(log, expected);
}

// A destructor run by CancelMany may add entries (the arrays it fetches
// ahead in may move) and cancel later ids of the same batch.
TEST(TimerQueue, CancelManySurvivesDestructorsThatUseTheQueue) {
  TimerQueue queue;
  std::vector<int> log;
  struct OnDestroy {
    std::function<void()> run;
    ~OnDestroy() {
      if (run) run();
    }
  };
  std::vector<TimerQueue::Id> ids;
  for (int i = 0; i < 64; ++i) ids.push_back(queue.Add(At(i), static_cast<uint64_t>(i), Record(&log, i)));
  auto hook = std::make_shared<OnDestroy>();
  TimerQueue::Id first = queue.Add(At(100), 100, [hook] {});
  queue.Add(At(101), 101, Record(&log, 101));  // so `first` is not the last leaf
  hook->run = [&] {
    for (int i = 0; i < 5000; ++i) queue.Add(At(200 + i), static_cast<uint64_t>(200 + i), [] {});
    EXPECT_TRUE(queue.Cancel(ids[40]));
  };
  hook.reset();
  std::vector<TimerQueue::Id> batch = {first};
  for (int i = 20; i < 64; ++i) batch.push_back(ids[static_cast<std::size_t>(i)]);
  // `first` and 20..63 except 40, which the destructor took first.
  EXPECT_EQ(queue.CancelMany(batch.data(), batch.size()), 44u);
  EXPECT_EQ(queue.size(), 20u + 1u + 5000u);
  std::vector<int> expected;
  for (int i = 0; i < 20; ++i) expected.push_back(i);
  expected.push_back(101);
  for (int i = 0; i < 21; ++i) queue.PopTop()();
  EXPECT_EQ(log, expected);
}

}  // namespace
}  // namespace hostloop::loop
