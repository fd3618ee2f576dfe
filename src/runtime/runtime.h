// Runtime: one JavaScript realm on one thread: an isolate, its context, its
// EventLoop and module loader. The main program and every worker each have
// one. Home thread only, except where noted.
//
// The turn (CONTRACTS "The model"): the loop picks one entry, the entry calls
// into V8, V8 returns, and the Runtime's entry hook performs the microtask
// checkpoint (L5): PerformMicrotaskCheckpoint, then the unhandled-rejection
// report (J5, LESSONS 10), then a flush of buffered console output.
#pragma once

#include <v8.h>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "base/read_canceller.h"
#include "base/result.h"
#include "base/thread_annotations.h"
#include "loop/event_loop.h"
#include "loop/looper.h"
#include "v8/host_platform.h"

namespace hostloop::runtime {

class MessagePortHandle;
class ModuleLoader;
class PendingPromises;
class RejectionTracker;
struct SerializedMessage;
class Timers;

enum class UncaughtErrorPolicy { kThrow, kWarn };
enum class RejectionPolicy { kThrow, kWarn, kNone };

// What an ErrorEvent reports about an error: its message ("Uncaught
// Error: boom") and where it happened (columns 1-based, as HTML has them).
struct ErrorLocation {
  std::string message;
  std::string filename;
  int lineno = 0;
  int colno = 0;
  // The location V8's message about `exception` gives (empty when there is
  // none), with UncaughtMessageText for its message.
  static ErrorLocation Of(v8::Local<v8::Context> context, v8::Local<v8::Value> exception,
                          v8::Local<v8::Message> message);
};

// The message of an error report (ErrorEvent.message, a worker's report to
// its parent) for an uncaught `exception` about which V8 made `message`:
// V8's text ("Uncaught TypeError: boom"), but "Uncaught NAME: MESSAGE" for a
// DOMException, read without running script. (V8 reads an error's name and
// message only from data properties; a DOMException's are accessors on its
// prototype, so V8 said just "Uncaught ".) Empty if there is no message.
v8::Local<v8::String> UncaughtMessageText(v8::Local<v8::Context> context,
                                          v8::Local<v8::Value> exception,
                                          v8::Local<v8::Message> message);

// What embeds a runtime, when it is not the plain CLI: a worker thread.
// Called on the runtime's home thread.
class RuntimeDelegate {
 public:
  virtual ~RuntimeDelegate() = default;
  // The main script finished evaluating, top-level await included (`ok`),
  // or failed to load or threw (`!ok`).
  virtual void OnMainSettled(bool ok) {}
  // An uncaught error, unhandled rejection or load failure that nobody
  // canceled, with where it happened. Returning true takes it over (a
  // worker forwards it to its parent); false lets the runtime print it and
  // apply its policy.
  virtual bool OnUnhandledError(v8::Local<v8::Value> error, const ErrorLocation& location) {
    return false;
  }
  // stdout (or stderr) was closed by its reader while this runtime wrote to
  // it; the runtime has stopped. A worker stops its parent too, and so on up: the
  // program ends with exit code 1, as when the main runtime hits it.
  virtual void OnOutputClosed() {}
};

// State a higher layer keeps per runtime (the Worker registry, the open
// BroadcastChannels). Destroyed first when the runtime goes away, in slot
// order, while the isolate still works.
class RuntimeExtension {
 public:
  virtual ~RuntimeExtension() = default;
};
enum class ExtensionSlot { kWorkers, kBroadcastChannels, kFsWatches, kCount };

struct WorkerInfo {
  std::string name;
  std::string type;  // "module" or "classic"
  std::string url;   // the worker script's URL (self.location)
};

struct RuntimeOptions {
  UncaughtErrorPolicy uncaught_errors = UncaughtErrorPolicy::kThrow;
  RejectionPolicy unhandled_rejections = RejectionPolicy::kThrow;
  // Arguments after the script, as `hostloop.args`.
  std::vector<std::string> args;
  // Null for the main runtime; the loop a worker was created with.
  std::shared_ptr<loop::EventLoop> event_loop;
  RuntimeDelegate* delegate = nullptr;
  // Set for a worker's runtime.
  std::optional<WorkerInfo> worker;
  // Where console output goes instead of fds 1 and 2: a worker of an
  // interactive REPL hands it to its parent, which writes it around the
  // prompt (see Runtime::forwards_output). Called on the runtime's thread;
  // false when the text could not be taken (the runtime then writes it).
  std::function<bool(std::string_view text, int stream)> forward_output;
  // Ends the runtime's waits for a module or script file that is a pipe or
  // a FIFO (see Runtime::read_canceller); null: the runtime makes its own.
  // A worker's is made by its parent, whose terminate() cancels it.
  std::shared_ptr<base::ReadCanceller> read_canceller;
};

// Process exit codes (README "Exit codes").
inline constexpr int kExitOk = 0;
inline constexpr int kExitUncaught = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitUnsettledTopLevelAwait = 13;

class Runtime;

// How other threads stop a runtime, even while its JavaScript is stuck in an
// endless loop (the embedding API's RuntimeStopper). Shared by the runtime
// and the handles given out: a request after the runtime is gone does
// nothing.
// Stops the JS running on `isolate`'s thread, called from any other thread
// (RemoteStop, a worker's terminate()).
void TerminateFromAnotherThread(v8::Isolate* isolate);

class RemoteStop : public std::enable_shared_from_this<RemoteStop> {
 public:
  // Thread-safe. The running JavaScript is terminated, no entry of the
  // runtime runs afterwards, and its home thread stops it with `exit_code`
  // (Runtime::Stop) in its next entry. Only the first request counts.
  void Request(int exit_code);
  bool requested() const { return requested_.load(std::memory_order_relaxed); }

