#include "loop/event_loop.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <utility>

#include "base/check.h"
#include "loop/run_guarded.h"

namespace hostloop::loop {
namespace {

std::atomic<uint32_t> next_owner_id{1};

// How many entries run between clock reads for the time budget.
constexpr std::size_t kClockCheckInterval = 8;

// Released exactly once: when the posted entry ran, or when it was destroyed
// unrun (shutdown). The waiter learns which.
class Completion {
 public:
  void Signal(bool ran) {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
      ran_ = ran;
    }
    condition_.notify_all();
  }
  bool Wait() {
    std::unique_lock lock(mutex_);
    condition_.wait(lock, [this] { return done_; });
    return ran_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable condition_;
  bool done_ = false;
  bool ran_ = false;
};

// Lives in the posted closure; its destructor releases the waiter whether the
// closure ran or was dropped.
class CompletionNotifier {
 public:
  explicit CompletionNotifier(std::shared_ptr<Completion> completion)
      : completion_(std::move(completion)) {}
  CompletionNotifier(CompletionNotifier&&) noexcept = default;
  CompletionNotifier& operator=(CompletionNotifier&&) = delete;
  ~CompletionNotifier() {
    if (completion_) completion_->Signal(ran_);
  }
  void MarkRan() { ran_ = true; }

