// Looper: one per thread. It owns the thread's kernel wait (epoll, or a futex
// while no fd is watched), the
// ordered lane (one due-ordered queue of JS timers, macrotasks and the
// application's own posts, L3), the fd watchers, and the list of internal
// lanes (LoopSources) of the runtimes bound to this thread.
//
// One pass of the loop, the same in Run(), RunUntilIdle() and Step():
//
//   1. Clock. Read the time once for the pass (`now`) and move cross-thread
//      ordered posts from the inbox into the queue.
//   2. Ordered lane. Run entries due at `now` in (due, sequence) order, only
//      those posted before the pass began (a snapshot, L4), within
//      kOrderedBudget. Entries posted meanwhile wait for the next pass.
//   3. Internal lanes. Each LoopSource runs a bounded snapshot of its due
//      entries (kInternalBudget per source).
//   4. Consumers. Each registered consumer is polled once (sources with no fd
//      and no thread to post from; their producers call Wake()).
//   5. Decide the wait. Arm the waker (cross-thread posts now signal it),
//      then: due work left -> no wait; else wait until the earliest deadline
//      of any lane; nothing scheduled -> wait without timeout, or return from
//      Run() when nothing keeps the loop alive (J3).
//   6. Poll. Block in epoll for that long and dispatch ready fds (at most
//      kMaxEventsPerPass). When work is already due the wait is zero, and it
//      happens at most every 250 us, so fds are serviced even while a lane is
//      flooded (L4) without a syscall per pass. A Looper that watches no fd
//      and is not stepped by a foreign loop sleeps on the waker's futex
//      instead (cheaper to wake: eventfd_waker.h), and skips the zero wait.
//   After a Step()'s pass (also one a Quit() cut short), the waker is armed
//   and the backend fd's timer set to the next deadline, so the foreign
//   loop's poll wakes for due work and for posts from other threads.
//
// Every entry (ordered, internal, fd callback) is followed by the entry
// observers, which the V8 layer uses for its microtask checkpoint (L5).
// A running ordered entry may end itself and take the entry the loop would
// run next, in this pass or the next one (TakeChainedEntry: a chain of
// MessagePort deliveries stays in one call into the engine).
//
// Re-entrancy: Run(), RunUntilIdle() and Step() may not be called from inside
// a callback of the same Looper (CHECKed). Callbacks may post, cancel, watch
// and unwatch freely, and may destroy the runtime that owns them.
#pragma once

#include <sys/epoll.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "base/deadline_clock.h"
#include "base/result.h"
#include "base/ring_queue.h"
#include "base/thread_annotations.h"
#include "base/time.h"
#include "base/unique_function.h"
#include "loop/epoll_poller.h"
#include "loop/eventfd_waker.h"
#include "loop/loop_source.h"
#include "loop/timer_queue.h"

namespace hostloop::loop {

using base::Duration;
using base::Task;
using base::TimePoint;

inline constexpr LaneBudget kOrderedBudget{1024, std::chrono::milliseconds(1)};
inline constexpr LaneBudget kInternalBudget{1024, std::chrono::milliseconds(1)};
inline constexpr int kMaxEventsPerPass = 64;

class Looper;

// The part of a Looper other threads may hold: posting into its ordered lane
// and waking it. Outlives the Looper safely: once the Looper is gone, posts
// return false and destroy their task on the caller's thread.
class LooperRemote {
 public:
  // Thread-safe. Ordered-lane post due after `delay` (L1, L3). False (the
  // task destroyed unrun) once the Looper is gone, and while
  // Options::max_queued_remote_posts wait for the home thread: a producer
  // that outruns it for good is told so (the queue would grow until its
  // slots ran out).
  bool Post(Task task, Duration delay = Duration::zero());
  // Thread-safe. Wakes the home thread if it sleeps (coalesced, L6). A
  // Wake() while the home thread is awake is not lost either: the pass
  // running then is followed by another one before the loop sleeps (a
  // consumer that looked before the producer's data arrived looks again;
  // after a Step(), the backend fd is readable at once).
  void Wake() {
    wake_requested_.store(true, std::memory_order_seq_cst);
    waker_.Wake();
  }
  // Thread-safe. For a post into a queue the home thread checks after it
  // arms its waker (the inbox, an EventLoop's lanes): only a sleeping home
  // thread needs the signal, so no second pass is asked for.
  void WakeForPost() { waker_.Wake(); }
  // Thread-safe. Makes the Looper's Run() return after the current entry
  // (no-op once the Looper is gone).
  void Quit() {
    quit_.store(true, std::memory_order_relaxed);
    Wake();
  }
  uint64_t wake_signal_count() const { return waker_.signal_count(); }

