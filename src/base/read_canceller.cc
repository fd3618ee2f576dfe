#include "base/read_canceller.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>

namespace hostloop::base {

void ReadCanceller::Cancel() {
  MutexLock lock(mutex_);
  if (cancelled_) return;
  cancelled_ = true;
  // Never read back: the fd stays readable for every later poll().
  if (wake_fd_) {
    const uint64_t one = 1;
    while (::write(wake_fd_.Get(), &one, sizeof one) < 0 && errno == EINTR) {
    }
  }
}

Result<int> ReadCanceller::WakeFd() {
  MutexLock lock(mutex_);
  // Checked under the lock that Cancel() writes under: a Cancel() after
  // this returns finds the fd and makes it readable.
  if (cancelled_) return Error::FromErrno("read", ECANCELED);
  if (!wake_fd_) {
    wake_fd_.Reset(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
    if (!wake_fd_) return Error::FromErrno("eventfd");
  }
  return wake_fd_.Get();
}

}  // namespace hostloop::base
