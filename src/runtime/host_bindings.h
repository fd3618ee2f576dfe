// The `host` object handed to the internal JS files (runtime/js/*.js): the
// native functions behind console, inspect, timers, messaging and error
// reporting. Every native function that can exist in a startup snapshot is
// listed in a HostFunction table, and ExternalReferences() names them all
// for V8's serializer.
#pragma once

#include <v8-fast-api-calls.h>
#include <v8.h>

#include <cstdint>
#include <span>

namespace hostloop::runtime {

class Runtime;

struct HostFunction {
  const char* name;
  v8::FunctionCallback callback;
  // A V8 fast API call for the same function, or null: what optimized code
  // calls directly, without the ~40 ns of an API callback (see
  // docs/ARCHITECTURE.md, "Fast API calls"). It must not allocate on the JS
  // heap, call into JS or throw; it sets options.fallback to have
  // `callback` run instead (which may do all of that), after doing nothing
  // observable.
  const v8::CFunction* fast = nullptr;
};

// Adds native functions from a higher layer (workers) to every host object.
// Call before V8 is initialized (and in the snapshot tool).
void RegisterHostExtension(std::span<const HostFunction> functions);

// Adds `functions` to `target` as methods.
void AddHostFunctions(v8::Local<v8::Context> context, v8::Local<v8::Object> target,
                      std::span<const HostFunction> functions);

// The host object: every native function, and the facts fixed at build time.
// Needs no Runtime, so a startup snapshot can hold it.
v8::Local<v8::Object> CreateHostObject(v8::Local<v8::Context> context,
                                       v8::Local<v8::FunctionTemplate> port_template);

// The per-run facts: program arguments, the time origin.
void SetRunHostProperties(Runtime* runtime, v8::Local<v8::Object> host);

// Null-terminated list of every native callback the snapshot may reference.
const intptr_t* ExternalReferences();

}  // namespace hostloop::runtime
