// The realm every runtime starts from: the global object with hostloop's
// web APIs, made by running the internal JS files (runtime/js/*.js) against
// the host object. Built either at start-up, or once at build time into a V8
// startup snapshot that every runtime (main and workers) deserializes: the
// snapshot turns ~10 ms of compiling and running the internal scripts into a
// copy.
#pragma once

#include <v8.h>

#include <string>

#include "base/result.h"

namespace hostloop::runtime {

// Where the realm's pieces are kept in a snapshot.
inline constexpr std::size_t kSnapshotPortTemplateIndex = 0;  // isolate data
inline constexpr std::size_t kSnapshotHostIndex = 0;          // context data
inline constexpr std::size_t kSnapshotInternalsIndex = 1;     // context data

// Runs the internal scripts in `context` (entered). Returns the host and
// internals objects through the out-parameters.
base::Result<void> BuildRealm(v8::Local<v8::Context> context,
                              v8::Local<v8::FunctionTemplate> port_template,
                              v8::Local<v8::Object>* host, v8::Local<v8::Object>* internals);

// Builds a startup snapshot holding the realm. V8 must be initialized with
// the flags the runtimes will use.
base::Result<std::string> CreateSnapshotBlob();

// The snapshot linked into this binary (the hostloop command has one; test
// binaries do not), or null.
const v8::StartupData* EmbeddedSnapshot();

}  // namespace hostloop::runtime
