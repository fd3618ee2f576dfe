#include "loop/eventfd_waker.h"

#include <linux/futex.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>

#include "base/check.h"

namespace hostloop::loop {

base::Result<EventfdWaker> EventfdWaker::Create() {
  int fd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (fd < 0) return base::Error::FromErrno("eventfd");
  return EventfdWaker(base::UniqueFd(fd));
}

void EventfdWaker::Signal() {
  signal_count_.fetch_add(1, std::memory_order_relaxed);
  if (futex_sleep_.load(std::memory_order_relaxed)) {
    futex_word_.store(1, std::memory_order_release);
    ::syscall(SYS_futex, &futex_word_, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
    return;
  }
  uint64_t one = 1;
  ssize_t n;
  do {
    n = ::write(fd_.Get(), &one, sizeof one);
  } while (n < 0 && errno == EINTR);
  // EAGAIN means the counter is saturated: the fd is readable, which is all
  // a wakeup needs.
  PCHECK(n == sizeof one || errno == EAGAIN);
}

bool EventfdWaker::SleepOnFutex(std::optional<base::Duration> timeout) {
  if (futex_word_.exchange(0, std::memory_order_acquire) != 0) return true;
  timespec ts;
  if (timeout) {
    int64_t ns = timeout->count() > 0 ? timeout->count() : 0;
    ts.tv_sec = static_cast<time_t>(ns / 1'000'000'000);
    ts.tv_nsec = static_cast<long>(ns % 1'000'000'000);
  }
  // Sleeps only while the word is still 0: a Signal() between the exchange
  // above and this call makes it return at once (EAGAIN).
  long r = ::syscall(SYS_futex, &futex_word_, FUTEX_WAIT_PRIVATE, 0, timeout ? &ts : nullptr,
                     nullptr, 0);
  PCHECK(r == 0 || errno == EAGAIN || errno == ETIMEDOUT || errno == EINTR);
  return futex_word_.exchange(0, std::memory_order_acquire) != 0;
}

void EventfdWaker::Drain() {
  uint64_t value;
  ssize_t n;
  do {
    n = ::read(fd_.Get(), &value, sizeof value);
  } while (n < 0 && errno == EINTR);
  PCHECK(n == sizeof value || errno == EAGAIN);
}

}  // namespace hostloop::loop