 private:
  friend class Looper;
  // Set by Wake(); a pass clears it just before its consumers look and
  // reads it again after arming the waker, so a Wake() it did not see as a
  // signal is seen there.
  std::atomic<bool> wake_requested_{false};
  struct InboxEntry {
    TimePoint due;
    uint64_t sequence;
    Task task;
  };

  LooperRemote(EventfdWaker waker, const base::TickClock* clock, std::size_t max_queued)
      : waker_(std::move(waker)), clock_(clock), max_queued_(max_queued) {}

  EventfdWaker waker_;
  const base::TickClock* const clock_;
  const std::size_t max_queued_;
  // The latest clock reading that stamped a post, from any thread. A
  // due-now post is stamped no earlier than it, so posts made one after the
  // other (on any threads) are also in that order by due time (L3).
  std::atomic<int64_t> latest_stamp_ns_{0};
  void RaiseLatestStamp(TimePoint stamp) {
    int64_t ns = stamp.time_since_epoch().count();
    int64_t seen = latest_stamp_ns_.load(std::memory_order_relaxed);
    while (seen < ns && !latest_stamp_ns_.compare_exchange_weak(seen, ns, std::memory_order_release,
                                                                std::memory_order_relaxed)) {
    }
  }
  // Shared with the home thread, which takes its sequence numbers lock-free;
  // remote posts take theirs under mutex_ so a pass's snapshot (the value at
  // pass start) never misses an earlier inbox entry.
  std::atomic<uint64_t> next_sequence_{1};
  std::atomic<bool> inbox_nonempty_{false};
  // Cross-thread posts moved into the home thread's queue and not yet run:
  // with the inbox, what a cross-thread post is refused beyond. Raised under
  // mutex_ as the inbox is taken (so inbox + queued never undercounts),
  // lowered by the home thread as they run.
  std::atomic<std::size_t> remote_in_queue_{0};
  std::atomic<bool> quit_{false};

  base::Mutex mutex_;
  bool closed_ GUARDED_BY(mutex_) = false;
  std::vector<InboxEntry> inbox_ GUARDED_BY(mutex_);
};

// Invoked after every entry the Looper runs (L5).
class EntryObserver {
 public:
  virtual ~EntryObserver() = default;
  virtual void OnEntryRan() = 0;
};

struct LooperStats {
  uint64_t passes = 0;
  uint64_t ordered_entries = 0;
  uint64_t internal_entries = 0;
  uint64_t fd_callbacks = 0;
  // Returns from a blocking kernel wait (a wait with a non-zero timeout),
  // and how many of those were futex sleeps (no fd watched).
  uint64_t kernel_wakeups = 0;
  uint64_t futex_sleeps = 0;
  Duration idle_time{};
  Duration run_time{};  // since the Looper was created

  // Loop lag (with tracing on): how late ordered-lane entries started after
  // their due time. Bucket i counts lags in [2^(i-1), 2^i) microseconds.
  static constexpr int kLagBuckets = 40;
  uint64_t lag_histogram[kLagBuckets] = {};
  uint64_t lag_samples = 0;
  Duration max_lag{};
  // The lag below which `fraction` of the samples fall (bucket upper bound).
  Duration LagPercentile(double fraction) const;
};

class Looper {
 public:
  using TimerId = TimerQueue::Id;
  using WatchId = uint64_t;
  using FdCallback = base::UniqueFunction<void(uint32_t events)>;

