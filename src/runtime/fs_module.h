// hostloop:fs, the built-in file module (fs_module.cc).
#pragma once

#include <v8.h>

namespace hostloop::runtime {

class Runtime;

v8::MaybeLocal<v8::Object> CreateFsModule(Runtime* runtime, v8::Local<v8::Context> context);

}  // namespace hostloop::runtime
