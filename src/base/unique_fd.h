// RAII owner of a file descriptor: every fd hostloop opens lives in one.
#pragma once

#include <utility>

namespace hostloop::base {

class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.Release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) Reset(other.Release());
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { Reset(); }

  int Get() const { return fd_; }
  bool IsValid() const { return fd_ >= 0; }
  explicit operator bool() const { return IsValid(); }

  // Gives up ownership without closing.
  int Release() { return std::exchange(fd_, -1); }
  // Closes the current fd (if any) and takes ownership of `fd`.
  void Reset(int fd = -1);

 private:
  int fd_ = -1;
};

}  // namespace hostloop::base
