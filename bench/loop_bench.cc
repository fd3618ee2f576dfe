// loop_bench: Google Benchmark binary for the engine-independent loop core
// (src/loop). bench/run.py reads its JSON for the table's "gbench" rows, by
// benchmark name: rename a benchmark only together with ROWS in bench/run.py.
//
//   BM_EventfdPingPongFloor          two plain threads, one eventfd + epoll each:
//                                    the floor for anything crossing threads
//   BM_FutexPingPong                 the same with futex waits: the least a
//                                    blocking round trip can cost
//   BM_CrossThreadRoundTrip          LooperRemote::Post to a sleeping Looper,
//                                    whose entry signals back through an eventfd
//   BM_CrossThreadRoundTripInternal  the same through EventLoop::PostInternal
//   BM_SameThreadPostAndRun          Looper::Post x 1000, then RunUntilIdle()
//   BM_InternalLaneDrain             RunUntilIdle() of 10,000 PostInternal
//                                    entries (counter entries_per_s)
//   BM_TimerScheduleWith1MPending    TimerQueue::Add with 1M entries pending
//   BM_TimerCancelWith1MPending      TimerQueue::Cancel of a random pending one
//   BM_TimerCancelManyWith1MPending  the same in CancelMany() runs of 1024 ids
//                                    (how the runtime cancels clearTimeout()s)
//   BM_LooperScheduleWith1MPending   the same through Looper::Schedule
//   BM_LooperCancelWith1MPending     and Looper::Cancel
//   BM_LooperCancelManyWith1MPending and Looper::CancelMany
//
// Every reported time is per operation (one round trip, one post+run, one
// schedule, one cancel, one drained entry):
//
//  - Cross-thread benchmarks report real time (the benchmark thread sleeps),
//    plus the counter cpu_ns: CPU time of the whole process (both threads)
//    per round trip.
//  - Same-thread benchmarks report this thread's CPU time, so that other
//    processes on a shared machine don't inflate them.
//  - Benchmarks that run N operations per step use KeepRunningBatch(N), so an
//    "iteration" is one operation.
//  - Where each step needs untimed setup (filling a lane, getting back to 1M
//    pending entries), the step times itself (thread CPU clock) and reports
//    that through SetIterationTime (UseManualTime: the JSON's real_time is
//    this timed part; its cpu_time covers the untimed part too). Two clock
//    reads per step of 4000+ operations, instead of PauseTiming/ResumeTiming
//    around every untimed part.
//
// CPU placement of the cross-thread benchmarks (--loop_bench_cpus=, parsed
// here, not by Google Benchmark):
//
//   same   (default) both threads pinned to one CPU. A round trip is then the
//          software path alone: syscalls, two context switches, and whatever
//          the loop adds, which is what the ratio to the floor is about.
//   split  the two threads pinned to two different CPUs: adds the cost of
//          waking an idle CPU. On the 2-core Firecracker dev VM
//          (guest_halt_poll_ns=0) that is ~65 us per hop of hypervisor
//          latency, drifting 100-250 us per round trip from minute to
//          minute, which buries the loop's share.
//   any    no pinning. Bimodal on the dev VM: ~4 us while the scheduler
//          keeps both threads on one CPU, 50-250 us after it splits them.
//
// The whole binary with --benchmark_repetitions=5
// --benchmark_report_aggregates_only=true takes ~40 s on the dev VM at load
// average 5 (see the default --benchmark_min_time in main()).
#include <benchmark/benchmark.h>
#include <pthread.h>
#include <sched.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "base/time.h"
#include "base/unique_function.h"
#include "loop/event_loop.h"
#include "loop/looper.h"
#include "loop/timer_queue.h"