  struct Options {
    // The loop's clock (tests inject a manual one). It is read from other
    // threads too (cross-thread posts; the workers of runtimes on this
    // Looper run on Loopers of their own with this clock), so it must be
    // thread-safe and outlive them.
    const base::TickClock* clock = base::TickClock::Default();
    // Cross-thread posts allowed to wait for the home thread (in the inbox
    // and the queue together); beyond it LooperRemote::Post returns false.
    // The queue keeps that many of its slots for them: the home thread's own
    // timers and delayed posts get the rest (kCapacity minus this).
    std::size_t max_queued_remote_posts = std::size_t{1} << 20;
    // Entries the queue may hold at once from the home thread's Schedule()
    // (JS timers, delayed posts); beyond it Schedule() and ScheduleCall() return kInvalidId
    // (setTimeout throws a RangeError). It cannot exceed what the remote
    // reservation leaves (kCapacity minus max_queued_remote_posts). An
    // application can lower it to bound the memory its scripts' timers take.
    std::size_t max_scheduled = TimerQueue::kCapacity;
  };

  // Creates the Looper of the calling thread (its home thread). At most one
  // Looper per thread.
  static base::Result<std::unique_ptr<Looper>> Create(Options options);
  static base::Result<std::unique_ptr<Looper>> Create() { return Create(Options{}); }
  // The calling thread's Looper, or nullptr.
  static Looper* Current();

  // Home thread; not while running. Drops every queued entry and refuses
  // later posts. The dropped tasks' destructors run while this is still the
  // thread's Looper: they may unwatch fds, remove consumers and cancel (their
  // posts are refused). Runtimes bound here must be shut down first.
  ~Looper();
  Looper(const Looper&) = delete;
  Looper& operator=(const Looper&) = delete;

  // ---- Ordered lane (L3) ------------------------------------------------

  // Thread-safe. Posts the application's message, due now or after `delay`.
  // Returns false once the Looper is gone (only reachable through remote()),
  // and for a post from the home thread while the queue holds
  // Options::max_scheduled entries of that thread (its timers, delayed tasks
  // and posts together), or for one from another thread while
  // Options::max_queued_remote_posts wait.
  bool Post(Task task) { return PostDelayed(std::move(task), Duration::zero()); }
  bool PostDelayed(Task task, Duration delay);

  // Meta::owner of the cross-thread posts (LooperRemote::Post) in the queue.
  // No EventLoop has it (their ids count up from 1), so no Cancel() reaches
  // them: their ids are nobody's, and one cancelled would never give back
  // its unit of Options::max_queued_remote_posts.
  static constexpr uint32_t kRemoteOwner = ~0u;

  // Home thread. Schedules an entry due at `due` and returns an id for
  // Cancel(). `meta.owner` tags entries for Cancel() and RemoveOwnedBy()
  // (0: the application's own).
  TimerId Schedule(TimePoint due, Task task, TimerQueue::Meta meta = {});
  // Home thread. Schedule() of a call entry (TimerQueue::AddCall): it holds
  // no task; when it runs, the LoopSource whose entry_owner() is `owner`
  // (non-zero, added to this Looper) is handed its id (RunOrderedCall).
  // Cancel() and RemoveOwnedBy() treat it as any entry.
  TimerId ScheduleCall(TimePoint due, uint32_t owner, Liveness liveness);
  // Home thread. An entry due now that cannot be cancelled (an application
  // message, a MessagePort delivery, a scheduler token). Same ordering as
  // Schedule(); it waits in a FIFO instead of the heap, which is what makes
  // post+run cheap.
  void PostNow(Task task, TimerQueue::Meta meta = {});
  // Home thread. Removes a pending entry scheduled with meta.owner `owner`;
  // its task is destroyed unrun. Returns false for unknown, finished or
  // already cancelled ids, and for another owner's entry (two runtimes on
  // one thread hand out ids from this one queue: each cancels its own).
  bool Cancel(TimerId id, uint32_t owner = 0);
  // Home thread. Cancel() for each of `count` ids, faster per id than one
  // call each (TimerQueue::CancelMany); returns how many were pending.
  std::size_t CancelMany(const TimerId* ids, std::size_t count, uint32_t owner = 0);
  // Home thread. Drops every pending entry posted with `owner`.
  void RemoveOwnedBy(uint32_t owner);
  // Tests: the queue's slots taken as `capacity` (at most
  // TimerQueue::kCapacity, more than max_queued_remote_posts), so that
  // running out of them needs no millions of entries.
  void SetCapacityForTesting(std::size_t capacity);

