// Looper::TakeChainedEntry (EventLoop::TakeChainedOrdered): an ordered-lane
// entry that goes on with the lane's next entries instead of returning must
// leave no trace: the same entries run in the same order, each followed by
// exactly one run of the entry observers, with the same loop statistics, as
// when every entry returns to the loop.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "base/time.h"
#include "loop/event_loop.h"
#include "loop/looper.h"

namespace hostloop::loop {
namespace {

using std::chrono::microseconds;

constexpr uint8_t kTag = 1;
constexpr uint8_t kOtherTag = 2;

// One randomized program, run either with chaining (an entry posted with
// kTag takes the entries the loop would run next and runs them itself, as
// js/messaging.js deliverChainedPortMessage does) or without (each entry returns).
// Every entry picks what it does from (seed, its number) alone, so the two
// runs do the same things as long as they run the same entries in the same
// order, and the log shows where they part.
class ChainProgram {
 public:
  struct Options {
    uint32_t seed = 1;
    bool chain = false;
    int entries = 400;         // entries the program makes before it stops growing
    bool consumer = false;     // a consumer (the loop then never crosses a pass)
    bool second_loop = false;  // another EventLoop on the Looper (no chaining)
    bool fd = false;           // a readable fd the loop polls (every 1024 passes)
  };

  explicit ChainProgram(Options options)
      : options_(options), looper_(std::move(Looper::Create(Looper::Options{&clock_})).value()) {
    loop_ = EventLoop::Create(&clock_);
    loop_->Bind(looper_.get());
    // The entry observer: the runtime's microtask checkpoint. A "microtask"
    // queued by an entry runs here and may post.
    loop_->SetEntryHook([this] {
      log_.push_back("|");
      std::vector<int> microtasks = std::move(microtasks_);
      microtasks_.clear();
      for (int k : microtasks) {
        log_.push_back("micro" + std::to_string(k));
        Post(NewId(), kTag);
      }
    });
    if (options_.second_loop) {
      other_ = EventLoop::Create(&clock_);
      other_->Bind(looper_.get());
      other_->PostOrdered([this] { log_.push_back("other"); });
    }
    if (options_.consumer) {
      consumer_ = looper_->AddConsumer([this] { ++consumer_calls_; });
    }
    if (options_.fd) {
      PCHECK(::pipe(pipe_) == 0);
      PCHECK(::write(pipe_[1], "x", 1) == 1);
      // Level-triggered and never read: ready at every poll.
      watch_ =
          looper_
              ->WatchFd(
                  pipe_[0], EPOLLIN, [this](uint32_t) { log_.push_back("fd"); }, Liveness::kWeak)
              .value();
    }
  }

  ~ChainProgram() {
    if (options_.fd) {
      looper_->UnwatchFd(watch_);
      ::close(pipe_[0]);
      ::close(pipe_[1]);
    }
    if (options_.consumer) looper_->RemoveConsumer(consumer_);
    if (other_) other_->Shutdown();
    loop_->Shutdown();
  }

  // Runs the program to its end; returns the log.
  const std::vector<std::string>& Run() {
    for (int i = 0; i < 3; ++i) Post(NewId(), kTag);
    Tick();
    while (looper_->Run() == Looper::RunResult::kQuit) log_.push_back("quit");
    const LooperStats& stats = looper_->stats();
    log_.push_back("passes " + std::to_string(stats.passes) + " ordered " +
                   std::to_string(stats.ordered_entries) + " internal " +
                   std::to_string(stats.internal_entries) + " fd " +
                   std::to_string(stats.fd_callbacks) + " consumer " +
                   std::to_string(consumer_calls_));
    return log_;
  }

  int taken() const { return taken_; }

 private:
  int NewId() { return next_id_++; }
  bool growing() const { return next_id_ < options_.entries; }

  // The clock is fake (both runs see the same times): an entry of its own
  // moves it while timers wait, or they would never come due.
  void Tick() {
    clock_.Advance(microseconds(50));
    if (messages_ > 0 || clocked_ > 0) loop_->PostOrdered([this] { Tick(); });
  }

  void Post(int k, uint8_t tag) {
    ++messages_;
    ASSERT_TRUE(loop_->PostOrderedChained(
        [this, k, tag] {
          --messages_;
          ran_tag_ = tag;
          Entry(k);
        },
        tag));
  }