namespace {

using hostloop::base::Duration;
using hostloop::base::Task;
using hostloop::base::TimePoint;
using hostloop::loop::EventLoop;
using hostloop::loop::Looper;
using hostloop::loop::LooperRemote;
using hostloop::loop::TimerQueue;

[[noreturn]] void Die(const char* what) {
  std::perror(what);
  std::abort();
}

// The calling thread's CPU time, in seconds. The timed sections of the
// same-thread benchmarks are measured with it: on a shared machine, time
// other processes run on this CPU must not count, while this thread's cache
// misses, page faults and syscalls still do. (A read is a syscall, ~0.3-0.6
// us on the dev VM, so a timed section spans 100+ us of work.)
double ThreadCpuSeconds() {
  timespec ts;
  if (::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) Die("clock_gettime");
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// CPU time of the whole process (every thread), in ns.
int64_t ProcessCpuNs() {
  timespec ts;
  if (::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) Die("clock_gettime");
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// Reports the process CPU time (both threads) spent per round trip, as the
// counter cpu_ns: a second view of the cross-thread benchmarks, less
// sensitive than real time to when the scheduler runs which thread.
void ReportCpuPerRoundTrip(benchmark::State& state, int64_t cpu_ns) {
  state.counters["cpu_ns"] =
      benchmark::Counter(static_cast<double>(cpu_ns), benchmark::Counter::kAvgIterations);
}

// ---- CPU placement of cross-thread benchmarks ------------------------------------------------

enum class Placement { kSameCpu, kSplitCpus, kAny };
Placement g_placement = Placement::kSameCpu;
int g_home_cpu = -1;     // the benchmark thread
int g_partner_cpu = -1;  // the ping-pong partner / the Looper's thread

// Picks the CPUs from the process's allowed set. Returns a description for
// the benchmark context, or an error message (empty string = ok).
std::string ChoosePlacement(std::string_view mode, std::string* description) {
  if (mode == "any") {
    g_placement = Placement::kAny;
    *description = "any (not pinned)";
    return "";
  }
  if (mode != "same" && mode != "split") return "--loop_bench_cpus must be same, split or any";
  cpu_set_t allowed;
  if (::sched_getaffinity(0, sizeof allowed, &allowed) != 0) Die("sched_getaffinity");
  std::vector<int> cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &allowed)) cpus.push_back(cpu);
  }
  if (cpus.empty()) return "no CPU in the affinity mask";
  g_home_cpu = cpus[0];
  if (mode == "split" && cpus.size() < 2) return "--loop_bench_cpus=split needs two CPUs";
  g_placement = mode == "split" ? Placement::kSplitCpus : Placement::kSameCpu;
  g_partner_cpu = mode == "split" ? cpus[1] : cpus[0];
  *description = std::string(mode) + " (benchmark thread on cpu " + std::to_string(g_home_cpu) +
                 ", partner on cpu " + std::to_string(g_partner_cpu) + ")";
  return "";
}

void PinCurrentThread(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (int rc = ::pthread_setaffinity_np(::pthread_self(), sizeof set, &set); rc != 0) {
    errno = rc;
    Die("pthread_setaffinity_np");
  }
}

// The partner thread's first call.
void PinPartner() {
  if (g_placement != Placement::kAny) PinCurrentThread(g_partner_cpu);
}

// Pins the benchmark thread for the scope of one cross-thread benchmark run,
// then gives it back its previous mask.
class ScopedHomePin {
 public:
  ScopedHomePin() {
    if (g_placement == Placement::kAny) return;
    if (::pthread_getaffinity_np(::pthread_self(), sizeof saved_, &saved_) != 0) Die("getaffinity");
    PinCurrentThread(g_home_cpu);
    pinned_ = true;
  }
  ~ScopedHomePin() {
    if (pinned_) ::pthread_setaffinity_np(::pthread_self(), sizeof saved_, &saved_);
  }
  ScopedHomePin(const ScopedHomePin&) = delete;
  ScopedHomePin& operator=(const ScopedHomePin&) = delete;

 private:
  cpu_set_t saved_;
  bool pinned_ = false;
};

// ---- Eventfd wait --------------------------------------------------------------------------

