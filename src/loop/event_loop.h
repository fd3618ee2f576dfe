// EventLoop: one per runtime (the main one and every worker). It gives the
// runtime its two lanes on the Looper of its home thread:
//
//  - the ordered lane: entries in the Looper's own (due, sequence) queue,
//    tagged with this EventLoop so Shutdown() can drop them (L3);
//  - the internal lane: its own ordering domain (V8 foreground tasks,
//    messages between threads, native completions), a mutex-guarded FIFO of
//    immediate entries plus a TimerQueue of delayed ones, posted from any
//    thread. Due delayed entries join the FIFO at the start of a pass.
//
// Lifecycle: Create() -> (posts are buffered, L2) -> Bind() on the home thread
// -> Shutdown() on the home thread (drops everything queued, refuses later
// posts, L7). Owned by shared_ptr: other threads keep it alive while posting.
//
// Internal pass (RunDue, phase 3 of Looper's pass): take the entries present
// when the pass starts (sequence snapshot, L4), run them in FIFO order in
// batches taken under the lock, at most kInternalBudget per pass. After each
// entry the Looper's entry observers run (the microtask checkpoint, L5).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "base/ring_queue.h"
#include "base/thread_annotations.h"
#include "base/time.h"
#include "base/unique_function.h"
#include "loop/loop_source.h"
#include "loop/looper.h"
#include "loop/timer_queue.h"

