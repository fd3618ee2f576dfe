// Runs loop entries so that no C++ exception ever unwinds through the loop
// or through V8 frames above it (a nested drain runs inside V8 calls, L9): an
// escaping exception is a bug, reported and fatal at the entry boundary.
#pragma once

namespace hostloop::loop {

[[noreturn]] void ReportEscapedException(const char* where) noexcept;

template <typename F>
void RunGuarded(F&& entry, const char* where) noexcept {
  try {
    entry();
  } catch (...) {
    ReportEscapedException(where);
  }
}

}  // namespace hostloop::loop