// An eventfd and an epoll instance watching it. Wait() blocks in epoll_wait
// (as a sleeping Looper does) and then consumes the signal. Used by both sides
// of the floor, and by the benchmark thread of the cross-thread benchmarks, so
// their only difference from the floor is the Looper side.
class EventfdWait {
 public:
  EventfdWait() {
    event_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (event_fd_ < 0) Die("eventfd");
    epoll_fd_ = ::epoll_create1(EPOLL_CLOEXEC);
    if (epoll_fd_ < 0) Die("epoll_create1");
    epoll_event event{};
    event.events = EPOLLIN;
    if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, event_fd_, &event) < 0) Die("epoll_ctl");
  }
  ~EventfdWait() {
    ::close(epoll_fd_);
    ::close(event_fd_);
  }
  EventfdWait(const EventfdWait&) = delete;
  EventfdWait& operator=(const EventfdWait&) = delete;

  // Any thread.
  void Signal() {
    uint64_t one = 1;
    ssize_t n;
    do {
      n = ::write(event_fd_, &one, sizeof one);
    } while (n < 0 && errno == EINTR);
    if (n != sizeof one) Die("eventfd write");
  }

  // One thread. Blocks until signalled; returns the number of signals taken
  // (1 in a strict ping-pong).
  uint64_t Wait() {
    epoll_event event;
    int n;
    do {
      n = ::epoll_wait(epoll_fd_, &event, 1, -1);
    } while (n < 0 && errno == EINTR);
    if (n != 1) Die("epoll_wait");
    uint64_t value;
    if (::read(event_fd_, &value, sizeof value) != sizeof value) Die("eventfd read");
    return value;
  }

 private:
  int event_fd_ = -1;
  int epoll_fd_ = -1;
};

// ---- Floor -----------------------------------------------------------------------------------

// One side's sleep of a ping-pong: Signal() from the other thread, Wait()
// blocks until signalled and returns how many signals it took (1 in a strict
// ping-pong).
//   EventfdWait (above): epoll_wait on an eventfd, as a sleeping Looper does.
//   FutexWait: a futex word, what Atomics.wait and Atomics.notify come down to.
class FutexWait {
 public:
  void Signal() {
    word_.store(1, std::memory_order_release);
    ::syscall(SYS_futex, &word_, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
  }
  uint64_t Wait() {
    while (word_.exchange(0, std::memory_order_acquire) == 0) {
      ::syscall(SYS_futex, &word_, FUTEX_WAIT_PRIVATE, 0, nullptr, nullptr, 0);
    }
    return 1;
  }

 private:
  std::atomic<uint32_t> word_{0};
};

// A round trip between two plain threads, each asleep in its own Sleep.
template <typename Sleep>
void PingPong(benchmark::State& state) {
  Sleep here;   // the benchmark thread sleeps here
  Sleep there;  // the partner sleeps here
  std::atomic<bool> stop{false};
  uint64_t pongs = 0;  // partner-only until join
  ScopedHomePin pin;
  std::thread partner([&] {
    PinPartner();
    while (true) {
      there.Wait();
      if (stop.load(std::memory_order_acquire)) return;
      ++pongs;
      here.Signal();
    }
  });
  uint64_t lost = 0;
  int64_t cpu0 = ProcessCpuNs();
  for (auto _ : state) {
    there.Signal();
    lost += here.Wait() - 1;
  }
  ReportCpuPerRoundTrip(state, ProcessCpuNs() - cpu0);
  stop.store(true, std::memory_order_release);
  there.Signal();
  partner.join();
  if (lost != 0 || pongs != static_cast<uint64_t>(state.iterations())) {
    state.SkipWithError("ping-pong lost its strict alternation");
  }
}

// The floor for anything crossing threads: one round trip between two plain
// threads, each asleep in epoll_wait on its own eventfd.
void BM_EventfdPingPongFloor(benchmark::State& state) { PingPong<EventfdWait>(state); }
BENCHMARK(BM_EventfdPingPongFloor)->UseRealTime();

// For reference: the same round trip with both threads asleep in futex waits,
// the cheapest way two threads can take turns sleeping. A round trip in which
// one side sleeps in a futex (a worker in Atomics.wait) and the other in
// epoll_wait costs at least about the mean of the two.
void BM_FutexPingPong(benchmark::State& state) { PingPong<FutexWait>(state); }
BENCHMARK(BM_FutexPingPong)->UseRealTime();

// ---- Cross-thread round trips ----------------------------------------------------------------

// A Looper running on its own thread: Run() kept alive by a Ref(), optionally
// with an EventLoop bound to it. Torn down on its home thread.
class LooperThread {
 public:
  explicit LooperThread(bool with_event_loop) {
    std::promise<void> ready;
    std::future<void> started = ready.get_future();
    thread_ = std::thread([this, with_event_loop, ready = std::move(ready)]() mutable {
      PinPartner();
      std::unique_ptr<Looper> looper = Looper::Create().value();
      std::shared_ptr<EventLoop> loop;
      if (with_event_loop) {
        loop = EventLoop::Create(looper->clock());
        loop->Bind(looper.get());
      }
      looper->Ref();
      remote_ = looper->remote();
      loop_ = loop;
      ready.set_value();
      looper->Run();
      if (loop) loop->Shutdown();
      looper->Unref();
    });
    started.wait();
  }
  ~LooperThread() {
    remote_->Quit();  // counts even if Run() has not started yet
    thread_.join();
    loop_.reset();  // already shut down on its home thread
  }
  LooperThread(const LooperThread&) = delete;
  LooperThread& operator=(const LooperThread&) = delete;