  void Entry(int k) {
    log_.push_back("M" + std::to_string(k));
    Act(k);
    if (!options_.chain || in_chain_) return;
    in_chain_ = true;
    while (Task next = loop_->TakeChainedOrdered(kTag)) {
      ++taken_;
      ran_tag_ = 0;
      next();
      // Only an entry posted with the tag is ever handed over.
      EXPECT_EQ(ran_tag_, kTag);
    }
    in_chain_ = false;
  }

  // What entry k does, from (seed, k) alone.
  void Act(int k) {
    std::mt19937 rng(options_.seed * 1000003u + static_cast<uint32_t>(k));
    auto chance = [&](int percent) { return static_cast<int>(rng() % 100) < percent; };
    if (!growing()) return;
    // (Time may pass before the posts too: a post is stamped with the time
    // it is made while timers are pending, and may then sort after one.)
    if (chance(10)) clock_.Advance(microseconds(rng() % 200));
    // The chain itself: usually one next message, sometimes a burst.
    int posts = chance(93) ? 1 : (chance(40) ? 0 : 2 + static_cast<int>(rng() % 2));
    for (int i = 0; i < posts; ++i) Post(NewId(), chance(90) ? kTag : kOtherTag);
    if (chance(8)) {
      int id = NewId();
      loop_->PostOrdered([this, id] { log_.push_back("O" + std::to_string(id)); });
    }
    if (chance(8)) {
      int id = NewId();
      ++clocked_;
      loop_->ScheduleOrdered(
          [this, id] {
            --clocked_;
            log_.push_back("T" + std::to_string(id));
          },
          microseconds(rng() % 400));
    }
    if (chance(6)) {
      int id = NewId();
      loop_->PostInternal([this, id] {
        log_.push_back("I" + std::to_string(id));
        // An internal entry may post a message (a worker's message that
        // starts a chain).
        if (growing()) Post(NewId(), kTag);
      });
    }
    if (chance(4)) {
      int id = NewId();
      ++clocked_;
      loop_->PostInternalDelayed(
          [this, id] {
            --clocked_;
            log_.push_back("D" + std::to_string(id));
          },
          microseconds(rng() % 300), Nesting::kNestable, Liveness::kKeepsAlive);
    }
    if (chance(20)) clock_.Advance(microseconds(rng() % 120));
    if (chance(5)) microtasks_.push_back(NewId());
    if (chance(3)) {
      // A post from another thread, in the inbox before this entry ends.
      int id = NewId();
      std::thread([this, id] {
        EXPECT_TRUE(
            looper_->remote()->Post([this, id] { log_.push_back("R" + std::to_string(id)); }));
      }).join();
    }
    if (chance(1)) looper_->Quit();
  }

  Options options_;
  base::FakeTickClock clock_;
  std::unique_ptr<Looper> looper_;
  std::shared_ptr<EventLoop> loop_;
  std::shared_ptr<EventLoop> other_;
  Looper::ConsumerId consumer_ = 0;
  int consumer_calls_ = 0;
  int pipe_[2] = {-1, -1};
  Looper::WatchId watch_ = 0;
  std::vector<std::string> log_;
  std::vector<int> microtasks_;
  int next_id_ = 0;
  int clocked_ = 0;      // timers and delayed entries not run yet
  int messages_ = 0;     // chained entries not run yet
  uint8_t ran_tag_ = 0;  // the tag of the last chained entry that ran
  bool in_chain_ = false;
  int taken_ = 0;
};

std::vector<std::string> RunProgram(ChainProgram::Options options, int* taken = nullptr) {
  ChainProgram program(options);
  std::vector<std::string> log = program.Run();
  if (taken != nullptr) *taken = program.taken();
  return log;
}

void ExpectSameRun(ChainProgram::Options options, bool expect_chaining) {
  options.chain = false;
  std::vector<std::string> plain = RunProgram(options);
  options.chain = true;
  int taken = 0;
  std::vector<std::string> chained = RunProgram(options, &taken);
  ASSERT_EQ(plain.size(), chained.size()) << "seed " << options.seed;
  for (std::size_t i = 0; i < plain.size(); ++i) {
    ASSERT_EQ(plain[i], chained[i]) << "seed " << options.seed << ", log line " << i;
  }
  if (expect_chaining) {
    // Not vacuous: most messages were taken by a running entry.
    EXPECT_GT(taken, options.entries / 3) << "seed " << options.seed;
  } else {
    EXPECT_EQ(taken, 0) << "seed " << options.seed;
  }
}

// One EventLoop bound to a Looper on a fake clock; `observed` counts its
// entry observer's runs.
struct OneLoop {
  OneLoop() {
    loop->Bind(looper.get());
    loop->SetEntryHook([this] { ++observed; });
  }
  ~OneLoop() { loop->Shutdown(); }
  base::FakeTickClock clock;
  std::unique_ptr<Looper> looper = std::move(Looper::Create(Looper::Options{&clock})).value();
  std::shared_ptr<EventLoop> loop = EventLoop::Create(&clock);
  int observed = 0;
};

TEST(LooperChain, L3L5ChainedEntriesRunAsTheLaneWouldRunThem) {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    ExpectSameRun({.seed = seed}, true);
  }
}

TEST(LooperChain, L4ChainsLeaveTheFdsTheirTurn) {
  // The fd is polled every 1024 passes (the clock moves too little for the
  // 250 us rule to matter much): the chained run must poll it at the same
  // points, so long chains are needed.
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    ExpectSameRun({.seed = seed, .entries = 5000, .fd = true}, true);
  }
}