  // Thread-safe handle for other threads.
  const std::shared_ptr<LooperRemote>& remote() const { return remote_; }
  // Thread-safe. Wakes the loop if it sleeps.
  void Wake() { remote_->Wake(); }

  // ---- File descriptors --------------------------------------------------

  // Home thread. Calls `callback(epoll events)` whenever `fd` is ready for
  // `events` (EPOLLIN, EPOLLOUT, ...; level-triggered). The fd stays the
  // caller's; unwatch it before closing it.
  base::Result<WatchId> WatchFd(int fd, uint32_t events, FdCallback callback,
                                Liveness liveness = Liveness::kKeepsAlive);
  base::Result<void> ModifyFd(WatchId id, uint32_t events);
  // Home thread. Safe from inside any callback, including the watch's own.
  void UnwatchFd(WatchId id);

  // ---- Consumers ---------------------------------------------------------

  // Home thread. The last resort, after fd watches and completions posted
  // from the producer's own thread: `consume` is called once per pass
  // (phase 4) for a source that has neither (the seeds' loop consumer). Its
  // producer must call Wake() (thread-safe) after making data available: the
  // loop still sleeps until then, it never polls on an interval.
  using ConsumerId = uint64_t;
  ConsumerId AddConsumer(base::UniqueFunction<void()> consume, Liveness liveness = Liveness::kWeak);
  // Home thread. Safe from inside the consumer itself.
  void RemoveConsumer(ConsumerId id);

  // ---- Running (L10) -----------------------------------------------------

  enum class RunResult { kQuit, kIdle };
  // Home thread. Runs passes until Quit() or until nothing keeps the loop
  // alive (no keep-alive entry, fd, ref or source).
  RunResult Run();
  // Home thread. Runs passes without blocking until no work is due now
  // (a chain of tasks that each post the next keeps it going). Afterwards
  // the backend fd works as after a Step().
  void RunUntilIdle();
  // Home thread. One non-blocking pass. Afterwards BackendFd() becomes
  // readable when work is due (cross-thread post, deadline, ready fd, and
  // work the application adds on this thread before the next Step()).
  // Returns whether anything still keeps the loop alive; false (once) after
  // a Quit(), which ends stepping as it ends Run() (an uncaught JS error
  // stops its runtime with one: check the runtime, then step on or stop).
  bool Step();
  // Thread-safe. Makes Run() return after the current entry.
  void Quit();

  // The epoll fd: poll it for readability to learn that Step() has work.
  // Armed from the start and again when Run() returns, so a foreign loop
  // may poll it before its first Step(). Until someone first asks for it,
  // home-thread posts between runs do not move its deadline (no foreign
  // loop can be polling it; it saved a deadline lookup per post); the
  // first call catches up (on another thread, by a Wake(): the fd is
  // readable at once and the next Step() arms it).
  int BackendFd();
  // Home thread. Time until work is due, rounded up to whole ms for poll()
  // and capped at INT_MAX ms (~24.8 days: poll() takes an int, and a
  // truncated far deadline made it spin): 0 = due now, -1 = nothing
  // scheduled.
  int64_t NextTimeoutMs();
  // The same with ns precision; nullopt = nothing scheduled.
  std::optional<Duration> NextTimeout();

  // ---- Liveness (J3) -----------------------------------------------------