  LooperRemote* remote() const { return remote_.get(); }
  EventLoop* loop() const { return loop_.get(); }

 private:
  std::thread thread_;
  std::shared_ptr<LooperRemote> remote_;
  std::shared_ptr<EventLoop> loop_;
};

// One round trip: the benchmark thread posts to the sleeping Looper (ordered
// lane, through LooperRemote::Post) and sleeps in epoll_wait until the entry
// signals back. Compare with BM_EventfdPingPongFloor.
void BM_CrossThreadRoundTrip(benchmark::State& state) {
  ScopedHomePin pin;
  EventfdWait back;
  uint64_t ran = 0;  // home thread only until the join in ~LooperThread
  uint64_t lost = 0;
  {
    LooperThread home(/*with_event_loop=*/false);
    LooperRemote* remote = home.remote();
    int64_t cpu0 = ProcessCpuNs();
    for (auto _ : state) {
      // 16 bytes of capture: stored inline in the Task, no allocation.
      if (!remote->Post([&back, &ran] {
            ++ran;
            back.Signal();
          })) {
        Die("LooperRemote::Post");
      }
      lost += back.Wait() - 1;
    }
    ReportCpuPerRoundTrip(state, ProcessCpuNs() - cpu0);
  }
  if (lost != 0 || ran != static_cast<uint64_t>(state.iterations())) {
    state.SkipWithError("round trips lost their strict alternation");
  }
}
BENCHMARK(BM_CrossThreadRoundTrip)->UseRealTime();

// The same through the internal lane: EventLoop::PostInternal to an EventLoop
// bound to the sleeping Looper.
void BM_CrossThreadRoundTripInternal(benchmark::State& state) {
  ScopedHomePin pin;
  EventfdWait back;
  uint64_t ran = 0;  // home thread only until the join in ~LooperThread
  uint64_t lost = 0;
  {
    LooperThread home(/*with_event_loop=*/true);
    EventLoop* loop = home.loop();
    int64_t cpu0 = ProcessCpuNs();
    for (auto _ : state) {
      if (!loop->PostInternal([&back, &ran] {
            ++ran;
            back.Signal();
          })) {
        Die("EventLoop::PostInternal");
      }
      lost += back.Wait() - 1;
    }
    ReportCpuPerRoundTrip(state, ProcessCpuNs() - cpu0);
  }
  if (lost != 0 || ran != static_cast<uint64_t>(state.iterations())) {
    state.SkipWithError("round trips lost their strict alternation");
  }
}
BENCHMARK(BM_CrossThreadRoundTripInternal)->UseRealTime();

// ---- 1M pending entries ----------------------------------------------------------------------

constexpr std::size_t kPending = 1'000'000;
// Operations per timed step of the timer benchmarks (the pending count
// swings between 1M and 1M + this).
constexpr std::size_t kTimerBatch = 4000;
// Ids per CancelMany() call: the runtime's clearTimeout() buffer
// (Timers::kCancelCapacity).
constexpr std::size_t kCancelRun = 1024;
// Deadlines are uniform over this span (from an hour ahead), so none fires.
constexpr int64_t kDeadlineSpanNs = 1000LL * 1'000'000'000;

// splitmix64: fast, seeded, reproducible.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n).
  uint64_t Below(uint64_t n) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(Next()) * n) >> 64);
  }

 private:
  uint64_t state_;
};

