// EventfdWaker: how other threads wake a sleeping home thread.
//
// "Signal while asleep" instead of counting units (LESSONS 12): the home
// thread Arm()s the waker right before it re-checks its queues and blocks;
// the first Wake() after that writes the eventfd once, every later one is a
// no-op until the home thread Disarm()s it on waking. While the home thread is
// awake nobody writes at all, so a burst of cross-thread posts costs at most
// one syscall. Correctness (no lost wakeup, L8): a producer enqueues under the
// queue's mutex and then calls Wake(); the home thread Arm()s and then checks
// the queues under the same mutex, so either the check sees the entry or the
// producer sees the armed flag and writes.
//
// Where the home thread sleeps: in epoll_wait on the Looper's epoll set,
// which holds the eventfd, or, while the Looper watches no fd and runs
// itself (not stepped by a foreign loop), in a futex wait on a word of this
// waker. A futex round trip between two threads costs about half of an
// eventfd + epoll one (BM_FutexPingPong in bench/loop_bench.cc), and a
// script or a worker that opens no fd is the common case. The home thread
// chooses before each Arm(); Signal() reads the choice after taking the
// armed flag, so it signals where the home thread sleeps.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>

#include "base/result.h"
#include "base/time.h"
#include "base/unique_fd.h"

namespace hostloop::loop {

class EventfdWaker {
 public:
  static base::Result<EventfdWaker> Create();
  EventfdWaker(EventfdWaker&& other) noexcept
      : fd_(std::move(other.fd_)),
        armed_(other.armed_.load()),
        futex_sleep_(other.futex_sleep_.load()),
        futex_word_(other.futex_word_.load()) {}

  // Thread-safe. Signals (an eventfd write, or a futex wake when the home
  // thread sleeps on the futex) only if the home thread is armed.
  void Wake() {
    if (armed_.load(std::memory_order_seq_cst) && armed_.exchange(false)) Signal();
  }
  enum class Sleep : uint8_t { kEpoll, kFutex };
  // Home thread, before Arm(): where the coming sleep happens.
  void set_sleep(Sleep sleep) {
    futex_sleep_.store(sleep == Sleep::kFutex, std::memory_order_relaxed);
  }
  // Home thread: about to check the queues and block. (A release store:
  // whoever takes the flag also sees set_sleep().)
  void Arm() { armed_.store(true, std::memory_order_seq_cst); }
  // Home thread, armed for Sleep::kFutex: blocks until a Wake() signals or
  // `timeout` (nullopt: none) passes, or a signal handler interrupts.
  // Returns whether a Wake() signalled (and consumes it). A signal that
  // lands after a sleep ended by its timeout stays in the word and ends the
  // next futex sleep at once: one spare pass, never a lost wakeup.
  bool SleepOnFutex(std::optional<base::Duration> timeout);
  // Home thread: awake again; producers need not write.
  void Disarm() { armed_.store(false, std::memory_order_relaxed); }
  // Home thread: consumes a signal after the fd polled readable.
  void Drain();

  int fd() const { return fd_.Get(); }
  // Syscalls made by Wake() so far (for tests and --trace-loop).
  uint64_t signal_count() const { return signal_count_.load(std::memory_order_relaxed); }

 private:
  explicit EventfdWaker(base::UniqueFd fd) : fd_(std::move(fd)) {}
  void Signal();

  base::UniqueFd fd_;
  std::atomic<bool> armed_{false};
  std::atomic<bool> futex_sleep_{false};
  // 1 once signalled for a futex sleep, until the home thread consumes it.
  std::atomic<uint32_t> futex_word_{0};
  std::atomic<uint64_t> signal_count_{0};
};

}  // namespace hostloop::loop
