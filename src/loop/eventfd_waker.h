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
#pragma once

#include <atomic>

#include "base/result.h"
#include "base/unique_fd.h"

namespace hostloop::loop {

class EventfdWaker {
 public:
  static base::Result<EventfdWaker> Create();
  EventfdWaker(EventfdWaker&& other) noexcept
      : fd_(std::move(other.fd_)), armed_(other.armed_.load()) {}

  // Thread-safe. Writes the eventfd only if the home thread is armed.
  void Wake() {
    if (armed_.load(std::memory_order_seq_cst) && armed_.exchange(false)) Signal();
  }
  // Home thread: about to check the queues and block.
  void Arm() { armed_.store(true, std::memory_order_seq_cst); }
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
  std::atomic<uint64_t> signal_count_{0};
};

}  // namespace hostloop::loop
