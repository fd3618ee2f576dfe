#include "loop/looper.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "base/check.h"
#include "loop/run_guarded.h"

namespace hostloop::loop {
namespace {

thread_local Looper* tls_current_looper = nullptr;

// Fd keys start above zero; the poller reserves ~0 and the waker uses 0.
constexpr uint64_t kWakerKey = 0;

// How many entries run between clock reads for the time budget.
constexpr std::size_t kClockCheckInterval = 8;

// Inbox sizes past which the pass re-reads the clock after taking them.
constexpr std::size_t kLargeInbox = 4096;

// While work is due, how often the fds (and the wake eventfd) are polled.
constexpr Duration kFdPollInterval = std::chrono::microseconds(250);
constexpr int kFdPollPasses = 1024;

// Deadlines may be TimePoint::min() ("due now"): compare before subtracting,
// or the difference overflows.
Duration TimeUntil(TimePoint deadline, TimePoint now) {
  return deadline <= now ? Duration::zero() : deadline - now;
}

}  // namespace

// ---- LooperRemote ----------------------------------------------------------

bool LooperRemote::Post(Task task, Duration delay) {
  // (An empty task would be accepted here and fail a CHECK on the home
  // thread later, far from the call.)
  CHECK_MSG(task, "LooperRemote::Post: an empty task");
  {
    base::MutexLock lock(mutex_);
    if (!closed_ && inbox_.size() + remote_in_queue_.load(std::memory_order_relaxed) < max_queued_) {
      // A fresh reading even for "now": the home thread's last one may be a
      // whole task (or a whole sleep) old, and a post stamped with it would
      // run ahead of timers that were overdue before it was made (L3).
      TimePoint now = clock_->Now();
      RaiseLatestStamp(now);
      TimePoint due = delay > Duration::zero() ? base::DueAfter(now, delay) : now;
      uint64_t sequence = next_sequence_.fetch_add(1, std::memory_order_seq_cst);
      inbox_.push_back(InboxEntry{due, sequence, std::move(task)});
      inbox_nonempty_.store(true, std::memory_order_release);
    }
  }
  if (task) return false;  // refused: destroyed here, outside the lock
  waker_.Wake();
  return true;
}

// ---- Looper: creation ------------------------------------------------------

base::Result<std::unique_ptr<Looper>> Looper::Create(Options options) {
  CHECK_MSG(tls_current_looper == nullptr, "this thread already has a Looper");
  EpollPoller poller = TRY(EpollPoller::Create());
  EventfdWaker waker = TRY(EventfdWaker::Create());
  TRY(poller.Add(waker.fd(), EPOLLIN, kWakerKey));
  CHECK_MSG(options.max_queued_remote_posts <= TimerQueue::kCapacity / 2,
            "max_queued_remote_posts above TimerQueue::kCapacity / 2");
  std::shared_ptr<LooperRemote> remote(
      new LooperRemote(std::move(waker), options.clock, options.max_queued_remote_posts));
  return std::unique_ptr<Looper>(
      new Looper(options.clock, std::move(poller), std::move(remote), options.max_scheduled));
}

Looper::Looper(const base::TickClock* clock, EpollPoller poller,
               std::shared_ptr<LooperRemote> remote, std::size_t max_scheduled)
    : clock_(clock),
      poller_(std::move(poller)),
      remote_(std::move(remote)),
      max_scheduled_(max_scheduled) {
  tls_current_looper = this;
  created_at_ = Now();
  // The deadline clock's calibration starts now, not at the first timer (a
  // script's first 20 ms of setTimeout()s would read the clock each).
  deadline_clock_.Now();
  // A foreign loop may poll BackendFd() before its first Step(): armed, a
  // cross-thread post turns it readable.
  HandWaitToForeignLoop();
}

const LooperStats& Looper::stats() {
  stats_.run_time = clock_->Now() - created_at_;
  return stats_;
}

Duration LooperStats::LagPercentile(double fraction) const {
  if (lag_samples == 0) return Duration::zero();
  uint64_t wanted = static_cast<uint64_t>(fraction * static_cast<double>(lag_samples) + 0.5);
  uint64_t seen = 0;
  for (int i = 0; i < kLagBuckets; ++i) {
    seen += lag_histogram[i];
    if (seen >= wanted) return std::chrono::microseconds(i == 0 ? 1 : (int64_t{1} << i));
  }
  return max_lag;
}

Looper* Looper::Current() { return tls_current_looper; }

// The embedder-facing home-thread-only methods CHECK in every build: a call
// from another thread is a clear failure, not a data race. (The per-entry
// ones that hostloop itself calls, PostNow, Schedule, Cancel, only DCHECK.)
void Looper::CheckHomeThread() const {
  CHECK_MSG(
      IsHomeThread(),
      "a Looper method that is for its home thread (the thread that created it) was called "
      "from another thread; Post, PostDelayed, Wake, Quit and remote() are the thread-safe ones");
}

Looper::~Looper() {
  CHECK(IsHomeThread());
  CHECK_MSG(!running_, "a Looper cannot be destroyed while it runs");
  CHECK_MSG(dependents_ == 0,
            "destroy the runtimes created on a Looper before destroying the Looper");
  CHECK_MSG(sources_.empty() || std::all_of(sources_.begin(), sources_.end(),
                                            [](LoopSource* s) { return s == nullptr; }),
            "shut down the EventLoops bound to a Looper before destroying it");
  // From here on posts are refused (L7): from another thread the remote is
  // closed, from this one closing_ says so, so nothing lands in a queue
  // that is being cleared.
  closing_ = true;
  std::vector<LooperRemote::InboxEntry> inbox;
  {
    base::MutexLock lock(remote_->mutex_);
    remote_->closed_ = true;
    inbox.swap(remote_->inbox_);
  }
  // Queued tasks are destroyed unrun while this is still the thread's
  // Looper: their destructors may post (refused) and may release what they
  // hold through the home-thread calls (unwatch an fd, remove a consumer,
  // cancel), which CHECK the thread's Looper. Each container is moved out
  // first, so such a call finds it empty rather than half cleared.
  inbox.clear();
  while (!queue_.empty()) queue_.PopTop();
  base::RingQueue<DueNowEntry> due_now;
  due_now.swap(due_now_);
  due_now.clear();
  std::unordered_map<WatchId, std::shared_ptr<Watch>> watches;
  watches.swap(watches_);
  watches.clear();
  std::vector<Consumer> consumers;
  consumers.swap(consumers_);
  consumers.clear();
  tls_current_looper = nullptr;
}

// ---- Ordered lane ----------------------------------------------------------

TimePoint Looper::Now() {
  // (Not published to the remote side's latest stamp: a cross-thread post
  // stamps itself with a reading taken after this one, and this thread's
  // due-now posts take the later of pass_now_ and that stamp.)
  pass_now_ = std::max(pass_now_, clock_->Now());
  return pass_now_;
}

bool Looper::PostDelayed(Task task, Duration delay) {
  if (!IsHomeThread()) return remote_->Post(std::move(task), delay);
  if (closing_) return false;  // (a dropped task's destructor: `task` destroyed here)
  if (delay <= Duration::zero()) {
    PostNow(std::move(task));
    return true;
  }
  return Schedule(base::DueAfter(DeadlineNow(), delay), std::move(task)) != TimerQueue::kInvalidId;
}

void Looper::PostNow(Task task, TimerQueue::Meta meta) {
  DCHECK(IsHomeThread());
  if (closing_) return;  // refused (L7): `task` is destroyed here
  // Due "now": with deadlines pending, a fresh clock reading. A deadline may
  // have passed since the last reading (a long task reads no clock), and a
  // post stamped with that reading would run ahead of a timer that was
  // overdue when it was made (L3). With none pending no reading can change
  // the order: the latest reading of any thread (so posts made one after the
  // other are in that order by due time too), and a chain of posts with no
  // timers pending reads no clock.
  // (Tracing loop lag reads the clock too: the lag of a due-now post is
  // measured from its stamp, and an old one overstated it.)
  // A cross-thread post still in the inbox may carry a deadline that passed
  // meanwhile: it counts as pending. A deadline computed from DeadlineNow()
  // may be a little ahead of the clock: the stamp is not below it, so a
  // timer set with a timeout of 0 before this post stays ahead of it.
  TimePoint due =
      !queue_.empty() || trace_lag_ || remote_->inbox_nonempty_.load(std::memory_order_acquire)
          ? std::max(Now(), deadline_floor_)
          : std::max(
                pass_now_,
                TimePoint(Duration(remote_->latest_stamp_ns_.load(std::memory_order_acquire))));
  uint64_t sequence = remote_->next_sequence_.fetch_add(1, std::memory_order_seq_cst);
  if (meta.keeps_alive) ++due_now_keep_alive_;
  due_now_.push_back(DueNowEntry{due, sequence, meta, std::move(task)});
  if (handed_to_foreign_loop_) RearmForeignLoop();
}

bool Looper::MayScheduleMore() {
  DCHECK(IsHomeThread());
  if (closing_) return false;  // refused (L7)
  const std::size_t remote_reserve = ReclaimIfOutOfSlots();
  // The bound the application set counts pending entries only: a cleared
  // timer makes room at once.
  // (Cross-thread posts waiting in the queue are not the home thread's.)
  const std::size_t remote_queued = remote_->remote_in_queue_.load(std::memory_order_relaxed);
  const std::size_t own = queue_.size() - std::min(queue_.size(), remote_queued);
  return queue_.slots_in_use() + remote_reserve < capacity_ && own < max_scheduled_;
}

Looper::TimerId Looper::Schedule(TimePoint due, Task task, TimerQueue::Meta meta) {
  if (!MayScheduleMore()) return TimerQueue::kInvalidId;  // (`task` is destroyed unrun)
  uint64_t sequence = remote_->next_sequence_.fetch_add(1, std::memory_order_seq_cst);
  TimerId id = queue_.Add(due, sequence, std::move(task), meta);
  if (handed_to_foreign_loop_) RearmForeignLoop();
  return id;
}

Looper::TimerId Looper::ScheduleCall(TimePoint due, uint32_t owner, Liveness liveness) {
  DCHECK(owner != 0 && owner != kRemoteOwner);
  if (!MayScheduleMore()) return TimerQueue::kInvalidId;
  uint64_t sequence = remote_->next_sequence_.fetch_add(1, std::memory_order_seq_cst);
  TimerId id = queue_.AddCall(due, sequence, owner, liveness == Liveness::kKeepsAlive);
  if (handed_to_foreign_loop_) RearmForeignLoop();
  return id;
}

std::size_t Looper::ReclaimIfOutOfSlots() {
  // The slots the cross-thread posts may still claim stay free, so taking
  // the inbox never finds the queue full.
  const std::size_t remote_reserve =
      remote_->max_queued_ -
      std::min(remote_->max_queued_, remote_->remote_in_queue_.load(std::memory_order_relaxed));
  if (queue_.slots_in_use() + remote_reserve >= capacity_ && queue_.cancelled() >= kMinReclaim) {
    // Out of slots while cancelled entries still hold theirs (a compaction
    // would have freed them later): free them now rather than refuse.
    queue_.ReclaimCancelled();
  }
  return remote_reserve;
}

void Looper::SetCapacityForTesting(std::size_t capacity) {
  CHECK(capacity <= TimerQueue::kCapacity && capacity > remote_->max_queued_);
  capacity_ = capacity;
}

bool Looper::Cancel(TimerId id, uint32_t owner) {
  DCHECK(IsHomeThread());
  return queue_.Cancel(id, owner);  // the task is destroyed, unrun
}

std::size_t Looper::CancelMany(const TimerId* ids, std::size_t count, uint32_t owner) {
  DCHECK(IsHomeThread());
  return queue_.CancelMany(ids, count, owner);
}

void Looper::RemoveOwnedBy(uint32_t owner) {
  DCHECK(IsHomeThread());
  std::vector<Task> dropped;
  queue_.RemoveOwnedBy(owner, &dropped);
  // Each entry goes round once: the owner's out, the rest back in order.
  for (std::size_t count = due_now_.size(); count > 0; --count) {
    DueNowEntry entry = std::move(due_now_.front());
    due_now_.pop_front();
    if (entry.meta.owner == owner) {
      if (entry.meta.keeps_alive) --due_now_keep_alive_;
      dropped.push_back(std::move(entry.task));
    } else {
      due_now_.push_back(std::move(entry));
    }
  }
  // `dropped` is destroyed here, after the queue is consistent again.
}

// ---- File descriptors ------------------------------------------------------

base::Result<Looper::WatchId> Looper::WatchFd(int fd, uint32_t events, FdCallback callback,
                                              Liveness liveness) {
  CheckHomeThread();
  WatchId id = next_watch_id_++;
  TRY(poller_.Add(fd, events, id));
  fd_owners_[fd] = id;
  watches_.emplace(id, std::make_shared<Watch>(Watch{fd, std::move(callback), liveness}));
  if (liveness == Liveness::kKeepsAlive) ++keep_alive_watches_;
  return id;
}

base::Result<void> Looper::ModifyFd(WatchId id, uint32_t events) {
  CheckHomeThread();
  auto it = watches_.find(id);
  if (it == watches_.end()) return base::Error{0, "unknown watch"};
  auto owner = fd_owners_.find(it->second->fd);
  if (owner == fd_owners_.end() || owner->second != id) {
    return base::Error{EBADF, "the watched fd was closed (and its number reused) before ModifyFd"};
  }
  return poller_.Modify(it->second->fd, events, id);
}

void Looper::UnwatchFd(WatchId id) {
  CheckHomeThread();
  auto it = watches_.find(id);
  if (it == watches_.end()) return;
  auto owner = fd_owners_.find(it->second->fd);
  if (owner != fd_owners_.end() && owner->second == id) {
    poller_.Remove(it->second->fd);
    fd_owners_.erase(owner);
  }
  if (it->second->liveness == Liveness::kKeepsAlive) --keep_alive_watches_;
  // A callback that unwatches itself is kept alive by DispatchFd's reference.
  std::shared_ptr<Watch> watch = std::move(it->second);
  watches_.erase(it);
}

// ---- Registrations ---------------------------------------------------------

template <typename T>
void Looper::Unregister(std::vector<T*>* list, T* item) {
  auto it = std::find(list->begin(), list->end(), item);
  if (it == list->end()) return;
  *it = nullptr;
  CompactSoon();
}

void Looper::CompactSoon() {
  // Registrations are cleared, not erased, while a walk over them may be
  // under way; the walk's end (or this, outside one) compacts.
  needs_compaction_ = true;
  if (iterating_ == 0) CompactRegistrations();
}

void Looper::AddSource(LoopSource* source) {
  CheckHomeThread();
  sources_.push_back(source);
  UpdateSoleOwner();
}

void Looper::RemoveSource(LoopSource* source) {
  CheckHomeThread();
  Unregister(&sources_, source);
  UpdateSoleOwner();
}

void Looper::AddEntryObserver(EntryObserver* observer) {
  CheckHomeThread();
  observers_.push_back(observer);
  UpdateSoleOwner();
}

void Looper::RemoveEntryObserver(EntryObserver* observer) {
  CheckHomeThread();
  Unregister(&observers_, observer);
  UpdateSoleOwner();
}

void Looper::CompactRegistrations() {
  if (!needs_compaction_) return;
  needs_compaction_ = false;
  std::erase(sources_, nullptr);
  std::erase(observers_, nullptr);
  std::erase_if(consumers_, [](const Consumer& c) { return c.id == 0; });
}

void Looper::NotifyEntryRan() {
  reading_before_entry_ = false;
  if (observers_.empty()) return;
  ++iterating_;
  // Index loop: observers may be added during the walk.
  for (std::size_t i = 0; i < observers_.size(); ++i) {
    if (observers_[i] != nullptr) observers_[i]->OnEntryRan();
  }
  if (--iterating_ == 0) CompactRegistrations();
}

// ---- Liveness --------------------------------------------------------------

void Looper::Unref() {
  DCHECK(IsHomeThread());
  CHECK(refs_ > 0);
  --refs_;
}

bool Looper::KeepsAlive() {
  DCHECK(IsHomeThread());
  if (refs_ > 0 || queue_.keep_alive_count() > 0 || due_now_keep_alive_ > 0 ||
      keep_alive_watches_ > 0 || keep_alive_consumers_ > 0) {
    return true;
  }
  if (remote_->inbox_nonempty_.load(std::memory_order_acquire)) return true;
  for (LoopSource* source : sources_) {
    if (source != nullptr && source->KeepsAlive()) return true;
  }
  return false;
}

// ---- Running ---------------------------------------------------------------

void Looper::Quit() {
  remote_->quit_.store(true, std::memory_order_relaxed);
  // From another thread, or on this one between two Step()s (the foreign
  // loop polls the backend fd, armed by the last Step()): wake it, so that
  // the next Step() returns false at once instead of at the next deadline.
  if (!IsHomeThread() || handed_to_foreign_loop_) Wake();
}

Looper::RunResult Looper::Run() {
  CHECK(IsHomeThread());
  CHECK_MSG(!running_, "Looper::Run is not re-entrant");
  running_ = true;
  // A Quit() that arrived before Run() still counts. A Quit() is consumed
  // where it is seen, not cleared on the way out: one from another thread
  // that lands as Run() returns idle stays for the next Run().
  RunResult result = RunResult::kIdle;
  while (true) {
    if (remote_->quit_.exchange(false, std::memory_order_relaxed)) {
      result = RunResult::kQuit;
      break;
    }
    if (!RunPass(PassMode::kMayBlock)) break;
  }
  running_ = false;
  // The backend fd works for a foreign loop from here, as after a Step().
  HandWaitToForeignLoop();
  return result;
}

void Looper::RunUntilIdle() {
  CHECK(IsHomeThread());
  CHECK_MSG(!running_, "Looper::RunUntilIdle is not re-entrant");
  running_ = true;
  bool quit;
  do {
    RunPass(PassMode::kNonBlocking);
    quit = remote_->quit_.exchange(false, std::memory_order_relaxed);
  } while (!quit && HasDueWork(Now()));
  running_ = false;
  // As after Run() and Step(): a foreign loop that flushes with
  // RunUntilIdle() between its Step()s still wakes for cross-thread posts
  // (the pass left the waker disarmed).
  HandWaitToForeignLoop();
}

bool Looper::Step() {
  CHECK(IsHomeThread());
  CHECK_MSG(!running_, "Looper::Step is not re-entrant");
  running_ = true;
  RunPass(PassMode::kStep);
  // A Quit() (also an uncaught error stopping a runtime) ends the stepping as
  // it ends Run(): this Step() returns false once.
  bool quit = remote_->quit_.exchange(false, std::memory_order_relaxed);
  // Also after a pass that a Quit() cut short (an uncaught JS error stops
  // its runtime with one): without this, cross-thread posts found the
  // waker disarmed and the foreign loop waited forever.
  HandWaitToForeignLoop();
  running_ = false;
  return !quit && KeepsAlive();
}

void Looper::HandWaitToForeignLoop() {
  // The backend fd must turn readable when the next deadline comes (at
  // once if work is due now) or a post arrives from another thread. Arm
  // first, then look: a post racing this is either taken here or signals.
  remote_->waker_.set_sleep(EventfdWaker::Sleep::kEpoll);
  remote_->waker_.Arm();
  TakeInbox();
  ArmForeignDeadline();
  handed_to_foreign_loop_ = true;
}

void Looper::ArmForeignDeadline() {
  // (A Wake() the waker did not signal: the fd is readable at once.)
  std::optional<TimePoint> deadline = remote_->wake_requested_.load(std::memory_order_seq_cst)
                                          ? std::optional<TimePoint>(Now())
                                          : NextDeadline();
  // The timerfd counts CLOCK_MONOTONIC, the default clock's; an injected
  // clock's time points mean nothing to it: the same distance from now.
  if (deadline && clock_ != base::TickClock::Default()) {
    deadline = base::TickClock::Default()->Now() + TimeUntil(*deadline, Now());
  }
  poller_.ArmDeadline(deadline);
}

int Looper::BackendFd() {
  if (!backend_fd_requested_.exchange(true, std::memory_order_relaxed)) {
    // Posts since the last hand-off did not move the deadline.
    if (!IsHomeThread()) {
      Wake();
    } else if (handed_to_foreign_loop_) {
      ArmForeignDeadline();
    }
  }
  return poller_.fd();
}

void Looper::RearmForeignLoop() {
  // Between two Step()s the application may post, or run JS that sets
  // timers: the backend fd's deadline must cover that work too, or the
  // foreign loop sleeps past it (until an unrelated deadline, or forever).
  // (A pending Wake() keeps it at once: re-arming resets the timerfd.)
  // Until BackendFd() is asked for, no foreign loop can be polling it, and
  // that first call catches up.
  if (!backend_fd_requested_.load(std::memory_order_relaxed)) return;
  ArmForeignDeadline();
}

bool Looper::RunPass(PassMode mode) {
  ++stats_.passes;
  handed_to_foreign_loop_ = false;
  // A foreign loop blocked since the last Step(): we are awake now.
  remote_->waker_.Disarm();

  // 1. Clock and inbox.
  TimePoint now = Now();
  if (remote_->inbox_nonempty_.load(std::memory_order_acquire) && TakeInbox() > kLargeInbox) {
    // Moving a large inbox into the queue takes a while: the lane's time
    // budget starts after it, or it would be spent before the first entry.
    now = Now();
  }
  reading_before_entry_ = true;
  uint64_t snapshot = remote_->next_sequence_.load(std::memory_order_seq_cst);

  // 2. Ordered lane. (An entry may go on into later passes:
  // TakeChainedEntry. The rest of the pass is then the last one's.)
  pass_mode_ = mode;
  RunOrderedLane(now, snapshot);
  if (remote_->quit_.load(std::memory_order_relaxed)) return EndPassEarly();

  // 3. Internal lanes.
  RunSources(lane_.now);
  if (remote_->quit_.load(std::memory_order_relaxed)) return EndPassEarly();

  // 4. Consumers. A Wake() is consumed here, before they look: one that
  // lands after this (while a consumer runs, after it looked) stays set, so
  // this pass does not sleep (step 5) and a Step() hands the foreign loop an
  // fd that is readable at once (HandWaitToForeignLoop).
  // (Read first: the exchange is a locked instruction, and a flag that is
  // not set has nothing to consume.)
  if (remote_->wake_requested_.load(std::memory_order_seq_cst)) {
    remote_->wake_requested_.exchange(false, std::memory_order_seq_cst);
  }
  RunConsumers();
  if (remote_->quit_.load(std::memory_order_relaxed)) return EndPassEarly();

  // (The pass's entries have run; the fd callbacks come after a wait.)
  reading_before_entry_ = false;

  // 5. Decide the wait. A pass that cannot sleep (a step, or work due
  // already: a chain of tasks that each post the next) needs no waker: a
  // post racing it is taken by the next pass. Else arm first, then look: a
  // post racing this either is seen by NextDeadline() or finds the waker
  // armed and signals it. With no fd watched, a Looper that runs itself
  // sleeps on the waker's futex.
  bool futex_sleep = mode == PassMode::kMayBlock && watches_.empty();
  std::optional<Duration> timeout;
  if (mode != PassMode::kMayBlock || remote_->quit_.load(std::memory_order_relaxed) ||
      (KeepsAlive() && DueBy(pass_now_))) {
    timeout = Duration::zero();
  } else {
    remote_->waker_.set_sleep(futex_sleep ? EventfdWaker::Sleep::kFutex
                                          : EventfdWaker::Sleep::kEpoll);
    remote_->waker_.Arm();
    TakeInbox();
    // A Wake() that came while this pass ran (after a consumer looked, say)
    // found the waker disarmed: one more pass instead of a sleep (L8). (Left
    // set for that pass's consumers; a Step() hands it to the foreign loop.)
    const bool woken = remote_->wake_requested_.load(std::memory_order_seq_cst);
    std::optional<TimePoint> deadline = NextDeadline();
    if (woken) {
      timeout = Duration::zero();
    } else if (!KeepsAlive()) {
      // Only weak entries (if any) remain: nothing can produce more work.
      remote_->waker_.Disarm();
      return false;
    } else if (deadline) {
      timeout = *deadline <= pass_now_ ? Duration::zero() : TimeUntil(*deadline, Now());
    }
  }

  // 6. Poll. With work already due, the fds are looked at no more often
  // than every kFdPollInterval: a chain of tasks that each post the next one
  // needs one pass per task, and a syscall per pass would double its cost,
  // while ready fds still wait at most that long (L4).
  // (Also every kFdPollPasses passes: an injected clock that stands still
  // must not starve the fds.)
  if (mode == PassMode::kMayBlock && timeout && *timeout == Duration::zero() &&
      pass_now_ - last_fd_poll_ < kFdPollInterval && ++passes_since_fd_poll_ < kFdPollPasses) {
    remote_->waker_.Disarm();
    return true;
  }
  last_fd_poll_ = pass_now_;
  passes_since_fd_poll_ = 0;
  if (futex_sleep) {
    SleepOnFutex(timeout);
    return true;
  }
  PollAndDispatch(timeout);
  // (A Step() then hands the wait to the foreign loop: HandWaitToForeignLoop.)
  return true;
}

bool Looper::EndPassEarly() {
  reading_before_entry_ = false;
  return true;
}

std::size_t Looper::TakeInbox() {
  if (!remote_->inbox_nonempty_.load(std::memory_order_acquire)) return 0;
  // Swapped with a spare whose capacity is kept, so remote posts do not
  // allocate once the inbox has grown.
  {
    base::MutexLock lock(remote_->mutex_);
    inbox_spare_.swap(remote_->inbox_);
    remote_->inbox_nonempty_.store(false, std::memory_order_relaxed);
    remote_->remote_in_queue_.fetch_add(inbox_spare_.size(), std::memory_order_relaxed);
  }
  for (LooperRemote::InboxEntry& entry : inbox_spare_) {
    queue_.Add(entry.due, entry.sequence, std::move(entry.task),
               TimerQueue::Meta{kRemoteOwner, true, 0});
  }
  std::size_t taken = inbox_spare_.size();
  inbox_spare_.clear();
  return taken;
}

void Looper::RunOrderedLane(TimePoint now, uint64_t snapshot) {
  lane_ = Lane{now, snapshot, now + kOrderedBudget.max_time, 0};
  for (Next next = NextOrdered(); next != Next::kNone; next = NextOrdered()) {
    uint32_t owner;
    Task task = TakeOrdered(next, &owner);
    if (owner != 0) BeforeEntryOf(owner);
    in_ordered_entry_ = true;
    ordered_entry_ended_ = false;
    RunGuarded(
        [&task] {
          task();
          task.Reset();  // the destructor belongs to the entry too
        },
        "an ordered-lane entry");
    in_ordered_entry_ = false;
    // (Ended already when TakeChainedEntry declined to go on.)
    if (!(ordered_entry_ended_ ? lane_may_continue_ : EndOrderedEntry())) return;
  }
}

Looper::Next Looper::NextOrdered() {
  // The earliest of the two sorted sources, by (due, sequence).
  bool fifo_due = !due_now_.empty() && due_now_.front().due <= lane_.now &&
                  due_now_.front().sequence < lane_.snapshot;
  bool heap_due =
      !queue_.empty() && queue_.TopDue() <= lane_.now && queue_.TopSequence() < lane_.snapshot;
  if (!fifo_due && !heap_due) return Next::kNone;
  bool from_fifo = fifo_due && (!heap_due || due_now_.front().due < queue_.TopDue() ||
                                (due_now_.front().due == queue_.TopDue() &&
                                 due_now_.front().sequence < queue_.TopSequence()));
  return from_fifo ? Next::kFifo : Next::kHeap;
}

Task Looper::TakeOrdered(Next next, uint32_t* owner) {
  if (next == Next::kFifo) {
    DueNowEntry& entry = due_now_.front();
    *owner = entry.meta.owner;
    if (trace_lag_) RecordLag(LagOf(entry.due));
    if (entry.meta.keeps_alive) --due_now_keep_alive_;
    Task task = std::move(entry.task);
    due_now_.pop_front();
    return task;
  }
  if (trace_lag_) RecordLag(LagOf(queue_.TopDue()));
  *owner = queue_.TopOwner();
  if (*owner == kRemoteOwner) {
    remote_->remote_in_queue_.fetch_sub(1, std::memory_order_relaxed);
    *owner = 0;  // no runtime's entry
  }
  if (queue_.TopIsCall()) {
    // Its owner's source runs it. (It is there: RemoveOwnedBy() drops a
    // source's entries when it goes.)
    const TimerId id = queue_.TopId();
    const TimePoint due = queue_.TopDue();
    const Liveness liveness =
        queue_.TopMeta().keeps_alive ? Liveness::kKeepsAlive : Liveness::kWeak;
    queue_.PopTop();
    LoopSource* source = SourceOf(*owner);
    CHECK_MSG(source != nullptr, "a call entry whose owner is not a source of this Looper");
    return [source, id, due, liveness] { source->RunOrderedCall(id, due, liveness); };
  }
  return queue_.PopTop();
}

bool Looper::EndOrderedEntry() {
  ++stats_.ordered_entries;
  NotifyEntryRan();
  return LaneMayContinue();
}

bool Looper::LaneMayContinue() {
  if (remote_->quit_.load(std::memory_order_relaxed)) return false;
  if (++lane_.ran >= kOrderedBudget.max_entries) return false;
  if (lane_.ran % kClockCheckInterval == 0) {
    if (Now() >= lane_.budget_end) return false;
    reading_before_entry_ = true;  // (read after the entry's NotifyEntryRan)
  }
  return true;
}

Task Looper::TakeChainedEntry(uint32_t owner, uint8_t tag) {
  DCHECK(IsHomeThread());
  if (!in_ordered_entry_ || ordered_entry_ended_ || owner == 0 || owner != sole_owner_) return {};
  // The running entry ends here, as RunOrderedLane ends it when it returns.
  ordered_entry_ended_ = true;
  lane_may_continue_ = EndOrderedEntry();
  if (!lane_may_continue_) return {};
  auto is_chained = [&] {
    const DueNowEntry& front = due_now_.front();
    return front.meta.owner == owner && front.meta.chain_tag == tag;
  };
  // What the lane runs next in this pass.
  Next next = NextOrdered();
  if (next == Next::kHeap || (next == Next::kFifo && !is_chained())) return {};
  if (next == Next::kNone) {
    // The lane is done with this pass. The rest of it and the start of the
    // next would do nothing but run the lane's front entry (RunPass):
    // - phase 3, no internal lane has an entry due by the lane's reading;
    // - phase 4, there is no consumer (and no Wake() to look at);
    // - phase 5, the front entry is due by the latest reading (no wait), in
    //   Run() (a Step() or RunUntilIdle() returns or looks again between
    //   passes), with the loop kept alive;
    // - phase 6, the fds are not due for a look (kFdPollInterval);
    // - the next pass's phase 1 has no cross-thread post to take in.
    if (pass_mode_ != PassMode::kMayBlock || due_now_.empty() || !is_chained() ||
        due_now_.front().due > pass_now_ || !consumers_.empty() ||
        remote_->wake_requested_.load(std::memory_order_relaxed) ||
        remote_->inbox_nonempty_.load(std::memory_order_acquire) ||
        pass_now_ - last_fd_poll_ >= kFdPollInterval ||
        passes_since_fd_poll_ + 1 >= kFdPollPasses) {
      return {};
    }
    for (LoopSource* source : sources_) {
      if (source != nullptr && source->NextDue() <= lane_.now) return {};
    }
    if (!KeepsAlive()) return {};
    // The pass ends as RunPass ends one with work due (no fd poll), and the
    // next begins.
    ++passes_since_fd_poll_;
    ++stats_.passes;
    TimePoint now = Now();
    lane_ = Lane{now, remote_->next_sequence_.load(std::memory_order_seq_cst),
                 now + kOrderedBudget.max_time, 0};
    reading_before_entry_ = true;
    // (The front entry is due by this reading; a timer that came due
    // meanwhile may run first: then the lane, in its new pass, runs it.)
    next = NextOrdered();
    if (next != Next::kFifo) return {};
  }
  uint32_t taken_owner;
  Task task = TakeOrdered(next, &taken_owner);
  BeforeEntryOf(taken_owner);
  ordered_entry_ended_ = false;
  return task;
}

void Looper::UpdateSoleOwner() {
  // A bound EventLoop is both a source and an observer; anything else
  // shows up as a second one.
  std::size_t observers = 0;
  for (EntryObserver* observer : observers_) observers += observer != nullptr;
  std::size_t sources = 0;
  uint32_t owner = 0;
  for (LoopSource* source : sources_) {
    if (source == nullptr) continue;
    ++sources;
    owner = source->entry_owner();
  }
  sole_owner_ = observers == 1 && sources == 1 ? owner : 0;
}

void Looper::BeforeEntryOf(uint32_t owner) {
  if (LoopSource* source = SourceOf(owner)) source->BeforeEntry();
}

LoopSource* Looper::SourceOf(uint32_t owner) {
  for (LoopSource* source : sources_) {
    if (source != nullptr && source->entry_owner() == owner) return source;
  }
  return nullptr;
}

Duration Looper::LagOf(TimePoint due) {
  // Nothing was due before the Looper existed: an entry due at
  // TimePoint::min() ("due now") counts from then, and the difference
  // cannot overflow.
  return TimeUntil(Now(), std::max(due, created_at_));
}

void Looper::RecordLag(Duration lag) {
  int64_t us = std::chrono::duration_cast<std::chrono::microseconds>(lag).count();
  int bucket = 0;
  while (bucket + 1 < LooperStats::kLagBuckets && (int64_t{1} << bucket) <= us) ++bucket;
  ++stats_.lag_histogram[bucket];
  ++stats_.lag_samples;
  if (lag > stats_.max_lag) stats_.max_lag = lag;
}

void Looper::RunSources(TimePoint now) {
  ++iterating_;
  for (std::size_t i = 0; i < sources_.size(); ++i) {
    if (sources_[i] == nullptr) continue;
    sources_[i]->RunDue(now, kInternalBudget);
    if (remote_->quit_.load(std::memory_order_relaxed)) break;
  }
  if (--iterating_ == 0) CompactRegistrations();
}

Looper::ConsumerId Looper::AddConsumer(base::UniqueFunction<void()> consume, Liveness liveness) {
  CheckHomeThread();
  ConsumerId id = next_consumer_id_++;
  consumers_.push_back(
      Consumer{id, std::make_shared<base::UniqueFunction<void()>>(std::move(consume)), liveness});
  if (liveness == Liveness::kKeepsAlive) ++keep_alive_consumers_;
  return id;
}

void Looper::RemoveConsumer(ConsumerId id) {
  CheckHomeThread();
  auto it = std::find_if(consumers_.begin(), consumers_.end(),
                         [id](const Consumer& c) { return c.id == id; });
  if (it == consumers_.end()) return;
  if (it->liveness == Liveness::kKeepsAlive) --keep_alive_consumers_;
  it->id = 0;
  it->consume.reset();
  CompactSoon();
}

void Looper::RunConsumers() {
  if (consumers_.empty()) return;
  ++iterating_;
  // Consumers added during the walk wait for the next pass; removed ones are
  // skipped. The running one is held here, so it may remove itself.
  const std::size_t count = consumers_.size();
  for (std::size_t i = 0; i < count; ++i) {
    if (consumers_[i].id == 0) continue;
    std::shared_ptr<base::UniqueFunction<void()>> consume = consumers_[i].consume;
    RunGuarded([&consume] { (*consume)(); }, "a loop consumer");
    NotifyEntryRan();
    if (remote_->quit_.load(std::memory_order_relaxed)) break;
  }
  if (--iterating_ == 0) CompactRegistrations();
}

std::optional<TimePoint> Looper::NextDeadline() {
  std::optional<TimePoint> deadline;
  if (!queue_.empty()) deadline = queue_.TopDue();
  if (!due_now_.empty() && (!deadline || due_now_.front().due < *deadline)) {
    deadline = due_now_.front().due;
  }
  for (LoopSource* source : sources_) {
    if (source == nullptr) continue;
    TimePoint due = source->NextDue();
    if (due != TimePoint::max() && (!deadline || due < *deadline)) deadline = due;
  }
  return deadline;
}

bool Looper::DueBy(TimePoint now) {
  // NextDeadline() <= now, without the minimum: the first entry due is
  // enough (a chain's pass finds its next entry in due_now_ at once).
  if (!due_now_.empty() && due_now_.front().due <= now) return true;
  if (!queue_.empty() && queue_.TopDue() <= now) return true;
  for (LoopSource* source : sources_) {
    if (source != nullptr && source->NextDue() <= now) return true;
  }
  return false;
}

bool Looper::HasDueWork(TimePoint now) {
  return remote_->inbox_nonempty_.load(std::memory_order_acquire) || DueBy(now);
}

std::optional<Duration> Looper::NextTimeout() {
  CheckHomeThread();
  if (remote_->inbox_nonempty_.load(std::memory_order_acquire) ||
      remote_->wake_requested_.load(std::memory_order_seq_cst)) {
    return Duration::zero();
  }
  std::optional<TimePoint> deadline = NextDeadline();
  if (!deadline) return std::nullopt;
  return TimeUntil(*deadline, Now());
}

int64_t Looper::NextTimeoutMs() {
  std::optional<Duration> timeout = NextTimeout();
  if (!timeout) return -1;
  return std::min<int64_t>(base::CeilMilliseconds(*timeout), std::numeric_limits<int>::max());
}

void Looper::SleepOnFutex(std::optional<Duration> timeout) {
  if (timeout && *timeout <= Duration::zero()) {
    // Work is due and there is no fd to look at: no syscall at all.
    remote_->waker_.Disarm();
    return;
  }
  TimePoint before = clock_->Now();
  remote_->waker_.SleepOnFutex(timeout);
  kernel_wakeups_.fetch_add(1, std::memory_order_relaxed);
  ++stats_.kernel_wakeups;
  ++stats_.futex_sleeps;
  stats_.idle_time += clock_->Now() - before;
  remote_->waker_.Disarm();
}

void Looper::PollAndDispatch(std::optional<Duration> timeout) {
  bool blocking = !timeout || *timeout > Duration::zero();
  TimePoint before = blocking ? clock_->Now() : TimePoint{};
  int n = poller_.Wait(timeout, events_);
  if (blocking) {
    kernel_wakeups_.fetch_add(1, std::memory_order_relaxed);
    ++stats_.kernel_wakeups;
    stats_.idle_time += clock_->Now() - before;
  }
  remote_->waker_.Disarm();
  // Copy the events out: a callback may run a nested Step() of another
  // Looper, never ours, but it may unwatch fds whose events are still listed.
  for (int i = 0; i < n; ++i) {
    uint64_t key = events_[i].data.u64;
    uint32_t events = events_[i].events;
    if (key == kWakerKey) {
      remote_->waker_.Drain();
    } else if (key == EpollPoller::kDeadlineKey) {
      poller_.ConsumeDeadline();
    } else {
      DispatchFd(key, events);
      if (remote_->quit_.load(std::memory_order_relaxed)) return;
    }
  }
}

void Looper::DispatchFd(WatchId id, uint32_t events) {
  auto it = watches_.find(id);
  if (it == watches_.end()) return;  // unwatched by an earlier callback
  std::shared_ptr<Watch> watch = it->second;
  RunGuarded([&] { watch->callback(events); }, "an fd callback");
  ++stats_.fd_callbacks;
  NotifyEntryRan();
}

}  // namespace hostloop::loop