 private:
  friend class Runtime;
  std::atomic<bool> requested_{false};
  base::Mutex mutex_;
  bool posted_ GUARDED_BY(mutex_) = false;  // the stop entry is on its way
  // Set while the runtime lives (cleared by ~Runtime on the home thread
  // before its isolate goes).
  Runtime* runtime_ GUARDED_BY(mutex_) = nullptr;
  v8::Isolate* isolate_ GUARDED_BY(mutex_) = nullptr;
  std::shared_ptr<loop::LooperRemote> looper_ GUARDED_BY(mutex_);
  // A stopped runtime's reads of pipes end too (they wait outside JS).
  std::shared_ptr<base::ReadCanceller> reads_ GUARDED_BY(mutex_);
};

class Runtime {
 public:
  // Creates the runtime on the calling thread, whose Looper is `looper`.
  static base::Result<std::unique_ptr<Runtime>> Create(loop::Looper* looper,
                                                       RuntimeOptions options);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  static Runtime* From(v8::Isolate* isolate) {
    return static_cast<Runtime*>(isolate->GetData(kIsolateSlot));
  }

  // Loads the module graph at `url` (or `source`, for -e) and starts
  // evaluating it. Load and syntax errors are reported and set the exit code;
  // returns false then.
  bool StartMainModule(const std::string& url, const std::optional<std::string>& source);
  // The same for a classic script (a classic worker).
  bool StartClassicScript(const std::string& url);
  // Runs the classic script at `url` now (importScripts); an exception is
  // left pending for the caller: a script that cannot be read is a
  // "NetworkError" DOMException (HTML fetch failure).
  // `is_main`: the worker's own script (main_state() follows it), not an
  // importScripts().
  bool RunClassicScript(const std::string& url, bool is_main = false);
  // The URL of the main script: what relative worker URLs resolve against.
  const std::string& base_url() const { return base_url_; }

