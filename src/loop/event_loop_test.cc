#include "loop/event_loop.h"

#include <gtest/gtest.h>
#include <poll.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/deadline_clock.h"
#include "loop/looper.h"

namespace hostloop::loop {
namespace {

using std::chrono::milliseconds;

std::unique_ptr<Looper> MakeLooper(const base::TickClock* clock = base::TickClock::Default()) {
  return std::move(Looper::Create(Looper::Options{clock})).value();
}

Task Record(std::vector<std::string>* log, std::string what) {
  return [log, what = std::move(what)] { log->push_back(what); };
}

// Two EventLoops bound to one Looper on a fake clock: two runtimes on one
// thread. Both are shut down at the end.
class TwoLoopsOnOneLooper : public ::testing::Test {
 protected:
  void SetUp() override {
    a->Bind(looper.get());
    b->Bind(looper.get());
  }
  void TearDown() override {
    a->Shutdown();
    b->Shutdown();
  }
  base::FakeTickClock clock;
  std::unique_ptr<Looper> looper = MakeLooper(&clock);
  std::shared_ptr<EventLoop> a = EventLoop::Create(&clock);
  std::shared_ptr<EventLoop> b = EventLoop::Create(&clock);
};

// Counts its own destruction, to prove dropped closures are destroyed.
struct DestructionCounter {
  explicit DestructionCounter(std::atomic<int>* count) : count(count) {}
  DestructionCounter(DestructionCounter&& other) noexcept : count(std::exchange(other.count, nullptr)) {}
  ~DestructionCounter() {
    if (count != nullptr) ++*count;
  }
  std::atomic<int>* count;
};

TEST(EventLoop, L2PostsBeforeBindAreKeptInOrderAndRunAfterBind) {
  base::FakeTickClock clock;
  auto event_loop = EventLoop::Create(&clock);
  std::vector<std::string> log;
  std::mutex log_mutex;
  auto record = [&](std::string what) {
    return [&, what] {
      std::lock_guard lock(log_mutex);
      log.push_back(what);
    };
  };
  // Buffered from another thread, before the home thread is known.
  std::thread([&] {
    EXPECT_TRUE(event_loop->PostInternal(record("internal 1")));
    EXPECT_TRUE(event_loop->PostOrdered(record("ordered 1")));
    EXPECT_TRUE(event_loop->PostInternal(record("internal 2")));
    EXPECT_TRUE(event_loop->PostOrdered(record("ordered 2")));
  }).join();
  EXPECT_TRUE(log.empty());

  auto looper = MakeLooper(&clock);
  event_loop->Bind(looper.get());
  looper->RunUntilIdle();
  EXPECT_EQ(log, (std::vector<std::string>{"ordered 1", "ordered 2", "internal 1", "internal 2"}));
  event_loop->Shutdown();
}

TEST(EventLoop, L2NegativeDelaysBeforeBindKeepPostingOrder) {
  auto looper = MakeLooper();
  auto loop = EventLoop::Create();
  std::vector<std::string> log;
  loop->PostOrdered([&] { log.push_back("A"); });
  loop->PostOrdered([&] { log.push_back("B"); }, milliseconds(-1));
  loop->PostOrdered([&] { log.push_back("C"); }, base::Duration::min());
  loop->Bind(looper.get());
  looper->RunUntilIdle();
  EXPECT_EQ(log, (std::vector<std::string>{"A", "B", "C"}));
  loop->Shutdown();
}

TEST(EventLoop, L10ABindBetweenStepsWakesTheForeignLoopForBufferedEntries) {
  auto looper = MakeLooper();
  looper->Step();  // the foreign loop owns the wait now
  auto loop = EventLoop::Create();
  bool ran = false;
  loop->PostInternal([&] { ran = true; });  // buffered (L2)
  loop->Bind(looper.get());
  pollfd fd{looper->BackendFd(), POLLIN, 0};
  // Generous bound: readable at once; before the fix never.
  ASSERT_EQ(::poll(&fd, 1, 10'000), 1);
  looper->Step();
  EXPECT_TRUE(ran);
  loop->Shutdown();
}

TEST(EventLoop, PostInternalAndWaitFromAnotherThreadRacingBind) {
  // (For TSan: IsHomeThread() read the looper pointer Bind() writes.)
  auto looper = MakeLooper();
  auto loop = EventLoop::Create();
  std::atomic<bool> go{false};
  bool ran = false;
  std::thread other([&] {
    while (!go.load()) {
    }
    ran = loop->PostInternalAndWait([] {});
    looper->remote()->Quit();
  });
  looper->Ref();  // until the other thread's Quit()
  go = true;
  loop->Bind(looper.get());
  looper->Run();
  looper->Unref();
  other.join();
  EXPECT_TRUE(ran);
  loop->Shutdown();
}

TEST(EventLoop, L5EntryHookRunsAfterEveryEntryOfEveryLane) {
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  auto event_loop = EventLoop::Create(&clock);
  event_loop->Bind(looper.get());
  std::vector<std::string> log;
  event_loop->SetEntryHook([&] { log.push_back("checkpoint"); });
  event_loop->PostOrdered(Record(&log, "ordered"));
  event_loop->PostInternal(Record(&log, "internal"));
  looper->Post(Record(&log, "app"));
  looper->RunUntilIdle();
  EXPECT_EQ(log, (std::vector<std::string>{"ordered", "checkpoint", "app", "checkpoint", "internal",
                                           "checkpoint"}));
  event_loop->Shutdown();
}

TEST(EventLoop, LooperStatsCountEntriesOfEachLane) {
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  auto event_loop = EventLoop::Create(&clock);
  event_loop->Bind(looper.get());
  for (int i = 0; i < 3; ++i) event_loop->PostInternal([] {});
  event_loop->PostOrdered([] {});
  looper->Post([] {});
  looper->RunUntilIdle();
  EXPECT_EQ(looper->stats().internal_entries, 3u);
  EXPECT_EQ(looper->stats().ordered_entries, 2u);
  event_loop->Shutdown();
}

TEST(EventLoop, L4InternalEntryThatRepostsItselfRunsOncePerPass) {
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  auto event_loop = EventLoop::Create(&clock);
  event_loop->Bind(looper.get());
  int runs = 0;
  std::function<void()> repost = [&] {
    ++runs;
    event_loop->PostInternal([&] { repost(); });
  };
  event_loop->PostInternal([&] { repost(); });
  std::vector<std::string> log;
  looper->Step();
  EXPECT_EQ(runs, 1);
  looper->Post(Record(&log, "ordered"));
  looper->Step();
  EXPECT_EQ(runs, 2);
  EXPECT_EQ(log, (std::vector<std::string>{"ordered"}));
  event_loop->Shutdown();
}

TEST(EventLoop, L4InternalPassIsBoundedByItsBudget) {
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  auto event_loop = EventLoop::Create(&clock);
  event_loop->Bind(looper.get());
  std::size_t ran = 0;
  for (std::size_t i = 0; i < 3 * kInternalBudget.max_entries; ++i) {
    event_loop->PostInternal([&] { ++ran; });
  }
  looper->Step();
  EXPECT_EQ(ran, kInternalBudget.max_entries);
  looper->RunUntilIdle();
  EXPECT_EQ(ran, 3 * kInternalBudget.max_entries);
  event_loop->Shutdown();
}

TEST(EventLoop, L4InternalBudgetStartsWhenTheLaneDoesNotWhenThePassDid) {
  // An ordered entry that takes longer than the lane's whole time budget
  // (a gc(), a long timer callback) leaves the internal lane its budget: it
  // used to be counted from the pass's clock reading, so it was spent before
  // the lane began, and the lane ran kClockCheckInterval (8) entries a pass.
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  auto event_loop = EventLoop::Create(&clock);
  event_loop->Bind(looper.get());
  std::size_t ran = 0;
  for (int i = 0; i < 200; ++i) event_loop->PostInternal([&] { ++ran; });
  event_loop->PostOrdered([&] { clock.Advance(milliseconds(5)); });
  looper->Step();
  EXPECT_EQ(ran, 200u);
  event_loop->Shutdown();
}

TEST(EventLoop, InternalLaneIsFifoWithDelayedEntriesJoiningWhenDue) {
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  auto event_loop = EventLoop::Create(&clock);
  event_loop->Bind(looper.get());
  std::vector<std::string> log;
  event_loop->PostInternalDelayed(Record(&log, "delayed 5"), milliseconds(5));
  event_loop->PostInternal(Record(&log, "now 1"));
  event_loop->PostInternalDelayed(Record(&log, "delayed 2"), milliseconds(2));
  event_loop->PostInternal(Record(&log, "now 2"));
  looper->RunUntilIdle();
  EXPECT_EQ(log, (std::vector<std::string>{"now 1", "now 2"}));
  EXPECT_EQ(looper->NextTimeoutMs(), 2);
  clock.Advance(milliseconds(10));
  looper->RunUntilIdle();
  EXPECT_EQ(log, (std::vector<std::string>{"now 1", "now 2", "delayed 2", "delayed 5"}));
  event_loop->Shutdown();
}

TEST(EventLoop, J3WeakDelayedEntriesDoNotKeepTheLoopAlive) {
  auto looper = MakeLooper();
  auto event_loop = EventLoop::Create();
  event_loop->Bind(looper.get());
  bool housekeeping_ran = false;
  event_loop->PostInternalDelayed([&] { housekeeping_ran = true; }, std::chrono::hours(1));
  EXPECT_EQ(looper->Run(), Looper::RunResult::kIdle);
  EXPECT_FALSE(housekeeping_ran);
  event_loop->Ref();
  event_loop->PostInternal([&] { event_loop->Unref(); });
  EXPECT_EQ(looper->Run(), Looper::RunResult::kIdle);
  event_loop->Shutdown();
}

TEST(EventLoop, L7ShutdownDropsBothLanesRunsDestructorsAndRefusesLaterPosts) {
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  auto event_loop = EventLoop::Create(&clock);
  event_loop->Bind(looper.get());
  std::atomic<int> destroyed{0};
  bool ran = false;
  auto guard = [&] { return DestructionCounter(&destroyed); };
  event_loop->PostOrdered([&ran, g = guard()] { ran = true; });
  event_loop->ScheduleOrdered([&ran, g = guard()] { ran = true; }, milliseconds(5));
  event_loop->PostInternal([&ran, g = guard()] { ran = true; });
  event_loop->PostInternalDelayed([&ran, g = guard()] { ran = true; }, milliseconds(5));
  // An application message on the same Looper is not the runtime's: it stays.
  bool app_ran = false;
  looper->Post([&] { app_ran = true; });

  event_loop->Shutdown();
  EXPECT_EQ(destroyed.load(), 4);
  EXPECT_FALSE(event_loop->PostInternal([&ran, g = guard()] { ran = true; }));
  EXPECT_FALSE(event_loop->PostInternalDelayed([&ran, g = guard()] { ran = true; }, milliseconds(1)));
  EXPECT_FALSE(event_loop->PostOrdered([&ran, g = guard()] { ran = true; }));
  EXPECT_EQ(event_loop->ScheduleOrdered([] {}, milliseconds(1)), TimerQueue::kInvalidId);
  EXPECT_EQ(destroyed.load(), 7);  // refused closures are destroyed too
  clock.Advance(milliseconds(10));
  looper->RunUntilIdle();
  EXPECT_FALSE(ran);
  EXPECT_TRUE(app_ran);
}

// CancelOrderedMany (how the runtime flushes clearTimeout()s) cancels the
// pending ids, runs their destructors, leaves the others to fire in order,
// and does nothing once the loop is shut down.
TEST(EventLoop, CancelOrderedManyCancelsOnlyThePendingIds) {
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  auto event_loop = EventLoop::Create(&clock);
  event_loop->Bind(looper.get());
  std::atomic<int> destroyed{0};
  std::vector<int> log;
  std::vector<EventLoop::TimerId> ids;
  for (int i = 0; i < 6; ++i) {
    ids.push_back(event_loop->ScheduleOrdered(
        [&log, i, g = DestructionCounter(&destroyed)] { log.push_back(i); }, milliseconds(1 + i)));
  }
  std::vector<EventLoop::TimerId> batch = {ids[4], ids[1], TimerQueue::kInvalidId, ids[4]};
  EXPECT_EQ(event_loop->CancelOrderedMany(batch.data(), batch.size()), 2u);
  EXPECT_EQ(destroyed.load(), 2);
  clock.Advance(milliseconds(3));
  looper->RunUntilIdle();
  EXPECT_EQ(log, (std::vector<int>{0, 2}));
  event_loop->Shutdown();
  EXPECT_EQ(destroyed.load(), 6);
  EXPECT_EQ(event_loop->CancelOrderedMany(ids.data() + 3, 1), 0u);
}

// A call entry (a JS timer) holds no task: its loop's handler is handed
// its id, due and liveness, as that loop's entry (its BeforeEntry hook first,
// its checkpoint after), in (due, sequence) order with task entries.
TEST_F(TwoLoopsOnOneLooper, OrderedCallEntriesRunThroughTheirLoopsHandlerInOrder) {
  std::vector<std::string> log;
  std::vector<EventLoop::TimerId> a_ids;
  std::vector<EventLoop::TimerId> b_ids;
  base::FakeTickClock* fake = &clock;
  auto handler = [&](const char* name, const std::vector<EventLoop::TimerId>* ids) {
    return [&log, fake, name, ids](EventLoop::TimerId id, TimePoint due, Liveness liveness) {
      std::size_t index = std::find(ids->begin(), ids->end(), id) - ids->begin();
      log.push_back(std::string(name) + std::to_string(index) + " due " +
                    std::to_string((due - fake->Now()).count()) +
                    (liveness == Liveness::kWeak ? " weak" : ""));
    };
  };
  a->SetOrderedCallHandler(handler("a", &a_ids));
  b->SetOrderedCallHandler(handler("b", &b_ids));
  a->SetBeforeEntryHook([&] { log.push_back("enter a"); });
  b->SetEntryHook([&] { log.push_back("b checkpoint"); });
  const TimePoint start = clock.Now();
  a_ids.push_back(a->ScheduleOrderedCall(start + milliseconds(2)));
  b_ids.push_back(b->ScheduleOrderedCall(start + milliseconds(1), Liveness::kWeak));
  a->ScheduleOrdered(Record(&log, "a task"), milliseconds(2));
  a_ids.push_back(a->ScheduleOrderedCall(start + milliseconds(2)));
  a_ids.push_back(a->ScheduleOrderedCall(start + milliseconds(1)));
  a_ids.push_back(a->ScheduleOrderedCall(start + milliseconds(3)));
  for (EventLoop::TimerId id : a_ids) EXPECT_NE(id, TimerQueue::kInvalidId);
  EXPECT_FALSE(b->CancelOrdered(a_ids[3]));  // another loop's
  EXPECT_TRUE(a->CancelOrdered(a_ids[3]));
  clock.Advance(milliseconds(5));
  looper->RunUntilIdle();
  // (Dues are printed relative to the clock, now 5 ms on.)
  EXPECT_EQ(log,
            (std::vector<std::string>{
                "b0 due -4000000 weak", "b checkpoint",  // b's checkpoint runs after each entry
                "enter a", "a2 due -4000000", "b checkpoint", "enter a", "a0 due -3000000",
                "b checkpoint", "enter a", "a task", "b checkpoint", "enter a", "a1 due -3000000",
                "b checkpoint"}));
}

// A timer with a timeout of 0 takes its deadline from Looper::DeadlineNow(),
// which may be a little ahead of the clock (base::DeadlineClock); a due-now
// post made after it is stamped no earlier, so it never overtakes the timer.
// (Stamped with the clock alone, posts overtook their timer here.)
TEST(EventLoop, L3ADueNowPostDoesNotOvertakeATimerOfTimeoutZeroSetBeforeIt) {
  if (!base::DeadlineClock::TscIsTrusted()) GTEST_SKIP() << "deadlines are clock reads here";
  auto looper = MakeLooper();
  auto event_loop = EventLoop::Create();
  event_loop->Bind(looper.get());
  std::vector<int> log;
  // Past the deadline clock's calibration first.
  const TimePoint calibrated = looper->Now() + 2 * base::DeadlineClock::kCalibrationSpan;
  while (looper->Now() < calibrated) looper->DeadlineNow();
  event_loop->PostOrdered([&] {
    for (int i = 0; i < 20000; ++i) {
      event_loop->ScheduleOrderedCall(looper->DeadlineNow());
      event_loop->PostOrdered([&log, i] { log.push_back(-i - 1); });
    }
  });
  int timers = 0;
  event_loop->SetOrderedCallHandler(
      [&](EventLoop::TimerId, TimePoint, Liveness) { log.push_back(timers++); });
  looper->RunUntilIdle();
  ASSERT_EQ(log.size(), 40000u);
  for (int i = 0; i < 20000; ++i) {
    ASSERT_EQ(log[2 * i], i) << i;
    ASSERT_EQ(log[2 * i + 1], -i - 1) << i;
  }
  event_loop->Shutdown();
}

TEST(EventLoop, J3WeakOrderedCallEntriesDoNotKeepTheLoopAlive) {
  auto looper = MakeLooper();
  auto event_loop = EventLoop::Create();
  event_loop->Bind(looper.get());
  int ran = 0;
  event_loop->SetOrderedCallHandler([&](EventLoop::TimerId, TimePoint, Liveness) { ++ran; });
  event_loop->ScheduleOrderedCall(looper->Now() + std::chrono::hours(1), Liveness::kWeak);
  EXPECT_EQ(looper->Run(), Looper::RunResult::kIdle);
  EXPECT_EQ(ran, 0);
  // A kept-alive one is waited for.
  event_loop->ScheduleOrderedCall(looper->Now() + milliseconds(1));
  EXPECT_EQ(looper->Run(), Looper::RunResult::kIdle);
  EXPECT_EQ(ran, 1);
  event_loop->Shutdown();
}

TEST_F(TwoLoopsOnOneLooper, L7ShutdownDropsOrderedCallEntriesAndRefusesNewOnes) {
  std::vector<std::string> log;
  a->SetOrderedCallHandler([&](EventLoop::TimerId, TimePoint, Liveness) { log.push_back("a"); });
  b->SetOrderedCallHandler([&](EventLoop::TimerId, TimePoint, Liveness) { log.push_back("b"); });
  for (int i = 0; i < 100; ++i) {
    a->ScheduleOrderedCall(clock.Now() + milliseconds(i));
    b->ScheduleOrderedCall(clock.Now() + milliseconds(i));
  }
  a->Shutdown();
  EXPECT_EQ(a->ScheduleOrderedCall(clock.Now()), TimerQueue::kInvalidId);
  clock.Advance(milliseconds(100));
  looper->RunUntilIdle();
  EXPECT_EQ(log, std::vector<std::string>(100, "b"));
  b->Shutdown();
}

// Out of slots, scheduling first reclaims the slots of cancelled entries
// (which keep them until a compaction): the ids it returns then are the
// entries' own, and cancel them.
TEST(EventLoop, OrderedCallEntriesReclaimCancelledSlotsWhenTheQueueIsFull) {
  base::FakeTickClock clock;
  Looper::Options options{&clock};
  options.max_queued_remote_posts = 8;
  auto looper = std::move(Looper::Create(options)).value();
  looper->SetCapacityForTesting(8 + 200);  // 200 slots for the home thread
  auto event_loop = EventLoop::Create(&clock);
  event_loop->Bind(looper.get());
  std::vector<EventLoop::TimerId> ran;
  event_loop->SetOrderedCallHandler(
      [&](EventLoop::TimerId id, TimePoint, Liveness) { ran.push_back(id); });
  const TimePoint due = clock.Now() + milliseconds(1);
  std::vector<EventLoop::TimerId> ids;
  for (int i = 0; i < 200; ++i) ids.push_back(event_loop->ScheduleOrderedCall(due));
  EXPECT_EQ(event_loop->ScheduleOrderedCall(due), TimerQueue::kInvalidId);  // full
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(event_loop->CancelOrdered(ids[i]));
  std::vector<EventLoop::TimerId> again;
  for (int i = 0; i < 100; ++i) {
    again.push_back(event_loop->ScheduleOrderedCall(due));
    ASSERT_NE(again.back(), TimerQueue::kInvalidId) << i;
  }
  EXPECT_EQ(event_loop->ScheduleOrderedCall(due), TimerQueue::kInvalidId);  // full again
  for (int i = 0; i < 50; ++i) EXPECT_TRUE(event_loop->CancelOrdered(again[i]));
  clock.Advance(milliseconds(1));
  looper->RunUntilIdle();
  std::vector<EventLoop::TimerId> expected(ids.begin() + 100, ids.end());
  expected.insert(expected.end(), again.begin() + 50, again.end());
  EXPECT_EQ(ran, expected);
  event_loop->Shutdown();
}

// Two runtimes on one thread take their timer ids from the one queue of
// their Looper: one's clearTimeout(n) must not cancel the other's timer n.
TEST_F(TwoLoopsOnOneLooper, CancelOrderedLeavesAnotherLoopsEntryOnTheSameLooperAlone) {
  std::vector<std::string> log;
  EventLoop::TimerId a_id = a->ScheduleOrdered(Record(&log, "a"), milliseconds(1));
  EventLoop::TimerId b_id = b->ScheduleOrdered(Record(&log, "b"), milliseconds(1));
  EventLoop::TimerId b_id2 = b->ScheduleOrdered(Record(&log, "b2"), milliseconds(1));
  EXPECT_FALSE(a->CancelOrdered(b_id));
  EXPECT_EQ(a->CancelOrderedMany(&b_id2, 1), 0u);
  EXPECT_FALSE(b->CancelOrdered(a_id));
  // Nor does the application's own Cancel() (owner 0) reach them.
  EXPECT_FALSE(looper->Cancel(a_id));
  clock.Advance(milliseconds(1));
  looper->RunUntilIdle();
  EXPECT_EQ(log, (std::vector<std::string>{"a", "b", "b2"}));
  // Each still cancels its own.
  EventLoop::TimerId a_id3 = a->ScheduleOrdered(Record(&log, "a3"), milliseconds(1));
  EventLoop::TimerId b_id3 = b->ScheduleOrdered(Record(&log, "b3"), milliseconds(1));
  EXPECT_TRUE(a->CancelOrdered(a_id3));
  EXPECT_EQ(b->CancelOrderedMany(&b_id3, 1), 1u);
  clock.Advance(milliseconds(1));
  looper->RunUntilIdle();
  EXPECT_EQ(log.size(), 3u);
}

// A cross-thread post waits in the same queue as the timers, under an id
// nobody was given. A guessed id (clearTimeout(1), 2, ...) must not cancel
// it: it would never run, and its unit of max_queued_remote_posts would
// never come back (every later cross-thread post refused).
TEST(EventLoop, CrossThreadPostsCannotBeCancelledAndKeepTheirLimitUnits) {
  base::FakeTickClock clock;
  Looper::Options options;
  options.clock = &clock;
  options.max_queued_remote_posts = 2;
  auto looper = std::move(Looper::Create(options)).value();
  auto event_loop = EventLoop::Create(&clock);
  event_loop->Bind(looper.get());
  std::atomic<int> ran{0};
  auto post_two = [&] {
    int accepted = 0;
    std::thread([&] {
      for (int i = 0; i < 2; ++i) {
        accepted += looper->remote()->Post([&] { ++ran; }, milliseconds(5));
      }
    }).join();
    return accepted;
  };
  ASSERT_EQ(post_two(), 2);
  looper->Step();  // moves them into the queue
  std::vector<EventLoop::TimerId> guesses;
  for (EventLoop::TimerId id = 1; id <= 16; ++id) guesses.push_back(id);
  for (EventLoop::TimerId id : guesses) {
    EXPECT_FALSE(event_loop->CancelOrdered(id)) << id;
    EXPECT_FALSE(looper->Cancel(id)) << id;
  }
  EXPECT_EQ(event_loop->CancelOrderedMany(guesses.data(), guesses.size()), 0u);
  EXPECT_EQ(looper->CancelMany(guesses.data(), guesses.size()), 0u);
  clock.Advance(milliseconds(5));
  looper->RunUntilIdle();
  EXPECT_EQ(ran.load(), 2);
  // Their units came back: the next two are accepted (and run).
  EXPECT_EQ(post_two(), 2);
  clock.Advance(milliseconds(5));
  looper->RunUntilIdle();
  EXPECT_EQ(ran.load(), 4);
  event_loop->Shutdown();
}

TEST(EventLoop, L7ShutdownFromInsideAnEntryDropsTheRestOfTheBatch) {
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  auto event_loop = EventLoop::Create(&clock);
  event_loop->Bind(looper.get());
  std::vector<std::string> log;
  event_loop->PostInternal([&] {
    log.push_back("first");
    event_loop->Shutdown();
  });
  event_loop->PostInternal(Record(&log, "second"));
  looper->RunUntilIdle();
  EXPECT_EQ(log, (std::vector<std::string>{"first"}));
}

TEST(EventLoop, L7EntryMayDropTheLastReferenceToItsLoop) {
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  auto event_loop = EventLoop::Create(&clock);
  event_loop->Bind(looper.get());
  bool ran = false;
  event_loop->PostInternal([&] {
    event_loop->Shutdown();
    event_loop.reset();  // the runtime goes away from inside its own task
    ran = true;
  });
  looper->RunUntilIdle();
  EXPECT_TRUE(ran);
  EXPECT_EQ(event_loop, nullptr);
}

TEST(EventLoop, L7SyncWaitIsReleasedWhenShutdownDropsTheEntry) {
  auto looper = MakeLooper();
  auto event_loop = EventLoop::Create();
  event_loop->Bind(looper.get());
  std::promise<bool> result;
  std::thread waiter([&] { result.set_value(event_loop->PostInternalAndWait([] {})); });
  // Wait until the entry is queued, then drop it without running it.
  while (event_loop->NextDue() == TimePoint::max()) std::this_thread::yield();
  event_loop->Shutdown();
  waiter.join();
  EXPECT_FALSE(result.get_future().get());
}

TEST(EventLoop, L7SyncWaitReturnsTrueWhenTheEntryRan) {
  auto looper = MakeLooper();
  auto event_loop = EventLoop::Create();
  event_loop->Bind(looper.get());
  event_loop->Ref();
  bool ran = false;
  std::thread waiter([&] {
    EXPECT_TRUE(event_loop->PostInternalAndWait([&] { ran = true; }));
    event_loop->PostInternal([&] { event_loop->Unref(); });
  });
  looper->Run();
  waiter.join();
  EXPECT_TRUE(ran);
  event_loop->Shutdown();
  EXPECT_FALSE(event_loop->PostInternalAndWait([] {}));
}

TEST(EventLoop, L9NestedDrainRunsOnlyNestableEntriesPresentAtItsStart) {
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  auto event_loop = EventLoop::Create(&clock);
  event_loop->Bind(looper.get());
  std::vector<std::string> log;
  int checkpoints = 0;
  event_loop->SetEntryHook([&] { ++checkpoints; });
  event_loop->PostInternal(Record(&log, "nestable 1"));
  event_loop->PostInternal(Record(&log, "non-nestable"), Nesting::kNonNestable);
  event_loop->PostInternal([&] {
    log.push_back("nestable 2");
    event_loop->PostInternal(Record(&log, "posted during the drain"));
  });
  EXPECT_EQ(event_loop->RunNestableTasks(), 2u);
  EXPECT_EQ(log, (std::vector<std::string>{"nestable 1", "nestable 2"}));
  EXPECT_EQ(checkpoints, 0);  // no microtask checkpoint inside a nested drain
  looper->RunUntilIdle();
  EXPECT_EQ(log, (std::vector<std::string>{"nestable 1", "nestable 2", "non-nestable",
                                           "posted during the drain"}));
  event_loop->Shutdown();
}

// V8 pumps its message loop (RunNestableTasks) from inside a task. The
// pass's batch had already taken B and C out of the queue, so the nested
// drain ran only D, posted later, and the outer pass ran B and C after it.
TEST(EventLoop, L9NestedDrainFromAnEntryRunsTheRestOfItsBatchFirst) {
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  auto event_loop = EventLoop::Create(&clock);
  event_loop->Bind(looper.get());
  std::vector<std::string> log;
  std::size_t nested_ran = 0;
  event_loop->PostInternal([&] {
    log.push_back("A");
    event_loop->PostInternal(Record(&log, "D"));
    nested_ran = event_loop->RunNestableTasks();
  });
  event_loop->PostInternal(Record(&log, "B"));
  event_loop->PostInternal(Record(&log, "C"));
  looper->RunUntilIdle();
  EXPECT_EQ(log, (std::vector<std::string>{"A", "B", "C", "D"}));
  EXPECT_EQ(nested_ran, 3u);
  event_loop->Shutdown();
}

// The same across batches, with a non-nestable entry in the rest of the
// batch: every entry runs once, the nestable ones in posting order, the
// non-nestable one after the drain, in the same pass.
TEST(EventLoop, L9NestedDrainFromAnEntryRunsEveryEntryOnce) {
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  auto event_loop = EventLoop::Create(&clock);
  event_loop->Bind(looper.get());
  std::vector<int> log;
  constexpr int kEntries = 100;  // several batches
  event_loop->PostInternal([&] {
    log.push_back(0);
    event_loop->RunNestableTasks();
  });
  for (int i = 1; i < kEntries; ++i) {
    event_loop->PostInternal([&log, i] { log.push_back(i); },
                             i == 5 ? Nesting::kNonNestable : Nesting::kNestable);
  }
  looper->Step();
  std::vector<int> expected;
  for (int i = 0; i < kEntries; ++i) {
    if (i != 5) expected.push_back(i);
  }
  expected.push_back(5);
  EXPECT_EQ(log, expected);
  looper->RunUntilIdle();
  EXPECT_EQ(log, expected);
  event_loop->Shutdown();
}

TEST(EventLoop, L8QuitMidPassKeepsTheRestOfTheBatchInOrder) {
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  auto event_loop = EventLoop::Create(&clock);
  event_loop->Bind(looper.get());
  std::vector<int> ran;
  for (int i = 0; i < 10; ++i) {
    event_loop->PostInternal([&, i] {
      ran.push_back(i);
      if (i == 2) looper->Quit();
    });
  }
  EXPECT_EQ(looper->Run(), Looper::RunResult::kQuit);
  EXPECT_EQ(ran, (std::vector<int>{0, 1, 2}));
  looper->RunUntilIdle();
  EXPECT_EQ(ran, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  event_loop->Shutdown();
}

TEST(EventLoop, L11LoopsHaveDistinctOwnerIds) {
  auto a = EventLoop::Create();
  auto b = EventLoop::Create();
  EXPECT_NE(a->owner_id(), b->owner_id());
}

// The seeds' internal-lane unit-starvation bug: an eventfd unit written for an
// immediate entry was spent on a due-but-unsignalled delayed entry, leaving
// the most recent post waiting for an unrelated future post. Here an
// immediate post from another thread races an overdue delayed entry, many
// times over; each must run without any further post.
TEST(EventLoop, L8ImmediatePostRacingAnOverdueDelayedEntryRunsWithoutAnotherPost) {
  auto looper = MakeLooper();
  auto event_loop = EventLoop::Create();
  event_loop->Bind(looper.get());
  constexpr int kRounds = 300;
  std::mutex mutex;
  std::condition_variable condition;
  int immediate_done = 0;
  int delayed_done = 0;
  looper->Ref();
  std::thread producer([&] {
    for (int round = 0; round < kRounds; ++round) {
      event_loop->PostInternalDelayed(
          [&] {
            std::lock_guard lock(mutex);
            ++delayed_done;
            condition.notify_all();
          },
          std::chrono::microseconds(round % 7 * 50), Nesting::kNestable, Liveness::kKeepsAlive);
      // Land the immediate post around the delayed entry's deadline.
      auto spin_until = std::chrono::steady_clock::now() + std::chrono::microseconds(round % 5 * 60);
      while (std::chrono::steady_clock::now() < spin_until) {
      }
      event_loop->PostInternal([&] {
        std::lock_guard lock(mutex);
        ++immediate_done;
        condition.notify_all();
      });
      std::unique_lock lock(mutex);
      // Generous bound: a lost wakeup waits forever, a slow machine does not.
      bool done = condition.wait_for(lock, std::chrono::seconds(10), [&] {
        return immediate_done == round + 1 && delayed_done == round + 1;
      });
      if (!done) {
        ADD_FAILURE() << "round " << round << " never completed: a lost wakeup";
        break;
      }
    }
    looper->remote()->Post([&] { looper->Unref(); });
  });
  looper->Run();
  producer.join();
  EXPECT_EQ(immediate_done, kRounds);
  EXPECT_EQ(delayed_done, kRounds);
  event_loop->Shutdown();
}

// ---- ScheduleInternal / CancelInternal ----------------------------------------

// A cancelled delayed entry leaves at once: its destructor runs, its
// deadline no longer decides the wait (no wakeup for it), and its id is
// dead, also for the entry that reuses its slot.
TEST(EventLoop, CancelInternalRemovesADelayedEntryBeforeItIsDue) {
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  auto event_loop = EventLoop::Create(&clock);
  event_loop->Bind(looper.get());
  std::atomic<int> destroyed{0};
  std::vector<std::string> log;
  EventLoop::TimerId first = event_loop->ScheduleInternal(
      [&log, g = DestructionCounter(&destroyed)] { log.push_back("first"); }, milliseconds(5),
      Nesting::kNonNestable);
  EventLoop::TimerId second =
      event_loop->ScheduleInternal(Record(&log, "second"), milliseconds(10));
  ASSERT_NE(first, TimerQueue::kInvalidId);
  ASSERT_NE(second, TimerQueue::kInvalidId);
  EXPECT_EQ(looper->NextTimeoutMs(), 5);
  EXPECT_TRUE(event_loop->CancelInternal(first));
  EXPECT_EQ(destroyed.load(), 1);
  EXPECT_EQ(looper->NextTimeoutMs(), 10);
  EXPECT_FALSE(event_loop->CancelInternal(first));
  clock.Advance(milliseconds(10));
  looper->RunUntilIdle();
  EXPECT_EQ(log, (std::vector<std::string>{"second"}));
  EXPECT_FALSE(event_loop->CancelInternal(second));  // it ran
  // The next entry takes the first one's slot; the stale ids leave it alone.
  EventLoop::TimerId third = event_loop->ScheduleInternal(Record(&log, "third"), milliseconds(1));
  EXPECT_EQ(TimerQueue::SlotOf(third), TimerQueue::SlotOf(first));
  EXPECT_FALSE(event_loop->CancelInternal(first));
  EXPECT_FALSE(event_loop->CancelInternal(second));
  clock.Advance(milliseconds(1));
  looper->RunUntilIdle();
  EXPECT_EQ(log, (std::vector<std::string>{"second", "third"}));
  EXPECT_EQ(looper->NextTimeoutMs(), -1);
  event_loop->Shutdown();
}

// Once due, an entry has joined the FIFO and will run: the cancel is
// refused (an entry of the same pass cancels it too late).
TEST(EventLoop, CancelInternalLeavesAnEntryThatIsAlreadyDue) {
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  auto event_loop = EventLoop::Create(&clock);
  event_loop->Bind(looper.get());
  std::vector<std::string> log;
  EventLoop::TimerId due = event_loop->ScheduleInternal(Record(&log, "due"), milliseconds(1));
  bool cancelled = true;
  event_loop->PostInternal([&] { cancelled = event_loop->CancelInternal(due); });
  clock.Advance(milliseconds(1));
  looper->RunUntilIdle();
  EXPECT_FALSE(cancelled);
  EXPECT_EQ(log, (std::vector<std::string>{"due"}));
  // A delay of zero is due at once, behind what was queued before it.
  event_loop->PostInternal(Record(&log, "immediate"));
  EventLoop::TimerId now = event_loop->ScheduleInternal(Record(&log, "zero"), Duration::zero());
  EXPECT_NE(now, TimerQueue::kInvalidId);
  looper->RunUntilIdle();
  EXPECT_EQ(log, (std::vector<std::string>{"due", "immediate", "zero"}));
  event_loop->Shutdown();
}

TEST(EventLoop, L7ScheduleInternalAfterShutdownIsRefusedAndCancelsNothing) {
  auto looper = MakeLooper();
  auto event_loop = EventLoop::Create();
  event_loop->Bind(looper.get());
  std::atomic<int> destroyed{0};
  EventLoop::TimerId pending =
      event_loop->ScheduleInternal([g = DestructionCounter(&destroyed)] {}, std::chrono::hours(1));
  event_loop->Shutdown();
  EXPECT_EQ(destroyed.load(), 1);
  EXPECT_FALSE(event_loop->CancelInternal(pending));
  EXPECT_EQ(event_loop->ScheduleInternal([g = DestructionCounter(&destroyed)] {}, milliseconds(1)),
            TimerQueue::kInvalidId);
  EXPECT_EQ(destroyed.load(), 2);
}

// The home thread schedules and cancels entries of its own (how the runtime
// drops the timeout task of an Atomics.waitAsync that was notified) while
// other threads post immediate and delayed entries and the lane runs them:
// every cancel takes exactly its own entry, never another thread's. (For
// TSan.)
TEST(EventLoop, CancelInternalOnTheHomeThreadRacesPostsFromOtherThreads) {
  auto looper = MakeLooper();
  auto event_loop = EventLoop::Create();
  event_loop->Bind(looper.get());
  constexpr int kThreads = 3;
  constexpr int kPostsPerThread = 2000;
  constexpr int kCancels = 3000;
  std::atomic<int> others_ran{0};
  std::atomic<int> ours_destroyed{0};
  std::atomic<bool> ours_ran{false};
  std::vector<std::thread> posters;
  for (int t = 0; t < kThreads; ++t) {
    posters.emplace_back([&] {
      for (int i = 0; i < kPostsPerThread; ++i) {
        if (i % 2 == 0) {
          event_loop->PostInternal([&] { ++others_ran; });
        } else {
          // Kept alive, so that Run() below returns only after they ran.
          EXPECT_NE(event_loop->ScheduleInternal([&] { ++others_ran; },
                                                 std::chrono::microseconds(i % 7 * 50),
                                                 Nesting::kNonNestable, Liveness::kKeepsAlive),
                    TimerQueue::kInvalidId);
        }
      }
    });
  }
  for (int i = 0; i < kCancels; ++i) {
    EventLoop::TimerId id = event_loop->ScheduleInternal(
        [&ours_ran, g = DestructionCounter(&ours_destroyed)] { ours_ran = true; },
        std::chrono::hours(1), Nesting::kNonNestable);
    ASSERT_NE(id, TimerQueue::kInvalidId);
    if (i % 16 == 0) looper->RunUntilIdle();
    ASSERT_TRUE(event_loop->CancelInternal(id));
    ASSERT_FALSE(event_loop->CancelInternal(id));
  }
  for (std::thread& poster : posters) poster.join();
  EXPECT_EQ(looper->Run(), Looper::RunResult::kIdle);
  EXPECT_EQ(others_ran.load(), kThreads * kPostsPerThread);
  EXPECT_EQ(ours_destroyed.load(), kCancels);
  EXPECT_FALSE(ours_ran.load());
  event_loop->Shutdown();
}

// CancelInternal is thread-safe: another thread schedules and cancels
// while the home thread runs the lane. An entry not due yet is always
// cancelled; one due at about the time of its cancel either runs or is
// cancelled, never both, never neither. (For TSan.)
TEST(EventLoop, CancelInternalFromAnotherThreadWhileTheLaneRuns) {
  auto looper = MakeLooper();
  auto event_loop = EventLoop::Create();
  event_loop->Bind(looper.get());
  constexpr int kRounds = 2000;
  std::atomic<int> immediate_ran{0};
  std::atomic<int> delayed_ran{0};
  std::atomic<int> destroyed{0};
  int cancelled = 0;
  event_loop->Ref();
  std::thread canceller([&] {
    for (int i = 0; i < kRounds; ++i) {
      bool far = i % 2 == 0;
      EventLoop::TimerId id = event_loop->ScheduleInternal(
          [&delayed_ran, g = DestructionCounter(&destroyed)] { ++delayed_ran; },
          far ? Duration(std::chrono::hours(1)) : Duration(std::chrono::microseconds(i % 5 * 20)));
      event_loop->PostInternal([&] { ++immediate_ran; });
      bool taken = event_loop->CancelInternal(id);
      if (far && !taken)
        ADD_FAILURE() << "round " << i << ": an entry due in an hour was not cancelled";
      cancelled += taken;
    }
    // (Behind every entry above that is due by now.)
    event_loop->ScheduleInternal([&] { event_loop->Unref(); }, std::chrono::milliseconds(1));
  });
  EXPECT_EQ(looper->Run(), Looper::RunResult::kIdle);
  canceller.join();
  EXPECT_EQ(immediate_ran.load(), kRounds);
  EXPECT_EQ(delayed_ran.load() + cancelled, kRounds);
  EXPECT_EQ(destroyed.load(), kRounds);
  event_loop->Shutdown();
}

}  // namespace
}  // namespace hostloop::loop
