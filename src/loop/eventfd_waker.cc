#include "loop/eventfd_waker.h"

#include <sys/eventfd.h>
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
  uint64_t one = 1;
  ssize_t n;
  do {
    n = ::write(fd_.Get(), &one, sizeof one);
  } while (n < 0 && errno == EINTR);
  // EAGAIN means the counter is saturated: the fd is readable, which is all
  // a wakeup needs.
  PCHECK(n == sizeof one || errno == EAGAIN);
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