  enum class MainState { kNotStarted, kPending, kFulfilled, kRejected };
  MainState main_state() const { return main_state_; }
  // After the loop went idle: exit code 13 with a message if the main
  // module's top-level await can never settle.
  void CheckUnsettledMain();
  // Its message alone (stderr), exit code untouched.
  void PrintUnsettledMain();
  // The entry hook's checkpoint (L5) for JS run outside the loop's entries
  // (a script or module started, an embedder's call into V8), unless JS is
  // on the stack (it was called from JS): then the caller's task ends with it.
  void CheckpointUnlessNested();
  // Whether `url` is in this runtime's module map.
  bool KnowsModule(const std::string& url) const;

  // J4. Reports an exception that escaped a callback: a cancelable `error`
  // event on the global first; if not canceled, the report on stderr and the
  // --uncaught-errors policy.
  void ReportException(v8::Local<v8::Value> exception, v8::Local<v8::Message> message);
  // The same with the ErrorEvent's message and location given (an error
  // that happened elsewhere, e.g. in a worker).
  void ReportExceptionAt(v8::Local<v8::Value> exception, const std::string& message,
                         const std::string& filename, int lineno, int colno);
  // Prints "Uncaught ..." and applies --uncaught-errors (exit 1 and stop,
  // or go on). `location`, when given, is where the error happened (a
  // thrown non-Error value carries none of its own, and `message` may only
  // say where it was caught); else `message`'s.
  // `apply_policy` false prints only, to this runtime's stderr (an error
  // listener's error; ApplyUncaughtPolicy comes later).
  void PrintUncaught(v8::Local<v8::Value> exception, v8::Local<v8::Message> message,
                     const ErrorLocation* location = nullptr, bool apply_policy = true);
  void ApplyUncaughtPolicy();
  // Writes "<prefix> <error with stack>" to stderr; a SyntaxError from
  // compiling a file also gets the file, the line and a caret (not in the
  // REPL: `source_context` false).
  void PrintError(v8::Local<v8::Value> exception, v8::Local<v8::Message> message,
                  const char* prefix, bool source_context = true,
                  const ErrorLocation* location = nullptr);
  // Held on the stack around a Looper::Run of this runtime's thread: keeps
  // one V8 handle block allocated, so the handle scope of every task starts
  // inside it. Without an enclosing scope each task's first handle allocates
  // a block and its scope's end frees it (~75 instructions a task).
  class RunScope {
   public:
    explicit RunScope(Runtime* runtime) : scope_(runtime->isolate()) {
      runtime->context();  // a first handle, which allocates the block
    }

   private:
    v8::HandleScope scope_;
  };

  // Calls `function` as a loop entry's callback; an exception is reported.
  v8::MaybeLocal<v8::Value> CallAndReport(v8::Local<v8::Function> function,
                                          v8::Local<v8::Value> receiver, int argc,
                                          v8::Local<v8::Value> argv[]);

  // Home thread. stdout or stderr was closed by its reader where this
  // runtime, or another one (a worker of this one), wrote: this runtime
  // stops with exit code 1 and tells its own delegate.
  void StopForClosedOutput();

  // An error or rejection nobody canceled: the delegate's, or printed with
  // `prefix` and the policy applied (`stop` = the policy says exit 1).
  void HandleUnhandled(v8::Local<v8::Value> exception, v8::Local<v8::Message> message,
                       const char* prefix, bool stop, const ErrorLocation* location = nullptr);

  RuntimeExtension* extension(ExtensionSlot slot) const {
    return extensions_[static_cast<int>(slot)].get();
  }
  void set_extension(ExtensionSlot slot, std::unique_ptr<RuntimeExtension> extension) {
    extensions_[static_cast<int>(slot)] = std::move(extension);
  }

  // Stops the runtime with `code`: nothing more runs; the loop returns.
  // Inside a StopDeferral, the stop waits until the outermost one ends.
  void Stop(int exit_code);
  // Also true from the moment another thread asked (RemoteStop) until the
  // stop itself runs on the home thread: no entry of the runtime runs then.
  bool stopping() const { return stopping_ || remote_stop_->requested(); }

