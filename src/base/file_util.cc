#include "base/file_util.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

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

}  // namespace

Result<std::string> ReadFileToString(const std::string& path) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) return Error::FromErrno(path);
  struct stat info;
  if (::fstat(fd.Get(), &info) < 0) return Error::FromErrno(path);
  if (S_ISDIR(info.st_mode)) return Error::FromErrno(path, EISDIR);
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