namespace hostloop::loop {

// Whether an internal entry may run inside a nested drain (L9).
enum class Nesting { kNestable, kNonNestable };

class EventLoop final : public LoopSource,
                        public EntryObserver,
                        public std::enable_shared_from_this<EventLoop> {
 public:
  using TimerId = TimerQueue::Id;

  // Thread-safe. The loop starts unbound; `clock` must be the one of the
  // Looper it will bind to.
  static std::shared_ptr<EventLoop> Create(
      const base::TickClock* clock = base::TickClock::Default());
  ~EventLoop() override;
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  // Makes the calling thread (whose Looper is `looper`) the home thread and
  // schedules everything buffered so far, in posting order (L2).
  void Bind(Looper* looper);

  // ---- Internal lane. Thread-safe; false after Shutdown (L1). -----------

  bool PostInternal(Task task, Nesting nesting = Nesting::kNestable);
  // Delayed entries are weak by default: V8's housekeeping must not keep a
  // runtime alive (J3).
  bool PostInternalDelayed(Task task, Duration delay, Nesting nesting = Nesting::kNestable,
                           Liveness liveness = Liveness::kWeak);
  // The same, returning the entry's id for CancelInternal() (kInvalidId
  // after Shutdown). A delay of zero or less makes it due at once: it joins
  // the FIFO at the next pass, behind the immediate entries queued by then.
  TimerId ScheduleInternal(Task task, Duration delay, Nesting nesting = Nesting::kNestable,
                           Liveness liveness = Liveness::kWeak);
  // Removes a ScheduleInternal() entry that is not due yet; its task is
  // destroyed on the calling thread, outside the lock. False once the entry
  // is due (it joined the FIFO: it will run), ran, or was cancelled, and
  // after Shutdown. Ids are TimerQueue ids of the lane's own queue: a stale
  // id never matches a later entry that reuses its slot (the generation
  // check; see TimerQueue::MakeId). A sleeping home thread is not woken:
  // it may wake once, uselessly, at the removed entry's deadline.
  bool CancelInternal(TimerId id);
  // Posts and blocks until the entry ran (true) or was dropped unrun by
  // Shutdown (false, L7). On the home thread the task runs inline.
  bool PostInternalAndWait(Task task);

  // ---- Ordered lane (L3) -------------------------------------------------

  // Home thread after Bind(); any thread before it (buffered, L2).
  bool PostOrdered(Task task, Duration delay = Duration::zero());
  // Home thread, bound. PostOrdered() due now, for an entry that
  // TakeChainedOrdered(tag) may hand to a running entry of this loop (0: none).
  bool PostOrderedChained(Task task, uint8_t tag);
  // Home thread, from inside a running ordered-lane entry of this loop:
  // Looper::TakeChainedEntry for this loop's entries posted with `tag`.
  Task TakeChainedOrdered(uint8_t tag) { return looper_->TakeChainedEntry(owner_id_, tag); }
  // Home thread, bound. Due `delay` from now (a fresh clock reading, so a
  // timer's timeout is measured from the call). Returns kInvalidId after
  // Shutdown, or when the queue is full.
  TimerId ScheduleOrdered(Task task, Duration delay, Liveness liveness = Liveness::kKeepsAlive);
  // Home thread. The same at an explicit deadline (interval re-arming).
  TimerId ScheduleOrderedAt(Task task, TimePoint due, Liveness liveness = Liveness::kKeepsAlive);
  // Home thread, bound. An ordered entry at `due` that holds no task (a
  // Looper call entry): when it runs, the handler set by
  // SetOrderedCallHandler() is called with its id, due and liveness. A JS
  // timer is one: its callback lives in JS, found by the id, so the queue
  // keeps 48 bytes less for it than for a task and the timer builds none.
  // kInvalidId after Shutdown, or when the queue is full.
  TimerId ScheduleOrderedCall(TimePoint due, Liveness liveness = Liveness::kKeepsAlive);
  using OrderedCallHandler = base::UniqueFunction<void(TimerId, TimePoint, Liveness)>;
  void SetOrderedCallHandler(OrderedCallHandler handler) {
    ordered_call_handler_ = std::move(handler);
  }
  // Home thread. Removes a pending ordered entry of this loop; its task is
  // destroyed. Another runtime's entry on the same Looper (whose ids come
  // from the same queue) and a post from another thread are left alone.
  bool CancelOrdered(TimerId id);
  // Home thread. CancelOrdered() for each of `count` ids, faster per id than
  // one call each (TimerQueue::CancelMany); returns how many were pending.
  std::size_t CancelOrderedMany(const TimerId* ids, std::size_t count);

  // ---- Home thread -------------------------------------------------------

  // Drops all queued work of both lanes (destructors run, outside the lock),
  // refuses every later post, releases refs. Idempotent. On an unbound loop
  // any thread may call it.
  void Shutdown();

  // Nested drain (L9): runs the nestable internal entries present now, in
  // order, leaving non-nestable ones queued, without entry observers (no
  // microtask checkpoint may run while JS frames are on the stack). Returns
  // how many ran.
  std::size_t RunNestableTasks();

  // Called after every entry the Looper runs while this loop is bound (L5).
  void SetEntryHook(base::UniqueFunction<void()> hook);
  // Called right before each of this loop's entries runs (internal lane,
  // and its ordered-lane entries), on the home thread.
  void SetBeforeEntryHook(base::UniqueFunction<void()> hook) { before_entry_ = std::move(hook); }

  // Keep-alive references (J3): a pending Atomics.waitAsync, a live worker, a
  // started port with a remote partner, a pending native operation.
  void Ref() { ++refs_; }
  void Unref();

  Looper* looper() const { return looper_; }
  const base::TickClock* clock() const { return clock_; }
  uint32_t owner_id() const { return owner_id_; }
  // Thread-safe.
  bool IsShutDown();
  // Home thread, bound: the same without the lock.
  bool IsShutDownOnHomeThread() const {
    DCHECK(IsHomeThread());
    return shut_down_;
  }
  // Thread-safe (PostInternalAndWait asks from any thread, maybe while the
  // home thread binds).
  bool IsHomeThread() const {
    Looper* looper = home_looper_.load(std::memory_order_acquire);
    return looper != nullptr && looper->IsHomeThread();
  }

  // LoopSource (called by the Looper).
  void RunDue(TimePoint now, const LaneBudget& budget) override;
  TimePoint NextDue() override;
  bool KeepsAlive() override;
  uint32_t entry_owner() const override { return owner_id_; }
  void BeforeEntry() override {
    if (before_entry_) before_entry_();
  }
  void RunOrderedCall(TimerId id, TimePoint due, Liveness liveness) override;
  // EntryObserver.
  void OnEntryRan() override;

 private:
  // PostOrdered() and PostOrderedChained(): a due-now entry gets Meta::chain_tag `chain_tag`.
  bool PostOrderedTagged(Task task, Duration delay, uint8_t chain_tag);
  enum class State { kUnbound, kBound, kShutDown };
  static constexpr uint8_t kNonNestableFlag = 1;
  static constexpr std::size_t kBatchSize = 32;

  struct Entry {
    uint64_t sequence;
    Nesting nesting;
    Task task;
  };
  struct BufferedOrdered {
    TimePoint due;
    Task task;
  };

  explicit EventLoop(const base::TickClock* clock);
  // Moves delayed entries due at `now` to the back of the FIFO.
  void TransferDueLocked(TimePoint now) REQUIRES(mutex_);
  // Stores when the lane next has work (earliest_due_) after a change to
  // either queue.
  void PublishLocked() REQUIRES(mutex_);
  void RunEntry(Entry& entry);
  // Puts batch_'s entries from batch_next_ on back at the front of
  // immediate_, in order.
  void ReturnRestOfBatchLocked() REQUIRES(mutex_);

  const base::TickClock* const clock_;
  const uint32_t owner_id_;

  base::Mutex mutex_;
  State state_ GUARDED_BY(mutex_) = State::kUnbound;
  base::RingQueue<Entry> immediate_ GUARDED_BY(mutex_);
  TimerQueue delayed_ GUARDED_BY(mutex_);
  uint64_t next_sequence_ GUARDED_BY(mutex_) = 1;
  std::vector<BufferedOrdered> buffered_ordered_ GUARDED_BY(mutex_);
  // The lane's next due time as TimePoint ticks: TimePoint::min() while
  // immediate_ holds entries, else delayed_'s earliest due, else
  // TimePoint::max(). Written under mutex_, read without it, so a pass with
  // nothing due costs RunDue() and NextDue() no lock. seq_cst, paired with the
  // waker: a post that stores after the home thread Arm()s and reads this
  // finds the waker armed, and wakes it.
  std::atomic<TimePoint::rep> earliest_due_{TimePoint::max().time_since_epoch().count()};
  // Set once by Bind(), never cleared: posting threads (which hold this
  // EventLoop alive) may wake the Looper through it even after it is gone.
  std::shared_ptr<LooperRemote> remote_ GUARDED_BY(mutex_);

  // True from the end of Bind() until Shutdown(): ordered posts (home
  // thread only, which is also the only thread that shuts a bound loop down)
  // then skip mutex_ and decide by shut_down_.
  std::atomic<bool> bound_{false};

  // Home-thread state.
  Looper* looper_ = nullptr;
  // looper_ for IsHomeThread() on other threads.
  std::atomic<Looper*> home_looper_{nullptr};
  bool shut_down_ = false;
  int64_t refs_ = 0;
  base::UniqueFunction<void()> hook_;
  base::UniqueFunction<void()> before_entry_;
  OrderedCallHandler ordered_call_handler_;
  // RunDue's batch: entries taken from immediate_ under one lock, run
  // without it. batch_next_ is the next to run; a nested drain
  // (RunNestableTasks) from one of them takes the rest back and sets
  // batch_returned_.
  std::vector<Entry> batch_;
  std::size_t batch_next_ = 0;
  bool batch_returned_ = false;
};

// Home thread. One keep-alive reference on an EventLoop that an object holds
// or not as its state changes (a port with a remote partner, a listening
// BroadcastChannel): Set(loop, hold) takes or drops it so that it is held
// exactly when `hold`.
class LoopRef {
 public:
  void Set(EventLoop& loop, bool hold) {
    if (hold == held_) return;
    held_ = hold;
    if (hold) {
      loop.Ref();
    } else {
      loop.Unref();
    }
  }
  bool held() const { return held_; }

 private:
  bool held_ = false;
};

}  // namespace hostloop::loop
