// hostloop's embedding API: run JavaScript inside your own C++ program, on
// hostloop's loop or on yours. See docs/EMBEDDING.md for a walk-through and
// examples/embed/ for a complete program.
//
//   hostloop::Engine::Initialize(argv[0]);              // once per process
//   auto looper = hostloop::Looper::Create().value();   // this thread's loop
//   auto runtime = hostloop::Runtime::Create(looper.get());
//   runtime->RunModule("app.mjs");                      // starts it
//   looper->Run();                                      // or Step() from your loop
//   runtime.reset();                                    // clean shutdown
//   hostloop::Engine::Shutdown();
//
// Threads: a Looper and the Runtimes on it belong to the thread that created
// them (their home thread). Looper::Post/PostDelayed, LooperRemote and
// Looper::Wake/Quit are thread-safe; everything else is home thread only.
//
// Ordering (CONTRACTS L3): the application's own posts (Looper::Post) share
// the ordered lane with JS timers and macrotasks, keyed by (due time,
// sequence): a message posted between two setTimeout(0) calls runs between
// their callbacks.
#pragma once

#include <v8.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "loop/looper.h"

namespace hostloop {

using loop::Liveness;
using loop::Looper;
using loop::LooperRemote;

// Process-wide V8 set-up.
class Engine {
 public:
  // Once, before any Runtime. `v8_flags` are V8 command-line flags
  // ("--expose-gc"). Returns false with `error` set when V8 rejects a flag,
  // and when called again (V8 cannot be initialized twice, nor again after
  // Shutdown()).
  static bool Initialize(const char* argv0, const std::vector<std::string>& v8_flags = {},
                         std::string* error = nullptr);
  // After the last Runtime is gone.
  static void Shutdown();
};

// A native module: builds the exports of `hostloop:NAME` for a runtime
// (own enumerable properties become named exports, a numeric key by its
// string; the default export is the object, or its own `default` property
// if it has one). A factory that returns an empty handle fails the import
// with an Error (or with the exception it threw). Call before creating the
// runtimes that import it.
using ModuleFactory = std::function<v8::Local<v8::Object>(v8::Local<v8::Context> context)>;
void DefineModule(const std::string& name, ModuleFactory factory);

// A simpler native module for programs that do not want V8's API: each
// function receives its JS arguments as a JSON array text and returns JSON
// text (an empty string means `undefined`). Called on the runtime's thread.
// A C++ exception it throws becomes a JS Error at the call.
using JsonFunction = std::function<std::string(const std::string& arguments_json)>;
void DefineJsonModule(const std::string& name, std::map<std::string, JsonFunction> functions);

namespace runtime {
class RemoteStop;
}  // namespace runtime

// Stops a Runtime from any thread: the watchdog for a script that never
// gives its thread back (`while (true) {}` blocks the home thread, so
// nothing on it can stop the runtime). Copyable and thread-safe; it may
// outlive its runtime (Stop() then does nothing).
class RuntimeStopper {
 public:
  // The running JavaScript is terminated, none of the runtime's work runs
  // afterwards, and at the Looper's next entry the runtime stops as after
  // an uncaught error: stopped() is true, exit_code() is `exit_code`, and
  // Run() returns. Only the first call counts. Destroy the runtime on its
  // home thread as usual afterwards.
  void Stop(int exit_code = 1) const;

 private:
  friend class Runtime;
  explicit RuntimeStopper(std::shared_ptr<runtime::RemoteStop> stop) : stop_(std::move(stop)) {}
  std::shared_ptr<runtime::RemoteStop> stop_;
};

// All of a Runtime's methods are for its home thread, the thread that
// created it (a call from another thread is a CHECK failure). Other threads
// reach it through its Looper's remote(), and stop it through stopper().
class Runtime {
 public:
  struct Options {
    // `hostloop.args` in JS.
    std::vector<std::string> args;
    // Uncaught errors and unhandled rejections: report and keep running
    // (true), or report and stop the runtime with exit code 1 (false).
    bool keep_running_after_errors = false;
  };

  // Creates a runtime on the calling thread, whose Looper is `looper`.
  // Returns null with `error` set on failure (also before
  // Engine::Initialize).
  static std::unique_ptr<Runtime> Create(Looper* looper, const Options& options,
                                         std::string* error = nullptr);
  static std::unique_ptr<Runtime> Create(Looper* looper) { return Create(looper, Options{}); }
  // Shuts down cleanly: queued work of both lanes is dropped, workers are
  // terminated and joined, the isolate is disposed. The Looper stays usable.
  // Home thread, outside the runtime's JavaScript (from a native function it
  // is a CHECK failure: post the destruction to the Looper instead).
  ~Runtime();

  // Loads the module at `path` and starts evaluating it; the loop runs the
  // rest. False (with the error printed) when it cannot be loaded.
  bool RunModule(const std::string& path);
  // The same for module source text; relative imports resolve against the
  // current directory. `name` is the module's file name there (its URL);
  // each call without one gets a fresh name ("[embed]", "[embed-2]", ...).
  // False, with an error printed, for a name this runtime already used: a
  // module's URL names one module for good.
  bool EvaluateModule(const std::string& code, const std::string& name = "");

  // 0, 1 (uncaught error), 13 (top-level await that can never settle: only
  // once the loop went idle; the message is printed once). Asking earlier
  // changes nothing.
  int exit_code();
  // Whether the runtime stopped itself (an uncaught error with the default
  // policy); its entries no longer run.
  bool stopped() const;
  // A handle other threads can stop this runtime with (see RuntimeStopper).
  RuntimeStopper stopper() const;

  // For embedders who speak V8 (home thread; the context is entered).
  v8::Isolate* isolate() const;
  v8::Local<v8::Context> context() const;
  // The microtask checkpoint every loop entry ends with (L5): promise
  // reactions, then unhandled-rejection tracking. The isolate's microtask
  // policy is explicit, so after calling into JS through isolate() and
  // context() outside the loop's own callbacks (from the application's code
  // between Run()s or Step()s), call this, or the reactions wait for the
  // next entry (or are lost with the runtime). Not from inside JS.
  void PerformMicrotaskCheckpoint();

 private:
  struct Impl;
  explicit Runtime(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace hostloop