  // Home thread. Something outside the queues keeps the loop running.
  void Ref() { ++refs_; }
  void Unref();
  bool KeepsAlive();

  // ---- Lanes and observers (for EventLoop) -------------------------------

  // Home thread. Whatever keeps a pointer to this Looper for its whole life
  // (a Runtime) says so: the destructor then refuses to run while one is
  // left, even one whose EventLoop was already shut down (a stopped runtime
  // has no source here any more, and used the freed Looper at its end).
  void AddDependent() { ++dependents_; }
  void RemoveDependent() { --dependents_; }

  // Home thread. Registered sources are serviced in phase 3 of every pass.
  void AddSource(LoopSource* source);
  void RemoveSource(LoopSource* source);
  void AddEntryObserver(EntryObserver* observer);
  void RemoveEntryObserver(EntryObserver* observer);
  // Home thread. Sources call this after each entry they run.
  void NotifyEntryRan();
  // Home thread, from inside a running ordered-lane entry that would rather
  // go on with the lane's next entry than return (a MessagePort delivery
  // that has script running: a chain of messages costs one call into the
  // engine, not one per message). Ends the running entry as the lane would
  // when it returns (the entry observers run: the microtask checkpoint).
  // Then, if the loop's next step would be to run the due-now entry at the
  // front of the ordered lane, and that entry was posted with meta.owner
  // `owner` and meta.chain_tag `tag`, takes it out of the lane and returns
  // its task, which the caller runs in the loop's stead: it is the lane's
  // running entry from then on. The next step may be in a later pass: when
  // the rest of this pass and the start of the next would do nothing else
  // (no internal-lane entry due, no consumer, no fd poll due, no
  // cross-thread post waiting, no Quit(); in Run() only), the pass ends and
  // the next begins here, counted as passes and with their clock reading,
  // as RunPass would. Else returns an empty task: the caller returns, and
  // the lane goes on without a second end for the entry. Called again from
  // the same entry after that, it returns an empty task at once. On a
  // Looper that serves more than the one EventLoop of `owner` (another
  // source or entry observer), it does nothing and returns an empty task:
  // the others' observers must not run under this entry's script.
  Task TakeChainedEntry(uint32_t owner, uint8_t tag);

  // Home thread. The pass clock: the latest time the loop read (never
  // behind a deadline it already computed on this thread).
  TimePoint Now();
  // Home thread. For a stamp an entry takes before it runs any script (a
  // delivered message's event time): the loop's reading from before the
  // running entry began, when no entry (and no sleep) came between the two;
  // else Now(). A message chain then reads the clock once per task, not
  // twice (a reading costs ~25 ns on a VM's kvm-clock).
  TimePoint EntryStartNow() { return reading_before_entry_ ? pass_now_ : Now(); }
  // Home thread. A reading to compute a deadline from ("`delay` from now":
  // setTimeout, a delayed post): never earlier than the clock at the call,
  // never earlier than one it gave before, later by at most ~200 ns, and
  // with the system clock on x86-64 mostly read from the TSC, at less than
  // half the cost (base::DeadlineClock). Due-now posts made after it are
  // stamped no earlier (PostNow), so an entry due "now" never overtakes a
  // timer set before it with a timeout of 0. (It is not the pass clock: an
  // entry runs when the clock has reached its due.)
  TimePoint DeadlineNow() {
    deadline_floor_ = deadline_clock_.Now();
    return deadline_floor_;
  }
  const base::TickClock* clock() const { return clock_; }
  bool IsHomeThread() const { return Current() == this; }
  void CheckHomeThread() const;
  bool quit_requested() const { return remote_->quit_.load(std::memory_order_relaxed); }
  // Home thread: a source ran one of its entries (LooperStats::internal_entries).
  void CountInternalEntry() { ++stats_.internal_entries; }
  // Home thread. Statistics for --trace-loop; lag tracing reads the clock
  // once per ordered entry, so it is off unless asked for.
  const LooperStats& stats();
  void set_trace_lag(bool enabled) { trace_lag_ = enabled; }
  // Thread-safe. Returns from blocking kernel waits so far.
  uint64_t kernel_wakeups() const { return kernel_wakeups_.load(std::memory_order_relaxed); }

