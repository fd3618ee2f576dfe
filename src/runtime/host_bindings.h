// The `host` object handed to the internal JS files (runtime/js/*.js).
#pragma once

#include <v8.h>

namespace hostloop::runtime {

class Runtime;

v8::Local<v8::Object> CreateHostObject(Runtime* runtime);

}  // namespace hostloop::runtime