  // The realm has resizable ArrayBuffers (a V8 flag), which V8 10.2's API
  // does not know about (view_contents.h).
  bool resizable_buffers() const { return resizable_buffers_; }

  // How other threads stop this runtime (see RemoteStop).
  const std::shared_ptr<RemoteStop>& remote_stop() const { return remote_stop_; }

  // While one lives, Stop() is remembered, not done: what is being reported
  // (an unhandled rejection whose listener threw) is printed first.
  class StopDeferral {
   public:
    explicit StopDeferral(Runtime* runtime) : runtime_(runtime) { ++runtime_->stop_deferrals_; }
    ~StopDeferral();
    StopDeferral(const StopDeferral&) = delete;
    StopDeferral& operator=(const StopDeferral&) = delete;

   private:
    Runtime* const runtime_;
  };
  int exit_code() const { return exit_code_; }
  // The code the program exits with when it ends by itself (JS
  // `hostloop.exitCode = n`, as node's process.exitCode); an uncaught error
  // (1) or an unsettled top-level await (13) still overrides it. Ignored once
  // the runtime stops.
  void set_exit_code(int exit_code) {
    if (!stopping_) exit_code_ = exit_code;
  }

  // Makes this runtime's isolate the thread's current (entered) one, as
  // the Runtime on this thread that ran last may have left another's.
  // Every entry of this runtime, its checkpoint and every embedding-API
  // call does this first. Home thread.
  void MakeCurrent();
  // Whether this runtime is running its microtasks now (a native function
  // may be one of them, with no JS frame under it).
  bool in_checkpoint() const { return in_checkpoint_; }
  // Whether the runtime is calling an embedder's native code with no JS
  // frame under it (a native module's factory, an async job's completion):
  // the runtime must not be destroyed from there (hostloop::Runtime's
  // destructor checks).
  bool in_native_callback() const { return native_callbacks_ > 0; }
  class NativeCallbackScope {
   public:
    explicit NativeCallbackScope(Runtime* runtime) : runtime_(runtime) {
      ++runtime_->native_callbacks_;
    }
    ~NativeCallbackScope() { --runtime_->native_callbacks_; }
    NativeCallbackScope(const NativeCallbackScope&) = delete;
    NativeCallbackScope& operator=(const NativeCallbackScope&) = delete;

   private:
    Runtime* const runtime_;
  };

  // For a call into this runtime from outside its own entries (the
  // embedding API): makes it current for the scope, then makes current
  // again the isolate that was (a native function of runtime A that asks
  // runtime B something must find A's isolate current when it returns, or
  // A's next error is built in B's heap, or in a disposed one). Nothing is
  // restored when that isolate was disposed meanwhile. Home thread.
  class CallScope {
   public:
    explicit CallScope(Runtime& runtime);
    // Makes none current; only restores, when it ends, the isolate current
    // now (around Runtime::Create, which makes the new isolate current: a
    // native function of another runtime may be the one creating it).
    CallScope();
    ~CallScope();
    CallScope(const CallScope&) = delete;
    CallScope& operator=(const CallScope&) = delete;

   private:
    v8::Isolate* previous_;
  };

  // Attaches native reactions to `promise` (both get `data` as
  // info.Data()), as promise.then would but without looking up
  // Promise[Symbol.species], which a program may replace (internals
  // .whenSettled, js/bootstrap.js). False only when execution is being
  // terminated.
  bool WhenSettled(v8::Local<v8::Promise> promise, v8::FunctionCallback on_fulfilled,
                   v8::FunctionCallback on_rejected, v8::Local<v8::Value> data);
  // The same with reactions made once for many promises; they get `token`
  // (undefined if empty) as their second argument, after the value or
  // reason.
  bool WhenSettled(v8::Local<v8::Promise> promise, v8::Local<v8::Function> on_fulfilled,
                   v8::Local<v8::Function> on_rejected,
                   v8::Local<v8::Value> token = v8::Local<v8::Value>());

