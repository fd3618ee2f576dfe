#include "loop/run_guarded.h"

#include <cstdio>
#include <cstdlib>
#include <exception>

namespace hostloop::loop {

void ReportEscapedException(const char* where) noexcept {
  const char* what = "unknown exception";
  try {
    throw;
  } catch (const std::exception& e) {
    what = e.what();
  } catch (...) {
  }
  std::fprintf(stderr, "hostloop: fatal: a C++ exception escaped %s: %s\n", where, what);
  std::fflush(stderr);
  std::abort();
}

}  // namespace hostloop::loop