 private:
  std::shared_ptr<Completion> completion_;
  bool ran_ = false;
};

}  // namespace

std::shared_ptr<EventLoop> EventLoop::Create(const base::TickClock* clock) {
  return std::shared_ptr<EventLoop>(new EventLoop(clock));
}

EventLoop::EventLoop(const base::TickClock* clock)
    : clock_(clock), owner_id_(next_owner_id.fetch_add(1)) {
  // (Entries of owner 0 are the application's, of kRemoteOwner another
  // thread's: a loop with either id could cancel them.)
  CHECK_MSG(owner_id_ != 0 && owner_id_ != Looper::kRemoteOwner, "EventLoop owner ids ran out");
}

EventLoop::~EventLoop() {
  // The last reference may go away on any thread, but a bound loop can only
  // be torn down at home.
  bool bound;
  {
    base::MutexLock lock(mutex_);
    bound = state_ == State::kBound;
  }
  CHECK_MSG(!bound || IsHomeThread(), "a bound EventLoop must be shut down on its home thread");
  Shutdown();
}

void EventLoop::Bind(Looper* looper) {
  CHECK(looper->IsHomeThread());
  CHECK_MSG(looper->clock() == clock_, "EventLoop and Looper must share a clock");
  std::vector<BufferedOrdered> buffered;
  {
    base::MutexLock lock(mutex_);
    CHECK_MSG(state_ == State::kUnbound, "EventLoop::Bind called twice or after Shutdown");
    state_ = State::kBound;
    remote_ = looper->remote();
    buffered.swap(buffered_ordered_);
  }
  looper_ = looper;
  home_looper_.store(looper, std::memory_order_release);
  for (BufferedOrdered& entry : buffered) {
    looper_->Schedule(entry.due, std::move(entry.task), TimerQueue::Meta{owner_id_, true, 0});
  }
  looper_->AddSource(this);
  looper_->AddEntryObserver(this);
  bound_.store(true, std::memory_order_release);
  // Internal entries posted before the bind are due: a foreign loop waiting
  // on the backend fd between two Step()s must wake for them (a post would
  // have signalled the waker; these were buffered).
  if (NextDue() != TimePoint::max()) remote_->WakeForPost();
}

bool EventLoop::IsShutDown() {
  base::MutexLock lock(mutex_);
  return state_ == State::kShutDown;
}

// ---- Internal lane -----------------------------------------------------------

bool EventLoop::PostInternal(Task task, Nesting nesting) {
  LooperRemote* remote = nullptr;
  {
    base::MutexLock lock(mutex_);
    if (state_ != State::kShutDown) {
      immediate_.push_back(Entry{next_sequence_++, nesting, std::move(task)});
      PublishLocked();
      remote = remote_.get();
    }
  }
  if (task) return false;  // refused; destroyed here, outside the lock
  if (remote != nullptr) remote->WakeForPost();
  return true;
}

bool EventLoop::PostInternalDelayed(Task task, Duration delay, Nesting nesting,
                                    Liveness liveness) {
  if (delay <= Duration::zero()) return PostInternal(std::move(task), nesting);
  return ScheduleInternal(std::move(task), delay, nesting, liveness) != TimerQueue::kInvalidId;
}

EventLoop::TimerId EventLoop::ScheduleInternal(Task task, Duration delay, Nesting nesting,
                                               Liveness liveness) {
  TimePoint due = base::DueAfter(clock_->Now(), std::max(delay, Duration::zero()));
  LooperRemote* remote = nullptr;
  TimerId id = TimerQueue::kInvalidId;
  {
    base::MutexLock lock(mutex_);
    if (state_ != State::kShutDown) {
      uint8_t flags = nesting == Nesting::kNonNestable ? kNonNestableFlag : 0;
      id = delayed_.Add(due, next_sequence_++, std::move(task),
                        TimerQueue::Meta{0, liveness == Liveness::kKeepsAlive, flags});
      PublishLocked();
      remote = remote_.get();
    }
  }
  // A new earliest deadline must shorten a wait already under way.
  if (remote != nullptr) remote->WakeForPost();
  return id;  // (a refused task is destroyed here, outside the lock)
}

bool EventLoop::CancelInternal(TimerId id) {
  Task task;  // destroyed after the lock is released
  base::MutexLock lock(mutex_);
  if (state_ == State::kShutDown) return false;
  task = delayed_.Take(id);
  if (!task) return false;
  PublishLocked();
  return true;
}

bool EventLoop::PostInternalAndWait(Task task) {
  if (IsHomeThread()) {
    if (shut_down_) return false;
    RunGuarded(task, "an internal-lane entry");
    task.Reset();
    looper_->NotifyEntryRan();
    return true;
  }
  auto completion = std::make_shared<Completion>();
  bool accepted = PostInternal(
      [task = std::move(task), notifier = CompletionNotifier(completion)]() mutable {
        task();
        notifier.MarkRan();
      });
  if (!accepted) return false;
  return completion->Wait();
}

void EventLoop::TransferDueLocked(TimePoint now) {
  while (!delayed_.empty() && delayed_.TopDue() <= now) {
    Nesting nesting =
        (delayed_.TopMeta().flags & kNonNestableFlag) ? Nesting::kNonNestable : Nesting::kNestable;
    uint64_t sequence = delayed_.TopSequence();
    immediate_.push_back(Entry{sequence, nesting, delayed_.PopTop()});
  }
  PublishLocked();
}

void EventLoop::PublishLocked() {
  TimePoint earliest = !immediate_.empty() ? TimePoint::min()
                       : !delayed_.empty() ? delayed_.TopDue()
                                           : TimePoint::max();
  earliest_due_.store(earliest.time_since_epoch().count(), std::memory_order_seq_cst);
}

void EventLoop::RunEntry(Entry& entry) {
  RunGuarded(
      [&entry] {
        entry.task();
        entry.task.Reset();
      },
      "an internal-lane entry");
  looper_->CountInternalEntry();
}

void EventLoop::RunDue(TimePoint now, const LaneBudget& budget) {
  // Nothing due: no lock (most passes of a busy runtime find this lane empty).
  if (earliest_due_.load(std::memory_order_seq_cst) > now.time_since_epoch().count()) return;
  // An entry may drop the runtime's last reference to this loop.
  std::shared_ptr<EventLoop> self = shared_from_this();
  uint64_t snapshot = 0;
  bool first_batch = true;
  // The budget starts now, not at `now` (the pass's reading): after an
  // ordered-lane entry that ran for a millisecond or more (a gc(), a long
  // timer callback), a budget counted from the pass's start was spent
  // already, and this lane ran 8 entries a pass (kClockCheckInterval): a
  // queue of a few hundred port notices kept a FinalizationRegistry's
  // cleanup task waiting for dozens of passes, until the program ended
  // without it.
  TimePoint budget_end = looper_->Now() + budget.max_time;
  std::size_t ran = 0;
  while (ran < budget.max_entries) {
    // Whether entries of this pass's snapshot remain after this batch (when
    // none do, there is no second look under the lock: a pass that finds one
    // entry due locks once).
    bool more;
    {
      base::MutexLock lock(mutex_);
      if (first_batch) {
        if (state_ != State::kBound) return;
        TransferDueLocked(now);
        snapshot = next_sequence_;
        first_batch = false;
      }
      while (batch_.size() < kBatchSize && ran + batch_.size() < budget.max_entries &&
             !immediate_.empty() && immediate_.front().sequence < snapshot) {
        batch_.push_back(std::move(immediate_.front()));
        immediate_.pop_front();
      }
      more = !immediate_.empty() && immediate_.front().sequence < snapshot;
      PublishLocked();
    }
    if (batch_.empty()) return;
    batch_next_ = 0;
    batch_returned_ = false;
    bool stop = false;
    // (batch_ may shrink under an entry: a nested drain takes the rest back.)
    while (batch_next_ < batch_.size()) {
      // An entry shut the loop down: the rest is dropped with the queue.
      if (shut_down_) {
        batch_.clear();
        return;
      }
      BeforeEntry();
      RunEntry(batch_[batch_next_++]);
      looper_->NotifyEntryRan();
      ++ran;
      // Quit (a worker being terminated, an embedder's Quit) and the time
      // budget (L4) end the pass between entries, not between batches.
      if (looper_->quit_requested() ||
          (ran % kClockCheckInterval == 0 && looper_->Now() >= budget_end)) {
        stop = true;
        break;
      }
    }
    if (batch_next_ < batch_.size() && !shut_down_) {
      base::MutexLock lock(mutex_);
      ReturnRestOfBatchLocked();
    }
    batch_.clear();
    // (Entries a nested drain took back and left, non-nestable ones, are
    // still this pass's.)
    if (stop || shut_down_ || !(more || batch_returned_)) return;
    if (looper_->Now() >= budget_end) return;
  }
}

void EventLoop::ReturnRestOfBatchLocked() {
  if (batch_next_ >= batch_.size() || state_ != State::kBound) return;
  // Entries taken but not run go back to the front, in order.
  for (std::size_t i = batch_.size(); i-- > batch_next_;) {
    immediate_.push_front(std::move(batch_[i]));
  }
  // (Not the ones before: the entry running now is among them.)
  batch_.erase(batch_.begin() + static_cast<std::ptrdiff_t>(batch_next_), batch_.end());
  batch_returned_ = true;
  PublishLocked();
}

TimePoint EventLoop::NextDue() {
  return TimePoint(Duration(earliest_due_.load(std::memory_order_seq_cst)));
}

bool EventLoop::KeepsAlive() {
  if (refs_ > 0) return true;
  base::MutexLock lock(mutex_);
  return !immediate_.empty() || delayed_.keep_alive_count() > 0;
}

std::size_t EventLoop::RunNestableTasks() {
  CHECK(IsHomeThread());
  std::shared_ptr<EventLoop> self = shared_from_this();
  uint64_t snapshot;
  {
    base::MutexLock lock(mutex_);
    if (state_ != State::kBound) return 0;
    // Called from an entry of RunDue's batch (V8 pumping its message loop
    // from a task): the batch's entries not run yet were posted before
    // everything in immediate_, so they go back to its front to keep FIFO
    // order; the outer pass then finds them run or still queued.
    ReturnRestOfBatchLocked();
    TransferDueLocked(looper_->Now());
    snapshot = next_sequence_;
  }
  std::size_t ran = 0;
  std::size_t position = 0;  // entries before it are non-nestable, kept
  while (!shut_down_) {
    Entry entry{0, Nesting::kNestable, Task()};
    {
      base::MutexLock lock(mutex_);
      while (position < immediate_.size() &&
             immediate_[position].nesting == Nesting::kNonNestable) {
        ++position;
      }
      if (position >= immediate_.size() || immediate_[position].sequence >= snapshot) break;
      entry = std::move(immediate_[position]);
      immediate_.erase(position);
      PublishLocked();
    }
    RunEntry(entry);
    ++ran;
  }
  return ran;
}

// ---- Ordered lane ------------------------------------------------------------

bool EventLoop::PostOrderedTagged(Task task, Duration delay, uint8_t chain_tag) {
  if (!bound_.load(std::memory_order_acquire)) {
    base::MutexLock lock(mutex_);
    if (state_ == State::kShutDown) return false;
    if (state_ == State::kUnbound) {
      // (A delay of zero or less is "now", as after the bind: posting order.
      // A buffered entry is never chained: it runs first after the bind.)
      buffered_ordered_.push_back(BufferedOrdered{
          base::DueAfter(clock_->Now(), std::max(delay, Duration::zero())), std::move(task)});
      return true;
    }
  }
  CHECK_MSG(IsHomeThread(), "ordered posts come from the home thread once bound");
  if (shut_down_) return false;
  if (delay > Duration::zero()) {
    // (Refused only when the queue has no slot left.)
    return looper_->Schedule(base::DueAfter(looper_->DeadlineNow(), delay), std::move(task),
                             TimerQueue::Meta{owner_id_, true, 0}) != TimerQueue::kInvalidId;
  } else {
    looper_->PostNow(std::move(task), TimerQueue::Meta{owner_id_, true, 0, chain_tag});
  }
  return true;
}

bool EventLoop::PostOrdered(Task task, Duration delay) {
  return PostOrderedTagged(std::move(task), delay, 0);
}

bool EventLoop::PostOrderedChained(Task task, uint8_t tag) {
  return PostOrderedTagged(std::move(task), Duration::zero(), tag);
}

EventLoop::TimerId EventLoop::ScheduleOrdered(Task task, Duration delay, Liveness liveness) {
  DCHECK(IsHomeThread());
  return ScheduleOrderedAt(std::move(task), base::DueAfter(looper_->DeadlineNow(), delay),
                           liveness);
}

EventLoop::TimerId EventLoop::ScheduleOrderedAt(Task task, TimePoint due, Liveness liveness) {
  DCHECK(IsHomeThread());
  if (shut_down_) return TimerQueue::kInvalidId;
  return looper_->Schedule(
      due, std::move(task),
      TimerQueue::Meta{owner_id_, liveness == Liveness::kKeepsAlive, 0});
}

EventLoop::TimerId EventLoop::ScheduleOrderedCall(TimePoint due, Liveness liveness) {
  DCHECK(IsHomeThread());
  if (shut_down_) return TimerQueue::kInvalidId;
  return looper_->ScheduleCall(due, owner_id_, liveness);
}

void EventLoop::RunOrderedCall(TimerId id, TimePoint due, Liveness liveness) {
  DCHECK(ordered_call_handler_);
  if (ordered_call_handler_) ordered_call_handler_(id, due, liveness);
}

bool EventLoop::CancelOrdered(TimerId id) {
  DCHECK(IsHomeThread());
  if (shut_down_) return false;
  return looper_->Cancel(id, owner_id_);
}

std::size_t EventLoop::CancelOrderedMany(const TimerId* ids, std::size_t count) {
  DCHECK(IsHomeThread());
  if (shut_down_) return 0;
  return looper_->CancelMany(ids, count, owner_id_);
}

// ---- Home thread -------------------------------------------------------------

void EventLoop::Shutdown() {
  base::RingQueue<Entry> immediate;
  std::vector<Task> dropped;
  std::vector<BufferedOrdered> buffered;
  bool was_bound;
  {
    base::MutexLock lock(mutex_);
    if (state_ == State::kShutDown) return;
    was_bound = state_ == State::kBound;
    state_ = State::kShutDown;
    bound_.store(false, std::memory_order_relaxed);
    immediate.swap(immediate_);
    while (!delayed_.empty()) dropped.push_back(delayed_.PopTop());
    PublishLocked();
    buffered.swap(buffered_ordered_);
  }
  if (was_bound) {
    CHECK_MSG(IsHomeThread(), "EventLoop::Shutdown runs on the home thread");
    shut_down_ = true;
    looper_->RemoveOwnedBy(owner_id_);
    looper_->RemoveSource(this);
    looper_->RemoveEntryObserver(this);
  }
  shut_down_ = true;
  refs_ = 0;
  base::UniqueFunction<void()> hook = std::move(hook_);
  // Everything dropped is destroyed here, outside the lock; destructors that
  // post again are refused.
}

void EventLoop::SetEntryHook(base::UniqueFunction<void()> hook) { hook_ = std::move(hook); }

void EventLoop::OnEntryRan() {
  if (hook_) hook_();
}

void EventLoop::Unref() {
  // Shutdown released every reference already.
  if (shut_down_) return;
  CHECK(refs_ > 0);
  --refs_;
}

}  // namespace hostloop::loop