  // Writes console output (stream 1 stdout, 2 stderr) at once.
  void Print(std::string_view text, int stream);
  // Called around every write of console output (`before` true, then
  // false); the interactive REPL uses it to move its prompt out of the way.
  void set_output_hook(base::UniqueFunction<void(bool before)> hook) {
    output_hook_ = std::move(hook);
  }
  // Whether this runtime's output is written around a prompt (an output
  // hook, here or in a runtime it forwards to): its workers then forward
  // their output to it instead of writing over the prompt line.
  bool forwards_output() const {
    return static_cast<bool>(output_hook_) || static_cast<bool>(options_.forward_output);
  }

  v8::Isolate* isolate() const { return isolate_; }
  v8::Local<v8::Context> context() const { return context_.Get(isolate_); }
  loop::EventLoop& event_loop() const { return *event_loop_; }
  loop::Looper* looper() const { return looper_; }
  ModuleLoader& modules() const { return *modules_; }
  Timers& timers() const { return *timers_; }
  RejectionTracker& rejections() const { return *rejections_; }
  PendingPromises& pending_promises() const { return *pending_promises_; }
  const RuntimeOptions& options() const { return options_; }
  // What the runtime's module and script reads wait with: cancelled, a read
  // of a FIFO that nobody writes ends (ECANCELED) instead of holding the
  // thread. Home thread only; the canceller itself is thread-safe.
  base::ReadCanceller* read_canceller() const { return options_.read_canceller.get(); }
  // The object shared by the internal JS files (runtime/js/*.js).
  v8::Local<v8::Object> internals() const { return internals_.Get(isolate_); }
  // internals[name] if it is a function. `name` must be a string literal
  // (the lookup is cached by its address).
  v8::MaybeLocal<v8::Function> InternalFunction(const char* name);
  // MessagePort's template, and whether the runtime itself is constructing
  // a port (script may not: "Illegal constructor").
  v8::Global<v8::FunctionTemplate>& message_port_template() { return message_port_template_; }
  // Instances are API objects, which V8's serializer hands to the host
  // (serializer.cc): JS-implemented [Serializable] interfaces (DOMException).
  v8::Global<v8::ObjectTemplate>& serializable_template() { return serializable_template_; }
  v8::Global<v8::Object>& dom_exception_prototype() { return dom_exception_prototype_; }
  bool& constructing_port() { return constructing_port_; }
  // Live MessagePort handles: deleted at shutdown, since V8 runs no weak
  // callbacks when an isolate is disposed.
  std::unordered_set<MessagePortHandle*>& port_handles() { return port_handles_; }
  // Milliseconds since the runtime started (performance.now()).
  double NowMs() const;
  // NowMs() for a stamp the running entry takes before any script (a
  // delivered message's event time): Looper::EntryStartNow().
  double EntryStartMs() const;
  // The loop clock's reading when the runtime started: the origin of
  // NowMs() and of scheduler.js's deadlines.
  loop::TimePoint start_time() const { return start_time_; }
  // Home thread. An empty message for Serialize: a spent one handed back
  // by a port this runtime posted to (PortCore::Enqueue), or a new one.
  std::unique_ptr<SerializedMessage> TakeSpareMessage();
  void KeepSpareMessage(std::unique_ptr<SerializedMessage> message);
  double time_origin_ms() const { return time_origin_ms_; }
  // Home thread. Where a chained MessagePort delivery puts its event's
  // target, data and ports instead of dispatching it (the script that is
  // already running dispatches it: message_port.cc, NextPortMessage), or
  // null. Its handles belong to the HandleScope of whoever set it.
  struct PortCapture {
    v8::Local<v8::Object> target;
    v8::Local<v8::Value> data;
    v8::Local<v8::Value> ports;
  };
  PortCapture* port_capture() const { return port_capture_; }
  void set_port_capture(PortCapture* capture) { port_capture_ = capture; }
  // Home thread. The port whose captured delivery found no other pending
  // for it, until its event is dispatched (MessagePortHandle::
  // OnDeliveriesPending), or null.
  MessagePortHandle* undispatched_port() const { return undispatched_port_; }
  void set_undispatched_port(MessagePortHandle* port) { undispatched_port_ = port; }

