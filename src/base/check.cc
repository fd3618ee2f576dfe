#include "base/check.h"

#include <cerrno>
#include <cstring>

namespace hostloop::base {

void CheckFailed(const char* file, int line, const char* condition, const char* message,
                 bool with_errno) {
  int saved_errno = errno;
  std::fprintf(stderr, "hostloop: fatal: %s:%d: check failed: %s", file, line, condition);
  if (message != nullptr) std::fprintf(stderr, ": %s", message);
  if (with_errno) std::fprintf(stderr, ": %s", std::strerror(saved_errno));
  std::fputc('\n', stderr);
  std::fflush(stderr);
  std::abort();
}

}  // namespace hostloop::base