// The stores the timer benchmarks drive: a bare TimerQueue, and a Looper's
// ordered lane (Looper::Schedule/Cancel add the shared sequence counter and
// the Looper's bookkeeping).
struct TimerQueueStore {
  using Id = TimerQueue::Id;
  TimerQueue queue;
  uint64_t sequence = 1;

  TimePoint Now() const { return hostloop::base::TickClock::Default()->Now(); }
  Id Schedule(TimePoint due, Task task) { return queue.Add(due, sequence++, std::move(task)); }
  bool Cancel(Id id) { return queue.Cancel(id); }
  std::size_t CancelMany(const Id* ids, std::size_t count) { return queue.CancelMany(ids, count); }
  std::size_t size() const { return queue.size(); }
  // What the loop does after each task: look at the earliest deadline
  // (which reclaims cancelled nodes, rebuilding the heap when they are twice
  // the live ones).
  void LookAtTop() {
    if (!queue.empty()) benchmark::DoNotOptimize(queue.TopDue());
  }
};

struct LooperStore {
  using Id = Looper::TimerId;
  // Home thread: the thread that runs the benchmarks.
  std::unique_ptr<Looper> looper = Looper::Create().value();

  TimePoint Now() const { return looper->Now(); }
  Id Schedule(TimePoint due, Task task) { return looper->Schedule(due, std::move(task)); }
  bool Cancel(Id id) { return looper->Cancel(id); }
  std::size_t CancelMany(const Id* ids, std::size_t count) { return looper->CancelMany(ids, count); }
  std::size_t size() const { return 0; }  // not exposed; checked through Cancel's results
  void LookAtTop() { benchmark::DoNotOptimize(looper->NextTimeout()); }
};

// kPending entries at random deadlines, kept at that count by every batch.
// Built once per store type and shared by its schedule and cancel benchmarks
// (building 1M entries takes longer than one benchmark run).
template <typename Store>
class PendingTimers {
 public:
  using Id = typename Store::Id;

  PendingTimers() : rng_(0x5eed'1000'0000ULL) {
    base_ = store_.Now() + std::chrono::hours(1);
    ids_.reserve(kPending + kTimerBatch);
    for (std::size_t i = 0; i < kPending; ++i) ids_.push_back(store_.Schedule(RandomDue(), MakeTask()));
  }

  // The entries' task: one pointer of capture, like a JS timer's handle.
  Task MakeTask() {
    uint64_t* fired = &fired_;
    return [fired] { ++*fired; };
  }
  TimePoint RandomDue() {
    return base_ + Duration(static_cast<int64_t>(rng_.Below(kDeadlineSpanNs)));
  }

