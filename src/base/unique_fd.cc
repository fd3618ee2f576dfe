#include "base/unique_fd.h"

#include <unistd.h>

namespace hostloop::base {

void UniqueFd::Reset(int fd) {
  int old = std::exchange(fd_, fd);
  // close() must not be retried on EINTR on Linux: the fd is gone either way.
  if (old >= 0) ::close(old);
}

}  // namespace hostloop::base
