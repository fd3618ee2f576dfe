#include "loop/looper.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "base/unique_fd.h"
#include "loop/event_loop.h"

namespace hostloop::loop {
namespace {

using std::chrono::milliseconds;

std::unique_ptr<Looper> MakeLooper(const base::TickClock* clock = base::TickClock::Default()) {
  auto looper = Looper::Create(Looper::Options{clock});
  EXPECT_TRUE(looper.ok());
  return std::move(looper).value();
}

Task Record(std::vector<std::string>* log, std::string what) {
  return [log, what = std::move(what)] { log->push_back(what); };
}

struct Pipe {
  Pipe() { PCHECK(::pipe2(fds, O_NONBLOCK | O_CLOEXEC) == 0); }
  ~Pipe() {
    ::close(fds[0]);
    ::close(fds[1]);
  }
  void Write() { PCHECK(::write(fds[1], "x", 1) == 1); }
  void Read() {
    char c;
    PCHECK(::read(fds[0], &c, 1) == 1);
  }
  int fds[2];
};

TEST(Looper, MaxScheduledBoundsTheHomeThreadsPendingEntries) {
  Looper::Options options;
  options.max_scheduled = 3;
  auto looper = std::move(Looper::Create(options)).value();
  const TimePoint due = looper->Now() + std::chrono::hours(1);
  std::vector<Looper::TimerId> ids;
  for (int i = 0; i < 3; ++i) ids.push_back(looper->Schedule(due, [] {}));
  for (Looper::TimerId id : ids) EXPECT_NE(id, TimerQueue::kInvalidId);
  EXPECT_EQ(looper->Schedule(due, [] {}), TimerQueue::kInvalidId);
  // Room again once one is cancelled (and its slot reclaimed).
  EXPECT_TRUE(looper->Cancel(ids.back()));
  EXPECT_NE(looper->Schedule(due, [] {}), TimerQueue::kInvalidId);
}

TEST(Looper, MaxScheduledCountsOnlyTheHomeThreadsEntries) {
  // Cross-thread posts waiting in the queue are another thread's: they made
  // the home thread's timers fail (a RangeError in JS).
  Looper::Options options;
  options.max_scheduled = 3;
  auto looper = std::move(Looper::Create(options)).value();
  std::thread([&] {
    for (int i = 0; i < 3; ++i) EXPECT_TRUE(looper->remote()->Post([] {}, std::chrono::hours(1)));
  }).join();
  looper->Step();  // moves them into the queue
  EXPECT_NE(looper->Schedule(looper->Now() + std::chrono::hours(1), [] {}), TimerQueue::kInvalidId);
}

TEST(Looper, AnEmptyTaskPostedFromAnotherThreadIsRefusedAtTheCall) {
  auto looper = MakeLooper();
  EXPECT_DEATH(std::thread([&] { looper->remote()->Post(Task()); }).join(),
               "LooperRemote::Post: an empty task");
}

TEST(Looper, L3AHomePostDoesNotOvertakeAnOverdueCrossThreadPostStillInTheInbox) {
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  std::vector<std::string> log;
  looper->Post([&] {
    std::thread([&] {
      looper->remote()->Post(Record(&log, "remote, due in 10 ms"), milliseconds(10));
    }).join();
    clock.Advance(milliseconds(20));  // this entry runs long: the remote post is overdue
    looper->Post(Record(&log, "home post, made after"));
  });
  looper->RunUntilIdle();
  EXPECT_EQ(log, (std::vector<std::string>{"remote, due in 10 ms", "home post, made after"}));
}

TEST(Looper, L4FdsArePolledWhileALaneIsFloodedEvenWhenTheClockStandsStill) {
  // The fd-poll throttle went by the (injected) clock alone: frozen, it
  // never let the fds be polled again.
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  Pipe pipe;
  bool seen = false;
  auto watch = looper->WatchFd(pipe.fds[0], EPOLLIN, [&](uint32_t) {
    pipe.Read();
    seen = true;
  });
  ASSERT_TRUE(watch.ok());
  long reposts = 0;
  std::function<void()> repost = [&] {
    if (++reposts == 2) pipe.Write();
    if (seen || reposts == 1'000'000) {
      looper->Quit();
      return;
    }
    looper->Post([&] { repost(); });
  };
  looper->Post([&] { repost(); });
  looper->Run();
  looper->UnwatchFd(watch.value());
  EXPECT_TRUE(seen);
  EXPECT_LT(reposts, 10'000);
}

// (The overflow is undefined behaviour: the UBSan build of this test
// failed on the old code.)
TEST(Looper, TracedLagOfAnEntryDueAtTheStartOfTimeDoesNotOverflow) {
  auto looper = MakeLooper();
  looper->set_trace_lag(true);
  bool ran = false;
  looper->Schedule(TimePoint::min(), [&] { ran = true; });
  looper->RunUntilIdle();
  EXPECT_TRUE(ran);
  EXPECT_GE(looper->stats().max_lag.count(), 0);
}

TEST(Looper, L1PostsFromAnyThreadRunOnTheHomeThread) {
  auto looper = MakeLooper();
  std::thread::id home = std::this_thread::get_id();
  std::atomic<int> ran{0};
  std::vector<std::thread::id> ran_on;
  std::thread producer([&] {
    for (int i = 0; i < 10; ++i) {
      EXPECT_TRUE(looper->Post([&] {
        ran_on.push_back(std::this_thread::get_id());
        if (++ran == 10) looper->Quit();
      }));
    }
  });
  producer.join();
  EXPECT_EQ(looper->Run(), Looper::RunResult::kQuit);
  EXPECT_EQ(ran.load(), 10);
  for (auto id : ran_on) EXPECT_EQ(id, home);
}

TEST(Looper, L1RemotePostAfterTheLooperIsGoneIsRefusedAndDestroyed) {
  auto looper = MakeLooper();
  std::shared_ptr<LooperRemote> remote = looper->remote();
  looper.reset();
  auto token = std::make_shared<int>(0);
  EXPECT_FALSE(remote->Post([token] {}));
  EXPECT_EQ(token.use_count(), 1);  // the refused task was destroyed
}

TEST(Looper, L3OrderedLaneRunsByDueThenPostingOrder) {
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  std::vector<std::string> log;
  looper->PostDelayed(Record(&log, "timer 10ms"), milliseconds(10));
  looper->Post(Record(&log, "app 1"));
  looper->PostDelayed(Record(&log, "timer 5ms"), milliseconds(5));
  looper->Post(Record(&log, "app 2"));
  looper->PostDelayed(Record(&log, "timer 10ms second"), milliseconds(10));
  looper->RunUntilIdle();
  EXPECT_EQ(log, (std::vector<std::string>{"app 1", "app 2"}));
  clock.Advance(milliseconds(10));
  looper->RunUntilIdle();
  EXPECT_EQ(log, (std::vector<std::string>{"app 1", "app 2", "timer 5ms", "timer 10ms",
                                           "timer 10ms second"}));
}

TEST(Looper, L3CrossThreadPostRunsAfterATimerThatWasOverdueWhenItWasPosted) {
  // The home thread reads no clock for a while (a long task); a timer comes
  // due meanwhile; then another thread posts. The post was made after the
  // timer's deadline, so it runs after the timer.
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  std::vector<std::string> log;
  looper->PostDelayed(Record(&log, "timer due at +50 ms"), milliseconds(50));
  clock.Advance(milliseconds(180));
  std::thread([&] { looper->Post(Record(&log, "posted at +180 ms")); }).join();
  looper->RunUntilIdle();
  EXPECT_EQ(log, (std::vector<std::string>{"timer due at +50 ms", "posted at +180 ms"}));
}

TEST(Looper, L3HomePostInALongEntryRunsAfterATimerThatCameDueDuringIt) {
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  std::vector<std::string> log;
  looper->Post([&] {
    looper->PostDelayed(Record(&log, "timer due at +50 ms"), milliseconds(50));
    clock.Advance(milliseconds(200));  // the entry runs long
    looper->Post(Record(&log, "posted at +200 ms"));
  });
  looper->RunUntilIdle();
  EXPECT_EQ(log, (std::vector<std::string>{"timer due at +50 ms", "posted at +200 ms"}));
}

TEST(Looper, L7PostsFromTheDestructorsOfDroppedTasksAreRefused) {
  // A task's destructor that posts while ~Looper drops the queues: the post
  // is refused, nothing lands in a queue being cleared (ASan saw a
  // use-after-free when the post grew the ring buffer under the destructor).
  int accepted = 0;
  int refused = 0;
  struct PostOnDestroy {
    Looper* looper;
    int* accepted;
    int* refused;
    bool armed = true;
    PostOnDestroy(Looper* l, int* a, int* r) : looper(l), accepted(a), refused(r) {}
    PostOnDestroy(PostOnDestroy&& other) noexcept
        : looper(other.looper), accepted(other.accepted), refused(other.refused) {
      other.armed = false;
    }
    ~PostOnDestroy() {
      if (!armed) return;
      ++*(looper->Post([] {}) ? accepted : refused);
    }
  };
  {
    auto looper = MakeLooper();
    for (int i = 0; i < 40; ++i) {
      looper->Post([p = PostOnDestroy(looper.get(), &accepted, &refused)] {});
      looper->PostDelayed([p = PostOnDestroy(looper.get(), &accepted, &refused)] {}, milliseconds(5));
    }
  }
  EXPECT_EQ(accepted, 0);
  EXPECT_EQ(refused, 80);
}

// An object a queued task owns may release an fd watch or a consumer in its
// destructor. When ~Looper drops the task unrun, those home-thread calls
// must still work: ~Looper had already cleared the thread's Looper, and
// UnwatchFd/RemoveConsumer died in their home-thread CHECK.
TEST(Looper, L7TasksDroppedByTheDestructorMayUnwatchFdsAndRemoveConsumers) {
  struct Releaser {
    Looper* looper;
    Looper::WatchId watch;
    Looper::ConsumerId consumer;
    std::weak_ptr<int> watch_alive;     // held by the watch's callback
    std::weak_ptr<int> consumer_alive;  // held by the consumer
    int* released;
    bool armed = true;
    Releaser(Looper* l, Looper::WatchId w, Looper::ConsumerId c, std::weak_ptr<int> wa,
             std::weak_ptr<int> ca, int* r)
        : looper(l), watch(w), consumer(c), watch_alive(wa), consumer_alive(ca), released(r) {}
    Releaser(Releaser&& other) noexcept
        : looper(other.looper),
          watch(other.watch),
          consumer(other.consumer),
          watch_alive(other.watch_alive),
          consumer_alive(other.consumer_alive),
          released(other.released) {
      other.armed = false;
    }
    ~Releaser() {
      if (!armed) return;
      looper->UnwatchFd(watch);
      looper->RemoveConsumer(consumer);
      // Both registrations are gone at once (their callbacks destroyed).
      if (watch_alive.expired() && consumer_alive.expired()) ++*released;
    }
  };
  Pipe pipes[3];
  int released = 0;
  {
    auto looper = MakeLooper();
    int next_pipe = 0;
    auto add = [&](auto post) {
      auto in_watch = std::make_shared<int>(0);
      auto in_consumer = std::make_shared<int>(0);
      Looper::WatchId watch =
          looper->WatchFd(pipes[next_pipe++].fds[0], EPOLLIN, [in_watch](uint32_t) {}).value();
      Looper::ConsumerId consumer = looper->AddConsumer([in_consumer] {});
      post(Releaser(looper.get(), watch, consumer, in_watch, in_consumer, &released));
    };
    add([&](Releaser r) { looper->Post([r = std::move(r)] {}); });
    add([&](Releaser r) { looper->PostDelayed([r = std::move(r)] {}, milliseconds(5)); });
    add([&](Releaser r) {
      looper->Schedule(looper->Now() + milliseconds(5), [r = std::move(r)] {});
    });
  }
  EXPECT_EQ(released, 3);
}

TEST(Looper, L3AHugeDelayWaitsInsteadOfOverflowingIntoThePast) {
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  bool home_ran = false;
  std::atomic<bool> remote_ran{false};
  looper->PostDelayed([&] { home_ran = true; }, Duration::max());
  std::thread([&] { looper->PostDelayed([&] { remote_ran = true; }, Duration::max() - Duration(1)); })
      .join();
  looper->RunUntilIdle();
  EXPECT_FALSE(home_ran);
  EXPECT_FALSE(remote_ran);
  EXPECT_GT(*looper->NextTimeout(), std::chrono::hours(24 * 365));
  // For poll(), which takes an int: capped, never truncated into a short
  // wait (2^32 + 3 ms became 3 ms, and a foreign loop spun).
  EXPECT_EQ(looper->NextTimeoutMs(), std::numeric_limits<int>::max());
  looper->PostDelayed([] {}, std::chrono::milliseconds((int64_t{1} << 32) + 3));
  EXPECT_EQ(looper->NextTimeoutMs(), std::numeric_limits<int>::max());
}

// L8 for consumers: a producer that makes data available and calls Wake()
// while the loop is awake (after the consumer looked, before the loop armed
// its waker) must not be lost: the loop slept until an unrelated event, or
// for good. Here the data and the Wake() come from another thread during the
// consumer's own call, so the consumer looked before they existed; nothing
// else is scheduled, so a lost wakeup leaves Run() asleep until the
// watchdog (10 s, a bound that only a lost wakeup reaches) quits it.
// A consumer whose producer (another thread) makes one item available and
// calls Wake() while the consumer's first call runs, after it looked. It
// removes itself once it consumed the item.
struct LateProducer {
  std::mutex mutex;
  int available = 0;
  int consumed = 0;
  bool produced = false;
  Looper::ConsumerId id = 0;

  void AddTo(Looper& looper) {
    id = looper.AddConsumer(
        [this, &looper] {
          {
            std::lock_guard<std::mutex> lock(mutex);
            consumed += available;
            available = 0;
          }
          if (consumed == 1) {
            looper.RemoveConsumer(id);
            return;
          }
          if (!produced) {
            produced = true;
            std::thread([this, &looper] {
              {
                std::lock_guard<std::mutex> lock(mutex);
                available = 1;
              }
              looper.Wake();
            }).join();
          }
        },
        Liveness::kKeepsAlive);
  }
};

TEST(Looper, L8AWakeWhileTheLoopIsAwakeIsNotLost) {
  auto looper = MakeLooper();
  LateProducer producer;
  producer.AddTo(*looper);
  std::atomic<bool> watchdog_fired{false};
  auto remote = looper->remote();
  std::promise<void> done;
  std::thread watchdog([&, future = done.get_future()] {
    if (future.wait_for(std::chrono::seconds(10)) == std::future_status::timeout) {
      watchdog_fired = true;
      remote->Quit();
    }
  });
  looper->Run();
  done.set_value();
  watchdog.join();
  EXPECT_EQ(producer.consumed, 1);
  EXPECT_FALSE(watchdog_fired) << "the Wake() was lost: the loop slept until the watchdog";
}

// L10: a foreign loop may poll BackendFd() before its first Step(), and
// after a Run() returned: a cross-thread post turns it readable (it stayed
// unreadable until the first Step()).
TEST(Looper, L10TheBackendFdIsArmedBeforeTheFirstStepAndAfterRun) {
  for (bool after_run : {false, true}) {
    auto looper = MakeLooper();
    if (after_run) {
      looper->Post([] {});
      EXPECT_EQ(looper->Run(), Looper::RunResult::kIdle);
    }
    std::thread([remote = looper->remote()] { remote->Post([] {}); }).join();
    pollfd fd{looper->BackendFd(), POLLIN, 0};
    EXPECT_EQ(poll(&fd, 1, 10000), 1) << (after_run ? "after Run()" : "before the first Step()");
    EXPECT_EQ(looper->NextTimeoutMs(), 0);
    bool ran = false;
    looper->Post([&] { ran = true; });
    looper->Step();
    EXPECT_TRUE(ran);
  }
}

TEST(Looper, L10AWakeDuringAStepReachesTheForeignLoop) {
  // A producer's Wake() lands while a consumer runs, after it looked (a
  // handshake forces that moment). Run() passes again before sleeping (L8);
  // a Step() must hand the foreign loop an fd that is readable at once and a
  // zero timeout, or it sleeps with the item queued (poll(-1): for ever).
  auto looper = MakeLooper();
  LateProducer producer;
  producer.AddTo(*looper);
  ASSERT_TRUE(looper->Step());
  EXPECT_TRUE(producer.produced);
  EXPECT_EQ(producer.consumed, 0);
  EXPECT_EQ(looper->NextTimeoutMs(), 0);
  pollfd fd{looper->BackendFd(), POLLIN, 0};
  // Generous bound: readable at once; before the fix never (no deadline).
  ASSERT_EQ(::poll(&fd, 1, 10'000), 1) << "the Wake() during the Step() was lost";
  looper->Step();
  EXPECT_EQ(producer.consumed, 1);
  // Consumed: no wakeup is left behind to spin on.
  EXPECT_NE(looper->NextTimeoutMs(), 0);
}

TEST(Looper, L10AHomePostBetweenStepsKeepsAPendingWakeReadable) {
  // Re-arming the timerfd for the post's deadline reset it: the Wake() the
  // last Step() handed over waited for that deadline.
  auto looper = MakeLooper();
  LateProducer producer;
  producer.AddTo(*looper);
  ASSERT_TRUE(looper->Step());
  looper->PostDelayed([] {}, std::chrono::hours(1));
  pollfd fd{looper->BackendFd(), POLLIN, 0};
  // Generous bound: readable at once; before the fix only after an hour.
  ASSERT_EQ(::poll(&fd, 1, 10'000), 1);
  looper->Step();
  EXPECT_EQ(producer.consumed, 1);
}

TEST(Looper, L10AnInjectedClockArmsTheBackendFdByDistance) {
  // The timerfd counts CLOCK_MONOTONIC; an injected clock's time points
  // were armed as if they were its: a clock behind CLOCK_MONOTONIC made the
  // fd readable at once, for ever (a foreign loop spun until the deadline).
  struct BehindClock final : base::TickClock {
    TimePoint Now() const override {
      return base::TickClock::Default()->Now() - std::chrono::minutes(10);
    }
  };
  BehindClock clock;
  auto looper = MakeLooper(&clock);
  looper->PostDelayed([] {}, std::chrono::minutes(1));
  looper->Step();
  pollfd fd{looper->BackendFd(), POLLIN, 0};
  EXPECT_EQ(::poll(&fd, 1, 100), 0) << "readable with nothing due for an hour";
}

TEST(Looper, L10TheBackendFdIsArmedAfterRunUntilIdle) {
  // A foreign loop may flush due work with RunUntilIdle() between Step()s:
  // a cross-thread post after it must still make the backend fd readable.
  auto looper = MakeLooper();
  looper->Step();
  looper->Post([] {});
  looper->RunUntilIdle();
  bool ran = false;
  std::thread([&, remote = looper->remote()] { remote->Post([&] { ran = true; }); }).join();
  pollfd fd{looper->BackendFd(), POLLIN, 0};
  // Generous bound: readable at once; before the fix never.
  ASSERT_EQ(::poll(&fd, 1, 10'000), 1) << "the post after RunUntilIdle() did not wake the fd";
  looper->Step();
  EXPECT_TRUE(ran);
}

TEST(Looper, L10WorkAddedBetweenStepsMakesTheBackendFdReadable) {
  // The application posts (or runs JS that sets a timer) from its own event
  // handlers, outside Step(): the foreign loop, watching only the fd, must
  // wake for it, not at the next unrelated deadline.
  // (The real clock: the backend fd's deadline is a CLOCK_MONOTONIC timerfd.)
  auto looper = MakeLooper();
  looper->PostDelayed([] {}, std::chrono::hours(1));  // an unrelated far deadline
  EXPECT_TRUE(looper->Step());
  pollfd fd{looper->BackendFd(), POLLIN, 0};
  ASSERT_EQ(::poll(&fd, 1, 0), 0);
  bool ran = false;
  looper->Post([&] { ran = true; });
  // Generous bound: readable at once; before the fix it stayed unreadable
  // until the hour-long deadline.
  ASSERT_EQ(::poll(&fd, 1, 10'000), 1);
  looper->Step();
  EXPECT_TRUE(ran);
  // A delayed post between steps moves the deadline earlier.
  ASSERT_EQ(::poll(&fd, 1, 0), 0);
  bool delayed_ran = false;
  looper->PostDelayed([&] { delayed_ran = true; }, milliseconds(5));
  EXPECT_LE(looper->NextTimeoutMs(), 5);
  ASSERT_EQ(::poll(&fd, 1, 10'000), 1);
  // (The poll may return a moment before the deadline by the loop's clock.)
  for (int i = 0; i < 100 && !delayed_ran; ++i) {
    looper->Step();
    if (!delayed_ran) {
      ASSERT_EQ(::poll(&fd, 1, 10'000), 1);
    }
  }
  EXPECT_TRUE(delayed_ran);
}

// Until BackendFd() is first asked for, posts between runs leave the fd's
// deadline alone (nobody can be polling it); the first request catches up,
// on the home thread by arming the deadline, on another one by a Wake().
// Posts work between two Step()s, asks for the fd through `request`, and
// checks that it is readable at once and the next Step() runs the work.
void ExpectTheFirstBackendFdRequestCatchesUp(const std::function<int(Looper&)>& request) {
  auto looper = MakeLooper();
  looper->PostDelayed([] {}, std::chrono::hours(1));  // an unrelated far deadline
  EXPECT_TRUE(looper->Step());
  bool ran = false;
  looper->Post([&] { ran = true; });
  pollfd fd{request(*looper), POLLIN, 0};
  // Generous bound: readable at once; without the catch-up, in an hour.
  ASSERT_EQ(::poll(&fd, 1, 10'000), 1);
  looper->Step();
  EXPECT_TRUE(ran);
}

TEST(Looper, L10TheFirstBackendFdRequestCatchesUpWithWorkAddedBetweenSteps) {
  ExpectTheFirstBackendFdRequestCatchesUp([](Looper& looper) { return looper.BackendFd(); });
}

TEST(Looper, L10TheFirstBackendFdRequestFromAnotherThreadWakesTheFd) {
  ExpectTheFirstBackendFdRequestCatchesUp([](Looper& looper) {
    int backend_fd = -1;
    std::thread([&] { backend_fd = looper.BackendFd(); }).join();
    return backend_fd;
  });
}

TEST(Looper, L10QuitOnTheHomeThreadBetweenStepsMakesTheBackendFdReadable) {
  // The application quits from its own handler between two Step()s: the
  // foreign loop must wake for the Step() that returns false, not sleep to
  // the next deadline (an hour here).
  auto looper = MakeLooper();
  looper->PostDelayed([] {}, std::chrono::hours(1));
  EXPECT_TRUE(looper->Step());
  pollfd fd{looper->BackendFd(), POLLIN, 0};
  ASSERT_EQ(::poll(&fd, 1, 0), 0);
  looper->Quit();
  ASSERT_EQ(::poll(&fd, 1, 10'000), 1);
  EXPECT_FALSE(looper->Step());
}

TEST(Looper, L10UnwatchingAStaleWatchLeavesTheFdNumbersNewWatchAlone) {
  // Misuse the loop survives: an fd closed while watched (the kernel drops
  // its epoll registration), its number reused by a new watch, then the old
  // watch removed. The new watch must keep working.
  auto looper = MakeLooper();
  Pipe first;
  int reused = first.fds[0];
  auto old_id = looper->WatchFd(reused, EPOLLIN, [](uint32_t) {});
  ASSERT_TRUE(old_id.ok());
  ::close(first.fds[0]);
  int fds[2];
  PCHECK(::pipe2(fds, O_NONBLOCK | O_CLOEXEC) == 0);
  base::UniqueFd read_end(fds[0]);
  base::UniqueFd write_end(fds[1]);
  if (fds[0] != reused) {
    // The number was not reused after all: move the new pipe onto it.
    PCHECK(::dup2(fds[0], reused) == reused);
    read_end = base::UniqueFd(reused);
  }
  first.fds[0] = ::open("/dev/null", O_RDONLY | O_CLOEXEC);  // Pipe's destructor closes it
  int fired = 0;
  auto new_id = looper->WatchFd(read_end.Get(), EPOLLIN, [&](uint32_t) {
    char c;
    PCHECK(::read(read_end.Get(), &c, 1) == 1);
    ++fired;
  });
  ASSERT_TRUE(new_id.ok());
  looper->UnwatchFd(old_id.value());
  EXPECT_FALSE(looper->ModifyFd(old_id.value(), EPOLLIN).ok());
  PCHECK(::write(write_end.Get(), "x", 1) == 1);
  looper->Step();
  EXPECT_EQ(fired, 1);
  looper->UnwatchFd(new_id.value());
}

TEST(Looper, L1ACrossThreadProducerThatOutrunsTheHomeThreadIsRefused) {
  // Posts from another thread wait for the home thread; past the limit they
  // are refused (false, the task destroyed unrun) instead of piling up until
  // the queue's slots run out (which aborted the process at 8M).
  auto created = Looper::Create(Looper::Options{base::TickClock::Default(), 1000});
  ASSERT_TRUE(created.ok());
  std::unique_ptr<Looper> looper = std::move(created).value();
  int ran = 0;
  int accepted = 0;
  std::thread([&] {
    for (int i = 0; i < 1500; ++i) accepted += looper->Post([&] { ++ran; });
  }).join();
  EXPECT_EQ(accepted, 1000);
  looper->RunUntilIdle();
  EXPECT_EQ(ran, 1000);
  // Drained: accepted again.
  std::thread([&] { EXPECT_TRUE(looper->Post([&] { ++ran; })); }).join();
  looper->RunUntilIdle();
  EXPECT_EQ(ran, 1001);
}

// A clock that stands still until armed; after that, its first reading is
// the same time and every later one is `jump` later (as if what ran in
// between took that long).
class JumpingClock final : public base::TickClock {
 public:
  explicit JumpingClock(Duration jump) : jump_(jump) {}
  base::TimePoint Now() const override {
    base::TimePoint start(std::chrono::hours(1));
    if (!armed_.load()) return start;
    return reads_after_arming_.fetch_add(1) == 0 ? start : start + jump_;
  }
  void Arm() { armed_.store(true); }

 private:
  const Duration jump_;
  std::atomic<bool> armed_{false};
  mutable std::atomic<int> reads_after_arming_{0};
};

TEST(Looper, L4ALargeInboxDoesNotUseUpThePassesTimeBudget) {
  // Moving many cross-thread posts into the queue takes a while (here: the
  // clock jumps 5 ms after the pass's first reading, more than the ordered
  // lane's 1 ms budget). The budget started before the move, so the pass ran
  // the 8 entries before its first clock check and the lane crawled.
  JumpingClock clock(milliseconds(5));
  auto looper = MakeLooper(&clock);
  std::size_t ran = 0;
  std::thread([&] {
    for (int i = 0; i < 20000; ++i) looper->Post([&] { ++ran; });
  }).join();
  clock.Arm();
  looper->Step();
  EXPECT_EQ(ran, kOrderedBudget.max_entries);
}

TEST(Looper, L3HomePostInALongEntryRunsAfterEveryTimerThatCameDueDuringIt) {
  // Two timers; the first is due when the pass starts, the second comes due
  // during a long entry. A post at the end of that entry runs after both (it
  // was stamped with the pass's time, which the first timer's deadline did
  // not exceed, so no fresh reading was taken).
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  std::vector<std::string> log;
  looper->Post([&] {
    log.push_back("long entry");
    clock.Advance(milliseconds(15));  // now +30 ms
    looper->Post(Record(&log, "posted at +30 ms"));
  });
  looper->PostDelayed(Record(&log, "timer due at +10 ms"), milliseconds(10));
  looper->PostDelayed(Record(&log, "timer due at +20 ms"), milliseconds(20));
  clock.Advance(milliseconds(15));  // the pass starts at +15 ms
  looper->RunUntilIdle();
  EXPECT_EQ(log, (std::vector<std::string>{"long entry", "timer due at +10 ms",
                                           "timer due at +20 ms", "posted at +30 ms"}));
}

TEST(Looper, L3AppPostAfterAClockReadingRunsAfterTimersOverdueSinceThen) {
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  std::vector<std::string> log;
  looper->PostDelayed(Record(&log, "timer due at +10 ms"), milliseconds(10));
  looper->PostDelayed(Record(&log, "timer due at +20 ms"), milliseconds(20));
  clock.Advance(milliseconds(15));
  EXPECT_EQ(looper->NextTimeoutMs(), 0);  // a foreign loop asks: the clock is read
  clock.Advance(milliseconds(15));         // +30 ms
  looper->Post(Record(&log, "posted at +30 ms"));
  looper->RunUntilIdle();
  EXPECT_EQ(log, (std::vector<std::string>{"timer due at +10 ms", "timer due at +20 ms",
                                           "posted at +30 ms"}));
}

TEST(Looper, L1TheHomeThreadsOwnTimersDoNotCountAgainstTheCrossThreadPostLimit) {
  auto created = Looper::Create(Looper::Options{base::TickClock::Default(), 4});
  ASSERT_TRUE(created.ok());
  std::unique_ptr<Looper> looper = std::move(created).value();
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(looper->PostDelayed([] {}, std::chrono::hours(1)));
  looper->RunUntilIdle();
  bool accepted = false;
  std::thread([&] { accepted = looper->Post([] {}); }).join();
  EXPECT_TRUE(accepted);
}

TEST(Looper, L3AppMessageFromAnotherThreadRunsBetweenTheHomePostsAroundIt) {
  auto looper = MakeLooper();
  std::vector<std::string> log;
  auto event_loop = EventLoop::Create();
  event_loop->Bind(looper.get());
  event_loop->PostOrdered(Record(&log, "macrotask 1"));
  std::thread([&] { looper->Post(Record(&log, "app message")); }).join();
  event_loop->PostOrdered(Record(&log, "macrotask 2"));
  looper->RunUntilIdle();
  EXPECT_EQ(log, (std::vector<std::string>{"macrotask 1", "app message", "macrotask 2"}));
  event_loop->Shutdown();
}

TEST(Looper, L3DueNowEntryNeverOvertakesAnEarlierDueNowEntry) {
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  std::vector<std::string> log;
  looper->PostDelayed(Record(&log, "zero delay"), milliseconds(0));
  clock.Advance(milliseconds(3));
  looper->Post(Record(&log, "later post"));
  looper->RunUntilIdle();
  EXPECT_EQ(log, (std::vector<std::string>{"zero delay", "later post"}));
}

TEST(Looper, L3CancelledEntryNeverRuns) {
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  std::vector<std::string> log;
  auto a = looper->Schedule(clock.Now() + milliseconds(1), Record(&log, "a"));
  looper->Schedule(clock.Now() + milliseconds(2), Record(&log, "b"));
  EXPECT_TRUE(looper->Cancel(a));
  EXPECT_FALSE(looper->Cancel(a));
  clock.Advance(milliseconds(5));
  looper->RunUntilIdle();
  EXPECT_EQ(log, (std::vector<std::string>{"b"}));
}

TEST(Looper, L4EntriesPostedDuringAPassRunInTheNextPass) {
  auto looper = MakeLooper();
  std::vector<std::string> log;
  looper->Post([&] {
    log.push_back("first");
    looper->Post(Record(&log, "posted by first"));
  });
  looper->Post(Record(&log, "second"));
  looper->Step();
  EXPECT_EQ(log, (std::vector<std::string>{"first", "second"}));
  looper->Step();
  EXPECT_EQ(log, (std::vector<std::string>{"first", "second", "posted by first"}));
}

TEST(Looper, L4SelfRepostingEntryDoesNotStarveFdsOrTheInternalLane) {
  auto looper = MakeLooper();
  auto event_loop = EventLoop::Create();
  event_loop->Bind(looper.get());
  Pipe pipe;
  int reposts = 0;
  bool fd_seen = false;
  bool internal_seen = false;
  std::function<void()> repost = [&] {
    ++reposts;
    if (fd_seen && internal_seen) {
      looper->Quit();
      return;
    }
    CHECK(reposts < 100);  // starvation: fail loudly instead of hanging
    looper->Post([&] { repost(); });
  };
  auto watch = looper->WatchFd(pipe.fds[0], EPOLLIN, [&](uint32_t) {
    pipe.Read();
    fd_seen = true;
  });
  ASSERT_TRUE(watch.ok());
  looper->Post([&] { repost(); });
  pipe.Write();
  event_loop->PostInternal([&] { internal_seen = true; });
  EXPECT_EQ(looper->Run(), Looper::RunResult::kQuit);
  EXPECT_TRUE(fd_seen);
  EXPECT_TRUE(internal_seen);
  EXPECT_LE(reposts, 3);
  looper->UnwatchFd(watch.value());
  event_loop->Shutdown();
}

TEST(Looper, L4OrderedPassIsBoundedByItsBudget) {
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  int ran = 0;
  for (std::size_t i = 0; i < kOrderedBudget.max_entries + 10; ++i) looper->Post([&] { ++ran; });
  looper->Step();
  EXPECT_EQ(ran, static_cast<int>(kOrderedBudget.max_entries));
  EXPECT_EQ(looper->NextTimeoutMs(), 0);
  looper->Step();
  EXPECT_EQ(ran, static_cast<int>(kOrderedBudget.max_entries) + 10);
}

TEST(Looper, RunReturnsWhenNothingKeepsItAlive) {
  auto looper = MakeLooper();
  int ran = 0;
  looper->PostDelayed([&] { ++ran; }, milliseconds(2));
  EXPECT_EQ(looper->Run(), Looper::RunResult::kIdle);
  EXPECT_EQ(ran, 1);
  looper->Ref();
  looper->Post([&] { looper->Unref(); });
  EXPECT_EQ(looper->Run(), Looper::RunResult::kIdle);
}

TEST(Looper, WeakEntriesDoNotKeepTheLoopAlive) {
  auto looper = MakeLooper();
  bool ran = false;
  looper->Schedule(
      looper->Now() + std::chrono::hours(1), [&] { ran = true; }, TimerQueue::Meta{0, false, 0});
  EXPECT_EQ(looper->Run(), Looper::RunResult::kIdle);
  EXPECT_FALSE(ran);
}

TEST(Looper, FdCallbackMayUnwatchItselfAndOthers) {
  auto looper = MakeLooper();
  Pipe a, b;
  int a_calls = 0, b_calls = 0;
  Looper::WatchId watch_b = 0;
  Looper::WatchId watch_a = 0;
  watch_a = looper
                ->WatchFd(a.fds[0], EPOLLIN,
                          [&](uint32_t) {
                            ++a_calls;
                            looper->UnwatchFd(watch_a);
                            looper->UnwatchFd(watch_b);
                          })
                .value();
  watch_b = looper->WatchFd(b.fds[0], EPOLLIN, [&](uint32_t) { ++b_calls; }).value();
  a.Write();
  b.Write();
  looper->Step();
  looper->Step();
  // Whichever ran first, the other never runs after being unwatched...
  EXPECT_EQ(a_calls + b_calls, a_calls == 1 ? 1 + b_calls : b_calls);
  EXPECT_LE(a_calls, 1);
  // ...and after both are unwatched nothing keeps the loop alive.
  if (a_calls == 0) {
    looper->UnwatchFd(watch_a);
    looper->UnwatchFd(watch_b);
  }
  EXPECT_FALSE(looper->KeepsAlive());
}

// ---- L6: idle means asleep ---------------------------------------------------

// Runs a Looper on its own thread; `setup` runs on that thread first.
class LooperThread {
 public:
  explicit LooperThread(std::function<void(Looper*)> setup) {
    std::promise<std::shared_ptr<LooperRemote>> ready;
    auto future = ready.get_future();
    thread_ = std::thread([this, setup = std::move(setup), &ready] {
      auto looper = MakeLooper();
      looper_ = looper.get();
      looper->Ref();  // run until told to quit
      setup(looper.get());
      ready.set_value(looper->remote());
      looper->Run();
    });
    remote_ = future.get();
  }
  ~LooperThread() {
    remote_->Post([this] { looper_->Quit(); });
    thread_.join();
  }
  Looper* looper() { return looper_; }
  const std::shared_ptr<LooperRemote>& remote() { return remote_; }

  // Runs `fn` on the loop thread and waits for it.
  void RunOnLoop(std::function<void()> fn) {
    std::promise<void> done;
    remote_->Post([&] {
      fn();
      done.set_value();
    });
    done.get_future().wait();
  }

 private:
  std::thread thread_;
  Looper* looper_ = nullptr;
  std::shared_ptr<LooperRemote> remote_;
};

// L8 whichever way the thread sleeps: on the waker's futex while it watches
// no fd, in epoll_wait once it watches one (the eventfd), and on the futex
// again after the fd is unwatched. Each time a post from another thread
// wakes it, and the watched fd still dispatches.
TEST(Looper, L8CrossThreadPostWakesFutexAndEpollSleeps) {
  LooperThread loop([](Looper*) {});
  auto post_and_wait = [&] {
    std::promise<void> ran;
    std::future<void> done = ran.get_future();
    // The loop is asleep (or about to be): nothing else is queued.
    std::this_thread::sleep_for(milliseconds(20));
    EXPECT_TRUE(loop.remote()->Post([&] { ran.set_value(); }));
    EXPECT_EQ(done.wait_for(std::chrono::seconds(30)), std::future_status::ready);
  };
  auto stats = [&] {
    LooperStats out;
    loop.RunOnLoop([&] { out = loop.looper()->stats(); });
    return out;
  };

  LooperStats before = stats();
  post_and_wait();
  LooperStats futex = stats();
  EXPECT_GT(futex.futex_sleeps, before.futex_sleeps);

  int fds[2];
  ASSERT_EQ(::pipe2(fds, O_CLOEXEC | O_NONBLOCK), 0);
  base::UniqueFd read_end(fds[0]), write_end(fds[1]);
  std::promise<void> readable;
  Looper::WatchId watch = 0;
  loop.RunOnLoop([&] {
    watch = loop.looper()
                ->WatchFd(
                    read_end.Get(), EPOLLIN,
                    [&](uint32_t) {
                      char byte;
                      while (::read(read_end.Get(), &byte, 1) == 1) {
                      }
                      readable.set_value();
                    },
                    Liveness::kWeak)
                .value();
  });
  LooperStats watching = stats();
  post_and_wait();
  LooperStats epoll = stats();
  EXPECT_EQ(epoll.futex_sleeps, watching.futex_sleeps);  // slept in epoll_wait
  EXPECT_GT(epoll.kernel_wakeups, watching.kernel_wakeups);
  std::this_thread::sleep_for(milliseconds(20));
  ASSERT_EQ(::write(write_end.Get(), "x", 1), 1);
  EXPECT_EQ(readable.get_future().wait_for(std::chrono::seconds(30)), std::future_status::ready);

  loop.RunOnLoop([&] { loop.looper()->UnwatchFd(watch); });
  LooperStats unwatched = stats();
  post_and_wait();
  EXPECT_GT(stats().futex_sleeps, unwatched.futex_sleeps);
}

TEST(Looper, L6IdleWithAFarTimerWakesZeroTimes) {
  LooperThread loop([](Looper* looper) { looper->PostDelayed([] {}, std::chrono::hours(1)); });
  loop.RunOnLoop([] {});  // the loop is past set-up and about to sleep
  std::this_thread::sleep_for(milliseconds(20));
  uint64_t before = loop.looper()->kernel_wakeups();
  std::this_thread::sleep_for(milliseconds(300));
  EXPECT_EQ(loop.looper()->kernel_wakeups(), before);
}

TEST(Looper, L6ClearedTimerCostsNoWakeup) {
  LooperThread loop([](Looper*) {});
  loop.RunOnLoop([&] {
    Looper* looper = loop.looper();
    auto id = looper->Schedule(looper->Now() + milliseconds(50), [] {});
    looper->Cancel(id);
  });
  std::this_thread::sleep_for(milliseconds(20));
  uint64_t before = loop.looper()->kernel_wakeups();
  std::this_thread::sleep_for(milliseconds(300));
  EXPECT_EQ(loop.looper()->kernel_wakeups(), before);
}

TEST(Looper, L6CrossThreadWakeupsCoalesce) {
  auto looper = MakeLooper();
  looper->Step();  // armed: the thread now "sleeps" in a foreign loop
  uint64_t before = looper->remote()->wake_signal_count();
  int ran = 0;
  std::thread([&] {
    for (int i = 0; i < 100; ++i) looper->Post([&] { ++ran; });
  }).join();
  EXPECT_EQ(looper->remote()->wake_signal_count() - before, 1u);
  // All 100 run; one pass may stop at its time budget (1 ms) when this
  // thread is preempted, so step until they did (bounded).
  for (int steps = 0; ran < 100 && steps < 100; ++steps) looper->Step();
  EXPECT_EQ(ran, 100);
}

TEST(Looper, L6PostsFromTheHomeThreadNeverSignal) {
  auto looper = MakeLooper();
  uint64_t before = looper->remote()->wake_signal_count();
  for (int i = 0; i < 100; ++i) looper->Post([] {});
  looper->RunUntilIdle();
  EXPECT_EQ(looper->remote()->wake_signal_count(), before);
}

// A chain of `left` steps run by a source, one a pass (each step makes the
// next one due at once), that asks for a post from another thread every time
// the Looper looks at its next deadline while `posts_left_` lasts: it shows
// whether the waker was armed then. (A source, not ordered-lane entries: a
// pass that finds an ordered entry due does not look at the sources.)
class ChainSource final : public LoopSource {
 public:
  explicit ChainSource(Looper* looper) : looper_(looper) {}
  void RunDue(base::TimePoint /*now*/, const LaneBudget& /*budget*/) override {
    if (left_ == 0) return;
    if (--left_ > 0)
      posts_left_ = 1;  // (made from another thread while this pass decides its wait)
  }
  base::TimePoint NextDue() override {
    if (posts_left_ > 0) {
      --posts_left_;
      std::thread([this] { looper_->remote()->Post([] {}); }).join();
    }
    return left_ > 0 ? base::TimePoint::min() : base::TimePoint::max();
  }
  bool KeepsAlive() override { return left_ > 0; }
  int left_ = 0;
  int posts_left_ = 0;

 private:
  Looper* looper_;
};

TEST(Looper, L6APassWithWorkDueArmsNoWakerSoPostsMadeMeanwhileNeverSignal) {
  // A chain of steps that each make the next one due: every pass has work
  // due, so none sleeps, and none arms the waker (a locked instruction per
  // pass when it did, and a syscall for any cross-thread post landing while
  // it was armed).
  auto looper = MakeLooper();
  ChainSource source(looper.get());
  looper->AddSource(&source);
  const uint64_t before = looper->remote()->wake_signal_count();
  source.left_ = 100;
  looper->Run();  // (returns once the chain has ended: nothing keeps it alive)
  EXPECT_EQ(source.left_, 0);
  EXPECT_EQ(source.posts_left_, 0) << "every pass looked at the source's deadline";
  EXPECT_EQ(looper->remote()->wake_signal_count(), before);
  // And nothing was lost: with no work due, the same post finds the waker
  // armed (the pass is about to sleep) and signals it, once.
  source.posts_left_ = 1;
  int ran = 0;
  looper->Post([&] { ++ran; });
  looper->Run();
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(looper->remote()->wake_signal_count(), before + 1);
  looper->RemoveSource(&source);
}

TEST(Looper, EntryStartNowIsThePassReadingUntilAnEntryRan) {
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  const TimePoint start = clock.Now();
  std::vector<TimePoint> stamps;
  // Two entries in one pass; each runs 5 ms (after taking its stamp).
  for (int i = 0; i < 2; ++i) {
    looper->Post([&] {
      stamps.push_back(looper->EntryStartNow());
      clock.Advance(milliseconds(5));
    });
  }
  looper->RunUntilIdle();
  // The first entry's stamp is the pass's reading; the second one's is a
  // new reading, after the first entry's 5 ms (not the pass's, 5 ms old).
  ASSERT_EQ(stamps.size(), 2u);
  EXPECT_EQ(stamps[0], start);
  EXPECT_EQ(stamps[1], start + milliseconds(5));
  // Outside a pass (the loop's reading is 10 ms old now): a new reading.
  clock.Advance(milliseconds(1));
  EXPECT_EQ(looper->EntryStartNow(), start + milliseconds(11));
}

TEST(Looper, EntryStartNowIsNotAReadingFromBeforeASleep) {
  // An fd callback runs after the pass's wait: the pass's reading is from
  // before the sleep, so the callback's stamp must be a new one.
  base::FakeTickClock clock;
  auto looper = MakeLooper(&clock);
  const TimePoint start = clock.Now();
  Pipe pipe;
  TimePoint stamp;
  auto watch = looper->WatchFd(pipe.fds[0], EPOLLIN, [&](uint32_t) {
    stamp = looper->EntryStartNow();
    pipe.Read();
    looper->Quit();
  });
  ASSERT_TRUE(watch.ok());
  std::thread writer([&] {
    std::this_thread::sleep_for(milliseconds(20));
    clock.Advance(milliseconds(30));
    pipe.Write();
  });
  looper->Run();
  writer.join();
  looper->UnwatchFd(watch.value());
  EXPECT_EQ(stamp, start + milliseconds(30));
}

// ---- Consumers (seed 002's loop consumers) -----------------------------------

TEST(Looper, ConsumersChangedDuringAWalk) {
  // A consumer removes another consumer and itself and adds a new one while
  // the pass walks them: the removed one does not run, the new one waits for
  // the next pass, and the one that removed itself finishes its call.
  std::unique_ptr<Looper> looper = Looper::Create().value();
  std::vector<std::string> log;
  Looper::ConsumerId b = 0;
  Looper::ConsumerId a = 0;
  auto tracked = std::make_shared<int>(0);
  a = looper->AddConsumer([&, tracked] {
    looper->RemoveConsumer(b);
    looper->RemoveConsumer(a);
    log.push_back("a");  // still alive: captures survive the self-removal
    EXPECT_EQ(*tracked, 0);
    looper->AddConsumer([&] { log.push_back("d"); });
  });
  b = looper->AddConsumer([&] { log.push_back("b"); });
  looper->AddConsumer([&] { log.push_back("c"); });
  looper->RunUntilIdle();
  EXPECT_EQ(log, (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(tracked.use_count(), 1) << "a removed consumer is destroyed after the walk";
  log.clear();
  looper->RunUntilIdle();
  EXPECT_EQ(log, (std::vector<std::string>{"c", "d"}));
  looper->RemoveConsumer(12345);  // unknown ids are ignored
}

TEST(Looper, ConsumerIsPolledOncePerPassAndWokenByItsProducer) {
  std::mutex mutex;
  std::vector<int> produced;
  std::vector<int> consumed;
  // (The loop may pass once more after the data arrived, while the test
  // reads these: atomic, and `consumed` under the mutex.)
  std::atomic<int> polls{0};
  LooperThread loop([](Looper*) {});
  std::promise<void> done;
  loop.RunOnLoop([&] {
    loop.looper()->AddConsumer(
        [&] {
          ++polls;
          std::lock_guard lock(mutex);
          consumed.insert(consumed.end(), produced.begin(), produced.end());
          if (std::exchange(produced, {}).size() > 0 && consumed.size() == 3) done.set_value();
        },
        Liveness::kKeepsAlive);
  });
  // Idle with a consumer registered: the thread sleeps, nobody polls.
  std::this_thread::sleep_for(milliseconds(20));
  uint64_t wakeups_before = loop.looper()->kernel_wakeups();
  std::this_thread::sleep_for(milliseconds(300));
  EXPECT_EQ(loop.looper()->kernel_wakeups(), wakeups_before);
  // The producer (no fd, its own thread) hands over data and wakes the loop.
  std::thread producer([&] {
    {
      std::lock_guard lock(mutex);
      produced = {1, 2, 3};
    }
    loop.remote()->Wake();
  });
  producer.join();
  ASSERT_EQ(done.get_future().wait_for(std::chrono::seconds(10)), std::future_status::ready);
  {
    std::lock_guard lock(mutex);
    EXPECT_EQ(consumed, (std::vector<int>{1, 2, 3}));
  }
  EXPECT_LT(polls.load(), 10);
}

// ---- L10: embedding ----------------------------------------------------------

// The same script of posts, timers and an fd, run by Run() or by a foreign
// poll() loop through BackendFd/NextTimeoutMs/Step. The timers are far apart
// next to what the first entry does (start and join a thread): with 5 ms,
// a TSan build on a loaded machine let "timer 5" fall due before that entry
// finished, and the order changed.
std::vector<std::string> RunScript(bool foreign) {
  auto looper = MakeLooper();
  auto event_loop = EventLoop::Create();
  event_loop->Bind(looper.get());
  std::vector<std::string> log;
  Pipe pipe;
  Looper::WatchId watch = 0;
  watch = looper
              ->WatchFd(pipe.fds[0], EPOLLIN,
                        [&](uint32_t) {
                          pipe.Read();
                          log.push_back("fd");
                          looper->UnwatchFd(watch);
                        })
              .value();
  looper->PostDelayed(Record(&log, "timer 300"), milliseconds(300));
  looper->PostDelayed(
      [&] {
        log.push_back("timer 100");
        pipe.Write();
      },
      milliseconds(100));
  looper->Post([&] {
    log.push_back("app 1");
    // A post from another thread while the loop runs.
    std::thread([&] {
      event_loop->PostInternal([&] {
        log.push_back("cross-thread internal");
        looper->Post(Record(&log, "app 2"));
      });
    }).join();
  });
  event_loop->PostInternalDelayed(Record(&log, "internal 200"), milliseconds(200),
                                  Nesting::kNestable, Liveness::kKeepsAlive);
  if (foreign) {
    while (looper->Step()) {
      pollfd fd{looper->BackendFd(), POLLIN, 0};
      ::poll(&fd, 1, static_cast<int>(looper->NextTimeoutMs()));
    }
  } else {
    looper->Run();
  }
  event_loop->Shutdown();
  return log;
}

// The home-thread-only methods an embedder calls fail loudly from another
// thread in every build (they were DCHECKs: a silent data race in release).
TEST(LooperDeathTest, HomeThreadMethodsCheckTheirThread) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  std::unique_ptr<Looper> looper = Looper::Create().value();
  Looper* raw = looper.get();
  auto off_thread = [raw](auto call) {
    std::thread other([&] { call(raw); });
    other.join();
  };
  EXPECT_DEATH(off_thread([](Looper* l) { (void)l->WatchFd(0, 0, [](uint32_t) {}); }),
               "home thread");
  EXPECT_DEATH(off_thread([](Looper* l) { l->UnwatchFd(1); }), "home thread");
  EXPECT_DEATH(off_thread([](Looper* l) { (void)l->NextTimeout(); }), "home thread");
  EXPECT_DEATH(off_thread([](Looper* l) { (void)l->AddConsumer([] {}, Liveness::kWeak); }),
               "home thread");
  // The thread-safe ones are fine.
  off_thread([](Looper* l) {
    EXPECT_TRUE(l->Post([] {}));
    l->Wake();
  });
  looper->RunUntilIdle();
}

TEST(Looper, L10ForeignPollLoopSeesTheSameOrderAsRun) {
  std::vector<std::string> expected = {"app 1", "cross-thread internal", "app 2",    "timer 100",
                                       "fd",    "internal 200",          "timer 300"};
  EXPECT_EQ(RunScript(false), expected);
  EXPECT_EQ(RunScript(true), expected);
}

TEST(Looper, L10BackendFdTurnsReadableAtTheDeadline) {
  auto looper = MakeLooper();
  bool ran = false;
  looper->PostDelayed([&] { ran = true; }, milliseconds(30));
  looper->Step();
  EXPECT_FALSE(ran);
  int64_t timeout = looper->NextTimeoutMs();
  EXPECT_GT(timeout, 0);
  EXPECT_LE(timeout, 30);
  // Ignore NextTimeoutMs(): the fd alone must wake the foreign loop.
  pollfd fd{looper->BackendFd(), POLLIN, 0};
  ASSERT_EQ(::poll(&fd, 1, 10'000), 1);
  looper->Step();
  EXPECT_TRUE(ran);
  EXPECT_EQ(looper->NextTimeoutMs(), -1);
}

TEST(Looper, L10BackendFdIsReadableWhileWorkIsDue) {
  base::FakeTickClock clock;
  auto looper = MakeLooper();
  for (std::size_t i = 0; i < kOrderedBudget.max_entries + 1; ++i) looper->Post([] {});
  looper->Step();
  EXPECT_EQ(looper->NextTimeoutMs(), 0);
  pollfd fd{looper->BackendFd(), POLLIN, 0};
  EXPECT_EQ(::poll(&fd, 1, 1000), 1);
}

TEST(Looper, L10CrossThreadPostWakesTheBackendFdAfterAQuitInsideStep) {
  // A Quit() from an entry (an uncaught JS error stops its runtime with
  // one) cuts the pass short; the foreign loop goes on stepping, and a post
  // from another thread must still make the backend fd readable.
  auto looper = MakeLooper();
  looper->Ref();  // the application's own work keeps the loop alive
  looper->Post([&] { looper->Quit(); });
  EXPECT_FALSE(looper->Step());  // the Quit ends this round of stepping, as it ends Run()
  EXPECT_EQ(looper->NextTimeoutMs(), -1);
  bool ran = false;
  std::thread poster([&] { looper->remote()->Post([&] { ran = true; }); });
  poster.join();
  // Generous bound: the post is already there, so the fd is readable now;
  // a waker left disarmed never made it readable at all.
  pollfd fd{looper->BackendFd(), POLLIN, 0};
  ASSERT_EQ(::poll(&fd, 1, 10'000), 1);
  looper->Step();
  EXPECT_TRUE(ran);
  looper->Unref();
}

}  // namespace
}  // namespace hostloop::loop
