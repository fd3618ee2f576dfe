// The internal JS files (src/runtime/js), embedded at build time. Each is
// the body of `function (host, internals, global) { ... }`, run once per
// realm at start-up in this order.
#pragma once

#include <cstddef>

namespace hostloop::runtime {

struct BuiltinSource {
  const char* name;
  const char* source;
  std::size_t length;
};

extern const BuiltinSource kBuiltinSources[];
extern const std::size_t kBuiltinSourceCount;

}  // namespace hostloop::runtime