  // Times kTimerBatch schedules at random deadlines, then (untimed) cancels
  // them again, newest first, to get back to the same kPending entries, and
  // looks at the top as the loop would after that task.
  // (Cancelling random old entries instead costs ~8x the timed part, all of
  // it wall time of the run; the schedule itself sees the same heap.)
  double TimedScheduleBatch() {
    for (std::size_t k = 0; k < kTimerBatch; ++k) dues_[k] = RandomDue();
    double t0 = ThreadCpuSeconds();
    for (std::size_t k = 0; k < kTimerBatch; ++k) added_[k] = store_.Schedule(dues_[k], MakeTask());
    double t1 = ThreadCpuSeconds();
    benchmark::DoNotOptimize(added_);
    for (std::size_t k = kTimerBatch; k-- > 0;) {
      if (!store_.Cancel(added_[k])) Die("schedule batch: a new entry could not be cancelled");
    }
    store_.LookAtTop();
    return t1 - t0;
  }

  // Schedules kTimerBatch entries at random deadlines (untimed), then times
  // the cancel of kTimerBatch distinct random pending entries, back to
  // kPending: one Cancel() call each, or (`many`) CancelMany() calls of
  // kCancelRun ids, as the runtime flushes a task's clearTimeout()s, and
  // the look at the top that follows in the loop.
  double TimedCancelBatch(bool many) {
    for (std::size_t k = 0; k < kTimerBatch; ++k) ids_.push_back(store_.Schedule(RandomDue(), MakeTask()));
    // Move kTimerBatch random distinct entries to the end of ids_.
    const std::size_t n = ids_.size();
    for (std::size_t k = 0; k < kTimerBatch; ++k) {
      std::size_t j = rng_.Below(n - k);
      std::swap(ids_[j], ids_[n - 1 - k]);
      victims_[k] = ids_[n - 1 - k];
    }
    ids_.resize(n - kTimerBatch);
    std::size_t cancelled = 0;
    double t0 = ThreadCpuSeconds();
    if (many) {
      for (std::size_t k = 0; k < kTimerBatch; k += kCancelRun) {
        cancelled += store_.CancelMany(victims_ + k, std::min(kCancelRun, kTimerBatch - k));
      }
    } else {
      for (std::size_t k = 0; k < kTimerBatch; ++k) cancelled += store_.Cancel(victims_[k]);
    }
    // The loop looks at the top after the task whose cancels these were:
    // the heap's rebuild, when they made cancelled nodes twice the live
    // ones, is part of their cost.
    store_.LookAtTop();
    double t1 = ThreadCpuSeconds();
    if (cancelled != kTimerBatch) Die("cancel batch: a pending entry could not be cancelled");
    return t1 - t0;
  }

  bool Consistent() const {
    return ids_.size() == kPending && fired_ == 0 &&
           (store_.size() == 0 || store_.size() == kPending);
  }

 private:
  Store store_;
  Rng rng_;
  TimePoint base_;
  uint64_t fired_ = 0;
  std::vector<Id> ids_;
  TimePoint dues_[kTimerBatch];
  Id added_[kTimerBatch];
  Id victims_[kTimerBatch];
};

// Fixtures that outlive one benchmark run. The Looper one owns the main
// thread's Looper, so benchmarks that create their own Looper on this thread
// release it first.
std::unique_ptr<PendingTimers<TimerQueueStore>> g_queue_timers;
std::unique_ptr<PendingTimers<LooperStore>> g_looper_timers;

void ReleaseLooperTimers() { g_looper_timers.reset(); }

PendingTimers<TimerQueueStore>& Timers(TimerQueueStore*) {
  if (!g_queue_timers) g_queue_timers = std::make_unique<PendingTimers<TimerQueueStore>>();
  return *g_queue_timers;
}
PendingTimers<LooperStore>& Timers(LooperStore*) {
  if (!g_looper_timers) g_looper_timers = std::make_unique<PendingTimers<LooperStore>>();
  return *g_looper_timers;
}

template <typename Store>
void TimerScheduleWith1MPending(benchmark::State& state) {
  PendingTimers<Store>& timers = Timers(static_cast<Store*>(nullptr));
  while (state.KeepRunningBatch(kTimerBatch)) state.SetIterationTime(timers.TimedScheduleBatch());
  if (!timers.Consistent()) state.SkipWithError("pending set drifted from 1M");
}