TEST(LooperChain, ChainsStayInTheirPassWhenAConsumerWaits) {
  for (uint32_t seed = 1; seed <= 10; ++seed) {
    ExpectSameRun({.seed = seed, .consumer = true}, true);
  }
}

TEST(LooperChain, NoChainingOnALooperThatServesAnotherLoop) {
  for (uint32_t seed = 1; seed <= 10; ++seed) {
    ExpectSameRun({.seed = seed, .second_loop = true}, false);
  }
}

TEST(LooperChain, TakeChainedEntryOutsideAnOrderedEntryTakesNothing) {
  OneLoop one;
  Looper* looper = one.looper.get();
  EventLoop* loop = one.loop.get();
  int& observed = one.observed;
  std::vector<std::string> log;
  ASSERT_TRUE(loop->PostOrderedChained([&] { log.push_back("M"); }, kTag));
  // Not from an internal-lane entry, and not between entries.
  EXPECT_FALSE(loop->TakeChainedOrdered(kTag));
  ASSERT_TRUE(loop->PostInternal([&] {
    log.push_back("I");
    EXPECT_FALSE(loop->TakeChainedOrdered(kTag));
  }));
  looper->RunUntilIdle();
  EXPECT_EQ(log, (std::vector<std::string>{"M", "I"}));
  EXPECT_EQ(observed, 2);
}

TEST(LooperChain, AnEntryThatWasDeclinedIsEndedOnce) {
  OneLoop one;
  Looper* looper = one.looper.get();
  EventLoop* loop = one.loop.get();
  int& observed = one.observed;
  std::vector<std::string> log;
  ASSERT_TRUE(loop->PostOrderedChained(
      [&] {
        log.push_back("A");
        // Next is an entry of another tag: declined, and the entry ended.
        EXPECT_FALSE(loop->TakeChainedOrdered(kTag));
        EXPECT_EQ(observed, 1);
        // Asked again: nothing, and no second end.
        EXPECT_FALSE(loop->TakeChainedOrdered(kTag));
        EXPECT_EQ(observed, 1);
      },
      kTag));
  ASSERT_TRUE(loop->PostOrderedChained([&] { log.push_back("B"); }, kOtherTag));
  looper->RunUntilIdle();
  EXPECT_EQ(log, (std::vector<std::string>{"A", "B"}));
  EXPECT_EQ(observed, 2);
  EXPECT_EQ(looper->stats().ordered_entries, 2u);
}

TEST(LooperChain, StepCrossesNoPass) {
  // A Step() is one pass: a chain goes on within it (the lane's snapshot),
  // never into the next one.
  OneLoop one;
  Looper* looper = one.looper.get();
  EventLoop* loop = one.loop.get();
  std::vector<std::string> log;
  int taken = 0;
  std::function<void(int)> entry = [&](int k) {
    log.push_back("M" + std::to_string(k));
    if (k < 10) {
      ASSERT_TRUE(loop->PostOrderedChained([&, k] { entry(k + 10); }, kTag));
    }
    if (k != 0) return;
    while (Task next = loop->TakeChainedOrdered(kTag)) {
      ++taken;
      next();
    }
  };
  ASSERT_TRUE(loop->PostOrderedChained([&] { entry(0); }, kTag));
  ASSERT_TRUE(loop->PostOrderedChained([&] { entry(1); }, kTag));
  looper->Step();
  // M0 takes M1 (same pass); M10 and M11 were posted during the pass.
  EXPECT_EQ(log, (std::vector<std::string>{"M0", "M1"}));
  EXPECT_EQ(taken, 1);
  looper->Step();
  EXPECT_EQ(log, (std::vector<std::string>{"M0", "M1", "M10", "M11"}));
}

}  // namespace
}  // namespace hostloop::loop
