#include "base/file_util.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "base/read_canceller.h"
#include "base/unique_fd.h"

namespace hostloop::base {
namespace {

// Reads `fd` to its end; `expected` bytes are reserved up front.
Result<std::string> ReadAll(int fd, const std::string& what, std::size_t expected) {
  std::string contents;
  contents.reserve(expected);
  char buffer[65536];
  while (true) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Error::FromErrno(what);
    }
    if (n == 0) break;
    contents.append(buffer, static_cast<std::size_t>(n));
  }
  return contents;
}

// Reads non-blocking `fd` (a pipe, a FIFO, a terminal) to its end, waiting
// in poll() for data, for the end, or for `canceller` (then ECANCELED).
Result<std::string> ReadWhenReady(int fd, const std::string& what, ReadCanceller* canceller) {
  // An fd of -1 is skipped by poll().
  pollfd fds[2] = {{fd, POLLIN, 0}, {-1, POLLIN, 0}};
  if (canceller != nullptr) {
    Result<int> wake_fd = canceller->WakeFd();
    if (!wake_fd.ok()) return Error::FromErrno(what, wake_fd.error().code);
    fds[1].fd = wake_fd.value();
  }
  std::string contents;
  char buffer[65536];
  while (true) {
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return Error::FromErrno(what);
    }
    if (fds[1].revents != 0) return Error::FromErrno(what, ECANCELED);
    // Only once poll() saw data or a writer come and go: a FIFO opened
    // without waiting reads as ended (0) until its first writer opens it.
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return Error::FromErrno(what);
    }
    if (n == 0) return contents;
    contents.append(buffer, static_cast<std::size_t>(n));
  }
}

}  // namespace

Result<std::string> ReadFileToString(const std::string& path, ReadCanceller* canceller) {
  // Not waiting in open(), which for a FIFO lasts until a writer opens it,
  // beyond the reach of `canceller`: the waiting is done in poll().
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (!fd) return Error::FromErrno(path);
  struct stat info;
  if (::fstat(fd.Get(), &info) < 0) return Error::FromErrno(path);
  if (S_ISDIR(info.st_mode)) return Error::FromErrno(path, EISDIR);
  if (!S_ISREG(info.st_mode)) return ReadWhenReady(fd.Get(), path, canceller);
  // A regular file never waits; its reads stay plain blocking ones.
  if (::fcntl(fd.Get(), F_SETFL, 0) < 0) return Error::FromErrno(path);
  return ReadAll(fd.Get(), path, info.st_size > 0 ? static_cast<std::size_t>(info.st_size) : 0);
}

Result<std::string> ReadFdToString(int fd, const std::string& what) {
  return ReadAll(fd, what, 0);
}

Result<void> WriteStringToFile(const std::string& path, std::string_view contents) {
  UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  if (!fd) return Error::FromErrno(path);
  while (!contents.empty()) {
    ssize_t n = ::write(fd.Get(), contents.data(), contents.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return Error::FromErrno(path);
    }
    contents.remove_prefix(static_cast<std::size_t>(n));
  }
  if (::close(fd.Release()) < 0) return Error::FromErrno(path);
  return {};
}

}  // namespace hostloop::base