template <typename Store>
void TimerCancelWith1MPending(benchmark::State& state, bool many) {
  PendingTimers<Store>& timers = Timers(static_cast<Store*>(nullptr));
  while (state.KeepRunningBatch(kTimerBatch)) state.SetIterationTime(timers.TimedCancelBatch(many));
  if (!timers.Consistent()) state.SkipWithError("pending set drifted from 1M");
}

void BM_TimerScheduleWith1MPending(benchmark::State& state) {
  TimerScheduleWith1MPending<TimerQueueStore>(state);
}
void BM_TimerCancelWith1MPending(benchmark::State& state) {
  TimerCancelWith1MPending<TimerQueueStore>(state, false);
}
void BM_TimerCancelManyWith1MPending(benchmark::State& state) {
  TimerCancelWith1MPending<TimerQueueStore>(state, true);
}
void BM_LooperScheduleWith1MPending(benchmark::State& state) {
  TimerScheduleWith1MPending<LooperStore>(state);
}
void BM_LooperCancelWith1MPending(benchmark::State& state) {
  TimerCancelWith1MPending<LooperStore>(state, false);
}
void BM_LooperCancelManyWith1MPending(benchmark::State& state) {
  TimerCancelWith1MPending<LooperStore>(state, true);
}

// ---- Same-thread lanes -----------------------------------------------------------------------

// Entries per step of BM_SameThreadPostAndRun: a burst below the ordered
// lane's per-pass budget (kOrderedBudget, 1024), so one RunUntilIdle() is one
// pass.
constexpr std::size_t kPostBatch = 1000;

// Looper::Post x kPostBatch on the home thread, then RunUntilIdle() runs them.
// An iteration is one entry: the time is per post+run. Report CPU time
// (Google Benchmark's per-thread CPU clock; its real time is there too).
void BM_SameThreadPostAndRun(benchmark::State& state) {
  ReleaseLooperTimers();
  std::unique_ptr<Looper> looper = Looper::Create().value();
  uint64_t ran = 0;
  while (state.KeepRunningBatch(kPostBatch)) {
    for (std::size_t i = 0; i < kPostBatch; ++i) looper->Post([&ran] { ++ran; });
    looper->RunUntilIdle();
  }
  benchmark::DoNotOptimize(ran);
  if (ran != static_cast<uint64_t>(state.iterations())) state.SkipWithError("entries did not all run");
}
BENCHMARK(BM_SameThreadPostAndRun);  // CPU time, as the timed sections above

// A Looper with an EventLoop bound to it: the lanes a runtime uses. (The
// 1M-timers fixture's Looper goes first: one Looper per thread.)
struct BoundLoop {
  BoundLoop() { loop->Bind(looper.get()); }
  bool released = (ReleaseLooperTimers(), true);
  std::unique_ptr<Looper> looper = Looper::Create().value();
  std::shared_ptr<EventLoop> loop = EventLoop::Create(looper->clock());
};

// Entries per step of BM_OrderedChain.
constexpr std::size_t kChainBatch = 10'000;

// A chain of self-reposting ordered-lane entries through an EventLoop bound
// to a Looper (a JS macrotask chain without V8: one entry in flight, so one
// loop pass per entry, L4). Looper::Run() until the chain ends; time per
// entry. The loop's floor under the MessageChannel and postTask rows.
void BM_OrderedChain(benchmark::State& state) {
  BoundLoop bound;
  std::size_t left = 0;
  uint64_t ran = 0;
  std::function<void()> step = [&] {
    ++ran;
    if (--left > 0 && !bound.loop->PostOrdered(step)) Die("EventLoop::PostOrdered");
  };
  while (state.KeepRunningBatch(kChainBatch)) {
    left = kChainBatch;
    if (!bound.loop->PostOrdered(step)) Die("EventLoop::PostOrdered");
    bound.looper->Run();
  }
  benchmark::DoNotOptimize(ran);
  if (ran != static_cast<uint64_t>(state.iterations()))
    state.SkipWithError("entries did not all run");
  bound.loop->Shutdown();
}
BENCHMARK(BM_OrderedChain);  // CPU time, as BM_SameThreadPostAndRun