 private:
  enum class PassMode { kMayBlock, kNonBlocking, kStep };
  struct Watch {
    int fd;
    FdCallback callback;
    Liveness liveness;
  };

  Looper(const base::TickClock* clock, EpollPoller poller, std::shared_ptr<LooperRemote> remote,
         std::size_t max_scheduled);

  // One pass (the numbered phases above). Returns false when Run() should
  // stop because nothing keeps the loop alive.
  bool RunPass(PassMode mode);
  std::size_t TakeInbox();                                // phase 1 (returns how many)
  void RunOrderedLane(TimePoint now, uint64_t snapshot);  // phase 2
  void RunSources(TimePoint now);                         // phase 3
  // Phase 2's choice: the earliest entry due in the lane's pass (by
  // lane_.now and lane_.snapshot); kNone when the lane is done. (An enum:
  // an optional's two fields, stored apart and read as one, stalled the
  // read on every call.)
  enum class Next { kNone, kFifo, kHeap };
  Next NextOrdered();
  // Takes the entry NextOrdered() chose; `owner` is set to its owner.
  Task TakeOrdered(Next next, uint32_t* owner);
  // What the lane does after each entry: counts it, runs the entry
  // observers, and returns whether the lane may run another one in this
  // pass (no Quit(), within kOrderedBudget).
  bool EndOrderedEntry();
  // The lane's budget and Quit() check after an entry (counts it).
  bool LaneMayContinue();
  // Sets sole_owner_ after a source or observer came or went.
  void UpdateSoleOwner();
  void RunConsumers();                                    // phase 4
  std::optional<TimePoint> NextDeadline();                // phase 5
  void PollAndDispatch(std::optional<Duration> timeout);  // phase 6
  // After a Step(): arms the waker and the backend fd's deadline for the
  // foreign loop's wait.
  void HandWaitToForeignLoop();
  // A home-thread post while the wait is the foreign loop's: moves the
  // backend fd's deadline to cover it.
  void RearmForeignLoop();
  // Arms the backend fd's timerfd for the next deadline (at once with a
  // Wake() pending), in CLOCK_MONOTONIC terms.
  void ArmForeignDeadline();
  // Step 6 without fds: sleeps on the waker's futex until woken or timed out.
  void SleepOnFutex(std::optional<Duration> timeout);
  void DispatchFd(WatchId id, uint32_t events);
  bool HasDueWork(TimePoint now);
  // RunPass() cut short by a Quit(): returns true (the pass ran).
  bool EndPassEarly();
  // Whether an entry of either lane (or a source's) is due by `now`; the
  // inbox is not looked at.
  bool DueBy(TimePoint now);
  // Schedule()'s first step: out of slots, reclaims the cancelled entries'
  // slots (when there are kMinReclaim of them). Returns the slots kept for
  // cross-thread posts.
  std::size_t ReclaimIfOutOfSlots();
  // How late an entry due at `due` starts now.
  Duration LagOf(TimePoint due);
  void RecordLag(Duration lag);
  // LoopSource::BeforeEntry of the source whose entries carry `owner`.
  void BeforeEntryOf(uint32_t owner);
  // The added LoopSource whose entry_owner() is `owner`, or nullptr.
  LoopSource* SourceOf(uint32_t owner);
  // Schedule()'s checks: whether the queue may take one more entry of the
  // home thread's (after reclaiming cancelled slots if it is out of them).
  bool MayScheduleMore();
  void CompactRegistrations();
  // Clears `item` from a registration list (see CompactSoon).
  template <typename T>
  void Unregister(std::vector<T*>* list, T* item);
  void CompactSoon();

  const base::TickClock* const clock_;
  base::DeadlineClock deadline_clock_{clock_};
  // The latest DeadlineNow().
  TimePoint deadline_floor_ = TimePoint::min();
  EpollPoller poller_;
  std::shared_ptr<LooperRemote> remote_;

