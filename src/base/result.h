// One error model for fallible calls: Result<T> holds a value or an Error,
// and TRY(expr) unwraps a Result or returns its Error from the caller.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "base/check.h"

namespace hostloop::base {

struct Error {
  // errno value when the failure came from the OS, else 0.
  int code = 0;
  std::string message;

  // "what: strerror(errno)" with the current errno.
  static Error FromErrno(std::string_view what);
  static Error FromErrno(std::string_view what, int error_number);
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : storage_(std::in_place_index<0>, std::move(value)) {}  // NOLINT
  Result(Error error) : storage_(std::in_place_index<1>, std::move(error)) {}  // NOLINT

  bool ok() const { return storage_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & {
    CHECK(ok());
    return std::get<0>(storage_);
  }
  T&& value() && {
    CHECK(ok());
    return std::get<0>(std::move(storage_));
  }
  const Error& error() const& {
    CHECK(!ok());
    return std::get<1>(storage_);
  }
  Error&& error() && {
    CHECK(!ok());
    return std::get<1>(std::move(storage_));
  }

 private:
  std::variant<T, Error> storage_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  void value() const { CHECK(ok_); }
  const Error& error() const& {
    CHECK(!ok_);
    return error_;
  }
  Error&& error() && {
    CHECK(!ok_);
    return std::move(error_);
  }

 private:
  Error error_;
  bool ok_ = true;
};

}  // namespace hostloop::base

// Evaluates a Result-returning expression; on error returns the Error from the
// enclosing function (which must return a Result), else yields the value.
#define TRY(expr)                                            \
  ({                                                         \
    auto&& hl_try_result = (expr);                           \
    if (!hl_try_result.ok()) {                               \
      return std::move(hl_try_result).error();               \
    }                                                        \
    std::move(hl_try_result).value();                        \
  })
