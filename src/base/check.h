// Fatal assertions. CHECK guards conditions that must hold in every build
// (syscalls that cannot fail, API misuse that would corrupt state); DCHECK is
// for internal invariants and compiles away in release builds.
#pragma once

#include <cstdio>
#include <cstdlib>

namespace hostloop::base {

[[noreturn]] void CheckFailed(const char* file, int line, const char* condition,
                              const char* message, bool with_errno);

}  // namespace hostloop::base

#define CHECK(condition)                                                             \
  do {                                                                               \
    if (__builtin_expect(!(condition), 0))                                           \
      ::hostloop::base::CheckFailed(__FILE__, __LINE__, #condition, nullptr, false); \
  } while (0)

#define CHECK_MSG(condition, message)                                                \
  do {                                                                               \
    if (__builtin_expect(!(condition), 0))                                           \
      ::hostloop::base::CheckFailed(__FILE__, __LINE__, #condition, message, false); \
  } while (0)

// For syscalls: reports errno with the failed condition.
#define PCHECK(condition)                                                           \
  do {                                                                              \
    if (__builtin_expect(!(condition), 0))                                          \
      ::hostloop::base::CheckFailed(__FILE__, __LINE__, #condition, nullptr, true); \
  } while (0)

#ifdef NDEBUG
#define DCHECK(condition) \
  do {                    \
    if (false) {          \
      (void)(condition);  \
    }                     \
  } while (0)
#else
#define DCHECK(condition) CHECK(condition)
#endif
