// Atomics.waitAsync and WebAssembly.compile/instantiate, wrapped so that a
// pending call keeps its runtime alive (J3): V8 does not tell the platform
// about either (it cancels the delayed task behind a waitAsync timeout
// without a word, LESSONS 3; an async compile runs on V8's worker threads
// and ends with a foreground task the loop must still be running to get).
// A waitAsync that ends before its timeout also has the internal-lane entry
// of its timeout task cancelled (V8 leaves the aborted task queued until its
// deadline; v8/delayed_task_capture.h).
#pragma once

#include <v8.h>

namespace hostloop::runtime {

class Runtime;

// Replaces the builtins V8 made at context start with native functions
// that call them and hold a loop reference until their promise settles.
// The wrappers look like the builtins in every way a program can observe
// (toString, name, length, property attributes, not constructors, no frame
// of their own in a stack trace). Call once per run, after realmStarted;
// a builtin a V8 flag removed is skipped. False only when execution is
// being terminated.
bool WrapBuiltinsForLiveness(Runtime* runtime);

}  // namespace hostloop::runtime