// Entries per step of BM_InternalLaneDrain: several passes' worth
// (kInternalBudget is 1024 per pass).
constexpr std::size_t kDrainBatch = 10'000;

// An EventLoop bound to a Looper, filled with kDrainBatch PostInternal entries
// (untimed), drained by RunUntilIdle() (timed). Time per entry, and the
// entries_per_s counter.
void BM_InternalLaneDrain(benchmark::State& state) {
  BoundLoop bound;
  Looper* looper = bound.looper.get();
  EventLoop* loop = bound.loop.get();
  uint64_t ran = 0;
  while (state.KeepRunningBatch(kDrainBatch)) {
    for (std::size_t i = 0; i < kDrainBatch; ++i) {
      if (!loop->PostInternal([&ran] { ++ran; })) Die("EventLoop::PostInternal");
    }
    double t0 = ThreadCpuSeconds();
    looper->RunUntilIdle();
    state.SetIterationTime(ThreadCpuSeconds() - t0);
  }
  benchmark::DoNotOptimize(ran);
  if (ran != static_cast<uint64_t>(state.iterations())) state.SkipWithError("entries did not all run");
  // A rate over the manual (drain-only) time.
  state.counters["entries_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  loop->Shutdown();
}
BENCHMARK(BM_InternalLaneDrain)->UseManualTime();

// Registered after the benchmarks that create their own Looper, so the 1M
// Looper fixture is built once and kept to the end (in the default order).
BENCHMARK(BM_TimerScheduleWith1MPending)->UseManualTime();
BENCHMARK(BM_TimerCancelWith1MPending)->UseManualTime();
BENCHMARK(BM_TimerCancelManyWith1MPending)->UseManualTime();
BENCHMARK(BM_LooperScheduleWith1MPending)->UseManualTime();
BENCHMARK(BM_LooperCancelWith1MPending)->UseManualTime();
BENCHMARK(BM_LooperCancelManyWith1MPending)->UseManualTime();

}  // namespace

int main(int argc, char** argv) {
  // Our own flag, removed before Google Benchmark sees the arguments; and our
  // default --benchmark_min_time (0.2 s instead of 0.5 s per run) unless one
  // is given. Every benchmark still does 800+ timed batches or 40,000+ round
  // trips per run. The manual-time ones also spend 0.2-1.7x their timed time
  // untimed, and the same-thread ones stop on CPU time, which a busy machine
  // stretches: at 0.5 s, 5 repetitions of everything took 56 s on the dev VM
  // at load average 5.
  constexpr std::string_view kCpusFlag = "--loop_bench_cpus=";
  constexpr std::string_view kMinTimeFlag = "--benchmark_min_time";
  std::string_view cpus = "same";
  bool min_time_given = std::getenv("BENCHMARK_MIN_TIME") != nullptr;
  std::vector<char*> args{argv[0]};
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg.substr(0, kCpusFlag.size()) == kCpusFlag) {
      cpus = arg.substr(kCpusFlag.size());
      continue;
    }
    if (arg.substr(0, kMinTimeFlag.size()) == kMinTimeFlag) min_time_given = true;
    args.push_back(argv[i]);
  }
  static char default_min_time[] = "--benchmark_min_time=0.2";
  if (!min_time_given) args.insert(args.begin() + 1, default_min_time);
  args.push_back(nullptr);
  argc = static_cast<int>(args.size()) - 1;
  argv = args.data();
  std::string description;
  if (std::string error = ChoosePlacement(cpus, &description); !error.empty()) {
    std::fprintf(stderr, "loop_bench: %s\n", error.c_str());
    return 2;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext("loop_bench_cpus", description);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  // The Looper fixture must die on its home thread, before thread-local
  // teardown.
  g_looper_timers.reset();
  g_queue_timers.reset();
  return 0;
}