  // Home-thread state.
  TimerQueue queue_;
  const std::size_t max_scheduled_;  // Options::max_scheduled
  std::size_t capacity_ = TimerQueue::kCapacity;  // (SetCapacityForTesting)
  // Out of slots, Schedule() reclaims cancelled entries' slots when there
  // are at least this many (fewer: refused, so a clear-and-set at the very
  // edge does not rebuild the whole queue each time).
  static constexpr std::size_t kMinReclaim = 64;
  // Due-now entries posted on the home thread: (due, sequence) only grows
  // along it, so it merges with queue_ in order.
  struct DueNowEntry {
    TimePoint due;
    uint64_t sequence;
    TimerQueue::Meta meta;
    Task task;
  };
  base::RingQueue<DueNowEntry> due_now_;
  std::vector<LooperRemote::InboxEntry> inbox_spare_;
  std::size_t due_now_keep_alive_ = 0;
  TimePoint pass_now_{};
  // The ordered lane's pass (phase 2): its clock reading, its sequence
  // snapshot, the end of its time budget, and how many entries it ran.
  // Members, not locals, because TakeChainedEntry continues the lane (and
  // may begin the next pass) from inside a running entry.
  struct Lane {
    TimePoint now{};
    uint64_t snapshot = 0;
    TimePoint budget_end{};
    std::size_t ran = 0;
  };
  Lane lane_;
  PassMode pass_mode_ = PassMode::kMayBlock;
  // An ordered-lane entry is running, and whether TakeChainedEntry ended it.
  bool in_ordered_entry_ = false;
  bool ordered_entry_ended_ = false;
  // What LaneMayContinue() said when TakeChainedEntry ended the entry.
  bool lane_may_continue_ = false;
  // The owner id of the EventLoop that is the only source and the only
  // entry observer here, else 0. TakeChainedEntry works for it alone:
  // another loop's observer would run its checkpoint (its isolate's) under
  // the running entry's script.
  uint32_t sole_owner_ = 0;
  // pass_now_ was read between entries, and no entry ran since
  // (EntryStartNow). Cleared by NotifyEntryRan() and before the pass waits.
  bool reading_before_entry_ = false;
  TimePoint last_fd_poll_{};
  int passes_since_fd_poll_ = 0;
  std::unordered_map<WatchId, std::shared_ptr<Watch>> watches_;
  // Which watch an fd's epoll registration belongs to. A watch whose fd was
  // closed (the kernel dropped its registration) and whose number was reused
  // by a newer watch no longer owns it: unwatching it must leave the newer
  // one alone.
  std::unordered_map<int, WatchId> fd_owners_;
  // Set by a Step() that handed the wait to the foreign loop, until the next pass.
  bool handed_to_foreign_loop_ = false;
  // Whether BackendFd() was ever asked for (any thread).
  std::atomic<bool> backend_fd_requested_{false};
  WatchId next_watch_id_ = 1;
  std::size_t keep_alive_watches_ = 0;
  std::vector<LoopSource*> sources_;
  int dependents_ = 0;
  std::vector<EntryObserver*> observers_;
  struct Consumer {
    ConsumerId id;  // 0 once removed (compacted after the walk)
    std::shared_ptr<base::UniqueFunction<void()>> consume;
    Liveness liveness;
  };
  std::vector<Consumer> consumers_;
  ConsumerId next_consumer_id_ = 1;
  std::size_t keep_alive_consumers_ = 0;
  int iterating_ = 0;  // >0 while sources_/observers_/consumers_ are being walked
  bool needs_compaction_ = false;
  int64_t refs_ = 0;
  bool running_ = false;
  bool closing_ = false;  // set by ~Looper: posts are refused
  LooperStats stats_;
  bool trace_lag_ = false;
  TimePoint created_at_{};
  std::atomic<uint64_t> kernel_wakeups_{0};
  epoll_event events_[kMaxEventsPerPass];
};

}  // namespace hostloop::loop
