// FsWatches: the hostloop:fs reads and writes of files that are not regular
// ones (FIFOs, pipes, terminals, character devices), done on the runtime's
// own loop as the fd becomes ready, never on the thread pool. There, a
// read, a write (or a blocking open of a FIFO) waited in the kernel until
// the other end acted, perhaps never: two such calls held both pool threads,
// and every fs call of the process, every worker's too, waited behind them.
//
// The pool job still opens the file, non-blocking so that the open itself
// never waits, and looks at what it is: a regular file (or a block device)
// is read or written there as before; anything else comes back to the home
// thread with its fd (FsResult::on_loop), and FsWatches takes it over:
//  - a read waits until epoll finds the fd readable (a FIFO opened while no
//    writer has it open reads as at its end at once; epoll waits for a
//    writer, as a blocking open would), then reads what is there each time,
//    up to the end (a read of 0 bytes) or readFile's limit;
//  - a write writes what the fd takes at once and the rest as epoll finds
//    it writable again, then closes it (a close error fails it);
//  - a write to a FIFO that nobody reads yet (its non-blocking open fails
//    with ENXIO) opens it again on loop timers, 1 ms after the last try at
//    first, then twice as long each time up to 200 ms, until a reader comes;
//  - an fd epoll cannot watch is always ready (/dev/null, /dev/zero,
//    /dev/urandom): it is read or written in internal-lane entries. An
//    endless one (/dev/zero) fills readFile's buffer to its limit and fails
//    with ERR_FS_FILE_TOO_LARGE, as it did on the pool.
// Each step moves at most kStepBytes, so neither an endless device nor a
// fast writer holds the loop. A pending operation keeps the runtime alive
// (a ref on its EventLoop, J3; its fd watch and timers are weak, so a
// stopped runtime's loop does not wait for them). Its AbortSignal cancels
// it at once: the promise rejects with the signal's reason and the fd is
// closed (what a pool job, stuck in the kernel, could not do).
//
// Home thread only. One per runtime (a RuntimeExtension), made on first use;
// its destruction, as the runtime goes away, closes what is still pending.
#pragma once

#include <v8.h>

#include <cstdint>
#include <memory>
#include <unordered_map>

#include "base/time.h"
#include "base/unique_function.h"
#include "loop/looper.h"
#include "runtime/fs_result.h"
#include "runtime/native_module.h"
#include "runtime/runtime.h"

namespace hostloop::runtime {

class FsWatches final : public RuntimeExtension {
 public:
  // Settles an operation's promise with its outcome (`result`: the bytes
  // read, or the error). Called on the home thread, in a
  // Runtime::NativeCallbackScope.
  using Settle = base::UniqueFunction<void(
      Runtime* runtime, v8::Local<v8::Promise::Resolver> resolver, FsResult& result)>;

  // The most one step reads or writes before the loop goes on.
  static constexpr std::size_t kStepBytes = 1024 * 1024;

  // The runtime's, made on first use.
  static FsWatches& Of(Runtime* runtime);
  explicit FsWatches(Runtime* runtime);
  // Closes every fd still pending; their promises stay pending (the runtime
  // is going away).
  ~FsWatches() override;
  FsWatches(const FsWatches&) = delete;
  FsWatches& operator=(const FsWatches&) = delete;

  // Reads `file.stream` (on_loop, non-blocking) to its end, at most `limit`
  // bytes (more: too_large), then settles `pending` with `settle`. Its
  // signal, if any, must not be aborted yet.
  void Read(const PendingPromise& pending, FsResult file, std::size_t limit, Settle settle);
  // Writes `file.payload` to `file.stream` (non-blocking), first opening
  // `file.path` with `file.open_flags` when there is no fd yet, then closes
  // it and settles `pending` with `settle`.
  void Write(const PendingPromise& pending, FsResult file, Settle settle);

  std::size_t pending_count() const { return operations_.size(); }

 private:
  using OperationId = uint64_t;
  struct Operation;
  // What a step came to.
  enum class Progress {
    kDone,  // finished (op.result says how)
    kMore,  // the fd is still ready: the step's bytes ran out
    kWait,  // the fd is not ready (or the FIFO has no reader to open it yet)
  };

  void Start(const PendingPromise& pending, std::unique_ptr<Operation> operation);
  // One step of the operation: reads or writes (opening first if needed)
  // what is ready, then finishes or waits for more.
  void Step(OperationId id);
  Progress Open(Operation& operation);
  Progress ReadSome(Operation& operation);
  Progress WriteSome(Operation& operation);
  // Waits until the operation can go on: until epoll finds its fd ready
  // (at once if it still is, after kMore); for what epoll cannot watch, an
  // internal-lane entry, at once after kMore, else after a backoff (a FIFO
  // that nobody reads yet, an fd that said EAGAIN).
  void Wait(Operation& operation, Progress progress);
  void PostStep(Operation& operation, base::Duration delay);
  // Unwatches and closes the fd. Returns close()'s errno (0: none).
  int CloseFile(Operation& operation);
  // Takes the operation out (fd closed, ref dropped); null if unknown.
  std::unique_ptr<Operation> Remove(OperationId id);
  // Settles the promise with the operation's result.
  void Finish(OperationId id);
  // The signal's abort algorithm: rejects with its reason, closes the fd.
  static void OnAbort(const v8::FunctionCallbackInfo<v8::Value>& info);
  void Abort(OperationId id);
  // internals.addAbortAlgorithm / removeAbortAlgorithm (`name`, a literal).
  void CallAbortAlgorithms(const char* name, Operation& operation);

  Runtime* const runtime_;
  std::unordered_map<OperationId, std::unique_ptr<Operation>> operations_;
  OperationId next_id_ = 1;
  // Expires with this object (for its posted steps).
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace hostloop::runtime
