#include "loop/epoll_poller.h"

#include <sys/timerfd.h>
#include <unistd.h>

#include <cerrno>
#include <climits>

#include "base/check.h"

namespace hostloop::loop {

base::Result<EpollPoller> EpollPoller::Create() {
  base::UniqueFd epoll_fd(::epoll_create1(EPOLL_CLOEXEC));
  if (!epoll_fd) return base::Error::FromErrno("epoll_create1");
  base::UniqueFd timer_fd(::timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC));
  if (!timer_fd) return base::Error::FromErrno("timerfd_create");
  EpollPoller poller(std::move(epoll_fd), std::move(timer_fd));
  TRY(poller.Add(poller.timer_fd_.Get(), EPOLLIN, kDeadlineKey));
  return poller;
}

base::Result<void> EpollPoller::Add(int fd, uint32_t events, uint64_t key) {
  epoll_event event{};
  event.events = events;
  event.data.u64 = key;
  if (::epoll_ctl(epoll_fd_.Get(), EPOLL_CTL_ADD, fd, &event) < 0) {
    return base::Error::FromErrno("epoll_ctl(ADD)");
  }
  return {};
}

base::Result<void> EpollPoller::Modify(int fd, uint32_t events, uint64_t key) {
  epoll_event event{};
  event.events = events;
  event.data.u64 = key;
  if (::epoll_ctl(epoll_fd_.Get(), EPOLL_CTL_MOD, fd, &event) < 0) {
    return base::Error::FromErrno("epoll_ctl(MOD)");
  }
  return {};
}

void EpollPoller::Remove(int fd) {
  if (::epoll_ctl(epoll_fd_.Get(), EPOLL_CTL_DEL, fd, nullptr) < 0) {
    PCHECK(errno == ENOENT || errno == EBADF);
  }
}

int EpollPoller::Wait(std::optional<base::Duration> timeout, std::span<epoll_event> out) {
  int max_events = static_cast<int>(out.size());
  int n;
  if (!timeout) {
    n = ::epoll_wait(epoll_fd_.Get(), out.data(), max_events, -1);
  } else if (timeout->count() <= 0) {
    n = ::epoll_wait(epoll_fd_.Get(), out.data(), max_events, 0);
  } else {
    // epoll_pwait2 takes a timespec, so deadlines keep their ns precision
    // instead of being rounded to whole milliseconds.
    timespec ts;
    ts.tv_sec = static_cast<time_t>(timeout->count() / 1'000'000'000);
    ts.tv_nsec = static_cast<long>(timeout->count() % 1'000'000'000);
    n = ::epoll_pwait2(epoll_fd_.Get(), out.data(), max_events, &ts, nullptr);
    if (n < 0 && errno == ENOSYS) {
      int64_t ms = base::CeilMilliseconds(*timeout);
      n = ::epoll_wait(epoll_fd_.Get(), out.data(), max_events,
                       ms > INT_MAX ? INT_MAX : static_cast<int>(ms));
    }
  }
  if (n < 0) {
    PCHECK(errno == EINTR);
    return 0;
  }
  return n;
}

void EpollPoller::ArmDeadline(std::optional<base::TimePoint> deadline) {
  if (deadline == armed_deadline_) return;
  armed_deadline_ = deadline;
  itimerspec spec{};
  if (deadline) {
    int64_t ns = deadline->time_since_epoch().count();
    // An all-zero it_value disarms, so a deadline at the clock's origin is
    // nudged by 1 ns; it is in the past either way and fires at once.
    if (ns <= 0) ns = 1;
    spec.it_value.tv_sec = static_cast<time_t>(ns / 1'000'000'000);
    spec.it_value.tv_nsec = static_cast<long>(ns % 1'000'000'000);
  }
  PCHECK(::timerfd_settime(timer_fd_.Get(), TFD_TIMER_ABSTIME, &spec, nullptr) == 0);
}

void EpollPoller::ConsumeDeadline() {
  uint64_t expirations;
  ssize_t n = ::read(timer_fd_.Get(), &expirations, sizeof expirations);
  PCHECK(n == sizeof expirations || errno == EAGAIN);
  // The deadline fired; the next ArmDeadline must reach the kernel even when
  // it names the same time.
  armed_deadline_.reset();
}

}  // namespace hostloop::loop