  // A microtask checkpoint (with what the end of a task also does: the
  // rejections, the cleared timers) between two listeners of an event the
  // host dispatches with no script on the stack (HTML "clean up after
  // running a callback"; js/events.js cleanUpAfterCallback).
  void CheckpointBetweenCallbacks() { Checkpoint(); }

 private:
  // V8's message listener: an exception V8 caught itself and reports (a
  // FinalizationRegistry cleanup callback that threw) goes through
  // ReportException like any other uncaught error (J4).
  static void OnUncaughtMessage(v8::Local<v8::Message> message, v8::Local<v8::Value> error);
  static constexpr uint32_t kIsolateSlot = 0;

  Runtime(loop::Looper* looper, RuntimeOptions options);
  base::Result<void> Initialize();
  // The entry hook (L5).
  void Checkpoint();
  void MainSettled(bool ok);
  // Calls internals.reportException(exception, location); if that throws,
  // prints `exception` as uncaught with `message` instead (empty: one made
  // from `exception`).
  void CallReporter(v8::Local<v8::Function> report, v8::Local<v8::Value> exception,
                    v8::Local<v8::Value> location, v8::Local<v8::Message> message);

  loop::Looper* const looper_;
  RuntimeOptions options_;
  std::shared_ptr<loop::EventLoop> event_loop_;
  // Expires with the runtime (for work posted to its Looper that outlives it).
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
  std::shared_ptr<v8::ArrayBuffer::Allocator> allocator_;
  v8::Isolate* isolate_ = nullptr;
  v8host::RuntimeKey runtime_key_ = 0;
  v8::Global<v8::Context> context_;
  v8::Global<v8::Object> internals_;
  // By the name's address; a dozen entries, scanned (a hash lookup cost a
  // division per call).
  std::vector<std::pair<const char*, v8::Global<v8::Function>>> internal_functions_;
  v8::Global<v8::FunctionTemplate> message_port_template_;
  v8::Global<v8::ObjectTemplate> serializable_template_;
  v8::Global<v8::Object> dom_exception_prototype_;
  bool constructing_port_ = false;
  std::unordered_set<MessagePortHandle*> port_handles_;
  std::vector<std::unique_ptr<SerializedMessage>> spare_messages_;
  PortCapture* port_capture_ = nullptr;
  MessagePortHandle* undispatched_port_ = nullptr;
  std::unique_ptr<ModuleLoader> modules_;
  std::unique_ptr<Timers> timers_;
  std::unique_ptr<RejectionTracker> rejections_;
  std::unique_ptr<PendingPromises> pending_promises_;

  std::unique_ptr<RuntimeExtension> extensions_[static_cast<int>(ExtensionSlot::kCount)];
  std::string base_url_;
  MainState main_state_ = MainState::kNotStarted;
  // Started modules whose top-level evaluation has not settled (the CLI and
  // a worker start one; an embedder may start several).
  struct UnsettledModule {
    uint32_t id;
    std::string url;
  };
  std::vector<UnsettledModule> unsettled_modules_;
  uint32_t last_module_id_ = 0;
  bool stopping_ = false;
  std::shared_ptr<RemoteStop> remote_stop_ = std::make_shared<RemoteStop>();
  int stop_deferrals_ = 0;
  std::optional<int> deferred_exit_code_;  // a Stop() that waits
  bool in_checkpoint_ = false;
  bool resizable_buffers_ = false;
  int native_callbacks_ = 0;
  int exit_code_ = kExitOk;
  base::UniqueFunction<void(bool before)> output_hook_;
  loop::TimePoint start_time_;
  double time_origin_ms_ = 0;
};

}  // namespace hostloop::runtime
