// Native modules: C++ code importable from JS as `hostloop:NAME`, and the
// machinery for their asynchronous work.
//
// Async work (RunAsync): the job runs on the process's fixed-size
// ThreadPool, never on the JS thread and never on a thread of its own; its
// completion comes back through the runtime's internal lane (a host
// completion, CONTRACTS "Internal lane") and settles a promise there, with a
// microtask checkpoint after it. While the job is pending the runtime is kept
// alive (J3). If the runtime shut down meanwhile, the completion is refused
// by its EventLoop and destroyed on the pool thread: it holds no V8 handle
// (the promise, and the AbortSignal of an operation that watches one, stay
// in the runtime's pending table), so that is safe.
//
// Work that waits for an fd is no pool job: it would hold a pool thread for
// as long as the fd makes it wait. It is watched on the runtime's own loop
// (Looper::WatchFd), as hostloop:fs does with FIFOs and pipes
// (fs_watches.h). Sources with no fd and no thread of their own use
// Looper::AddConsumer plus Looper::Wake instead (see looper.h); that is the
// last resort.
#pragma once

#include <v8.h>

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/unique_function.h"
#include "loop/thread_pool.h"

namespace hostloop::runtime {

class Runtime;

// Builds the exports of hostloop:NAME (own enumerable properties become the
// named exports) the first time a runtime imports it.
using NativeModuleFactory =
    std::function<v8::MaybeLocal<v8::Object>(Runtime* runtime, v8::Local<v8::Context> context)>;

// Process-wide; call before runtimes start (hostloop:fs registers itself).
void RegisterNativeModule(const std::string& name, NativeModuleFactory factory);
const std::unordered_map<std::string, NativeModuleFactory>& NativeModules();

// A pending promise taken from the table to be settled: its resolver, and
// the AbortSignal its operation watches (empty when it has none).
struct PendingPromise {
  v8::Local<v8::Promise::Resolver> resolver;
  v8::Local<v8::Value> signal;
};

// A flag a pool job polls to stop early (RunAsyncAbortable): set on the home
// thread when the operation's AbortSignal aborts.
using CancelFlag = std::shared_ptr<std::atomic<bool>>;

// Promises of pending async work, per runtime (home thread only), with the
// AbortSignal of each operation: the V8 handles of a job stay here, on the
// home thread, while the job travels to the pool and back.
class PendingPromises {
 public:
  explicit PendingPromises(Runtime* runtime) : runtime_(runtime) {}
  // Sets the cancel flag of every job still pending: the runtime is going
  // away (a terminated worker), nobody will see their results, and they
  // should not hold the pool's threads any longer.
  ~PendingPromises();
  PendingPromises(const PendingPromises&) = delete;
  PendingPromises& operator=(const PendingPromises&) = delete;
  // `signal` empty or undefined: none. A `cancel` flag (work that can stop
  // part-way) is set when the runtime ends first, and with a signal, the
  // signal's abort rejects the promise at once with its reason, removes the
  // entry (the job's completion then finds nothing: Take() gives an empty
  // resolver) and sets the flag for the job to stop early.
  uint64_t Add(v8::Local<v8::Promise::Resolver> resolver,
               v8::Local<v8::Value> signal = v8::Local<v8::Value>(), CancelFlag cancel = nullptr);
  // Removes and returns the entry (an empty resolver if unknown).
  PendingPromise Take(uint64_t id);
  std::size_t size() const { return size_; }

 private:
  // Entries by slot (reused through a free list, so a pending promise
  // costs no allocation once the table has grown); an id is the slot and
  // its generation at Add, so a stale id finds nothing.
  struct Entry {
    v8::Global<v8::Promise::Resolver> resolver;
    v8::Global<v8::Value> signal;
    // With a CancelFlag and a signal: the abort algorithm added to the signal.
    v8::Global<v8::Function> abort_algorithm;
    CancelFlag cancel;
    uint32_t generation = 0;
  };
  Entry* Find(uint64_t id);
  void Release(uint64_t id, Entry& entry);
  // internals.addAbortAlgorithm / removeAbortAlgorithm(signal, algorithm).
  void CallAbortAlgorithms(const char* name, v8::Local<v8::Value> signal,
                           v8::Local<v8::Function> algorithm);
  static void OnAbort(const v8::FunctionCallbackInfo<v8::Value>& info);
  void Abort(uint64_t id);

  Runtime* const runtime_;
  std::vector<Entry> entries_;
  std::vector<uint32_t> free_;
  std::size_t size_ = 0;
};

// `signal`'s abort reason (undefined while it is not aborted, or when
// `signal` is undefined) in `*reason`; false, with the exception in
// `*reason`, when `signal` is not an AbortSignal. Home thread.
bool AbortReason(Runtime* runtime, v8::Local<v8::Value> signal, v8::Local<v8::Value>* reason);

// Runs `work()` (on the pool), which returns a Result, and then
// `complete(runtime, resolver, result)` on the home thread. `Result` must be
// safe to create on one thread and use on another (no V8 handles), and so
// must the two callables, which travel with the job (stored in it by value:
// a job is one allocation, whatever they capture). Returns the promise.
template <typename Result, typename Work, typename Complete>
v8::Local<v8::Promise> RunAsync(Runtime* runtime, Work&& work, Complete&& complete);

// The same for an operation that watches an AbortSignal (`signal`, or
// undefined): the signal waits beside the promise on the home thread (no
// V8 handle travels with the job), and `complete(runtime, pending, result)`
// gets both back (a PendingPromise). What an abort does is complete's to
// decide.
template <typename Result, typename Work, typename Complete>
v8::Local<v8::Promise> RunAsyncWithSignal(Runtime* runtime, v8::Local<v8::Value> signal,
                                          Work&& work, Complete&& complete);

// RunAsyncWithSignal for work that can stop part-way: `work(cancelled)`
// gets a `const std::atomic<bool>&` to poll, set when the signal aborts
// (which rejects the promise at once with the signal's reason; `complete`
// is then not called, and what the job still returns is dropped) or when the
// runtime ends first. A readFile of a large file stops between chunks
// instead of reading to the end first.
template <typename Result, typename Work, typename Complete>
v8::Local<v8::Promise> RunAsyncAbortable(Runtime* runtime, v8::Local<v8::Value> signal, Work&& work,
                                         Complete&& complete);

}  // namespace hostloop::runtime

#include "runtime/native_module_inl.h"
