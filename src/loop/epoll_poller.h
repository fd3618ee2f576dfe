// EpollPoller: the Linux kernel wait behind a Looper. Owns the epoll fd (the
// Looper's backend fd) and a timerfd that carries the next deadline while a
// foreign loop, not the Looper itself, does the blocking (L10).
#pragma once

#include <sys/epoll.h>

#include <cstdint>
#include <optional>
#include <span>

#include "base/result.h"
#include "base/time.h"
#include "base/unique_fd.h"

namespace hostloop::loop {

class EpollPoller {
 public:
  // Keys reserved for the poller's own fds in epoll_event.data.u64.
  static constexpr uint64_t kDeadlineKey = ~uint64_t{0};

  static base::Result<EpollPoller> Create();

  base::Result<void> Add(int fd, uint32_t events, uint64_t key);
  base::Result<void> Modify(int fd, uint32_t events, uint64_t key);
  // Ignores fds that were already closed (the kernel drops those itself).
  void Remove(int fd);

  // Blocks until an event or `timeout` passes (nullopt: no timeout; zero:
  // just look). Returns the number of events written to `out`; EINTR counts
  // as zero events.
  int Wait(std::optional<base::Duration> timeout, std::span<epoll_event> out);

  // Makes the backend fd readable at `deadline` (nullopt: never). Only
  // touches the kernel when the deadline changed. The deadline timer's event
  // comes back from Wait() with kDeadlineKey; pass it to ConsumeDeadline().
  void ArmDeadline(std::optional<base::TimePoint> deadline);
  void ConsumeDeadline();

  int fd() const { return epoll_fd_.Get(); }

 private:
  EpollPoller(base::UniqueFd epoll_fd, base::UniqueFd timer_fd)
      : epoll_fd_(std::move(epoll_fd)), timer_fd_(std::move(timer_fd)) {}

  base::UniqueFd epoll_fd_;
  base::UniqueFd timer_fd_;
  std::optional<base::TimePoint> armed_deadline_;
};

}  // namespace hostloop::loop
