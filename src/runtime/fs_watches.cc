#include "runtime/fs_watches.h"

#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <string>
#include <utility>

namespace hostloop::runtime {

namespace {

// The backoff of what epoll cannot wait for (a FIFO to open, an fd it
// cannot watch that said EAGAIN).
constexpr base::Duration kFirstRetryDelay = std::chrono::milliseconds(1);
constexpr base::Duration kMaxRetryDelay = std::chrono::milliseconds(200);

}  // namespace

struct FsWatches::Operation {
  enum class Kind { kRead, kWrite };
  Operation(Kind kind, FsResult file, Settle settle)
      : kind(kind), result(std::move(file)), settle(std::move(settle)) {}

  OperationId id = 0;
  const Kind kind;
  // The file (path, stream, payload), and in the end what the promise
  // settles with.
  FsResult result;
  std::size_t limit = 0;            // a read's
  std::size_t written = 0;          // a write's bytes written so far
  loop::Looper::WatchId watch = 0;  // 0: not watched
  // epoll cannot watch the fd (EPERM): it is always ready, and its steps
  // run in internal-lane entries.
  bool always_ready = false;
  base::Duration retry_delay{};  // the last backoff (zero after progress)
  Settle settle;
  v8::Global<v8::Promise::Resolver> resolver;
  v8::Global<v8::Value> signal;
  v8::Global<v8::Function> abort_algorithm;
};

FsWatches& FsWatches::Of(Runtime* runtime) {
  auto* watches = static_cast<FsWatches*>(runtime->extension(ExtensionSlot::kFsWatches));
  if (watches == nullptr) {
    auto made = std::make_unique<FsWatches>(runtime);
    watches = made.get();
    runtime->set_extension(ExtensionSlot::kFsWatches, std::move(made));
  }
  return *watches;
}

FsWatches::FsWatches(Runtime* runtime) : runtime_(runtime) {}

FsWatches::~FsWatches() {
  for (auto& [id, operation] : operations_) {
    CloseFile(*operation);
    runtime_->event_loop().Unref();
  }
}

void FsWatches::Read(const PendingPromise& pending, FsResult file, std::size_t limit,
                     Settle settle) {
  auto operation =
      std::make_unique<Operation>(Operation::Kind::kRead, std::move(file), std::move(settle));
  operation->limit = limit;
  Start(pending, std::move(operation));
}

void FsWatches::Write(const PendingPromise& pending, FsResult file, Settle settle) {
  Start(pending,
        std::make_unique<Operation>(Operation::Kind::kWrite, std::move(file), std::move(settle)));
}

void FsWatches::Start(const PendingPromise& pending, std::unique_ptr<Operation> operation) {
  v8::Isolate* isolate = runtime_->isolate();
  const OperationId id = next_id_++;
  Operation& op = *operation;
  op.id = id;
  op.resolver.Reset(isolate, pending.resolver);
  // Pending file work keeps the runtime alive until it is done (J3).
  runtime_->event_loop().Ref();
  operations_.emplace(id, std::move(operation));
  if (!pending.signal.IsEmpty()) {
    v8::Local<v8::Function> algorithm;
    if (v8::Function::New(runtime_->context(), OnAbort,
                          v8::Number::New(isolate, static_cast<double>(id)))
            .ToLocal(&algorithm)) {
      op.signal.Reset(isolate, pending.signal);
      op.abort_algorithm.Reset(isolate, algorithm);
      CallAbortAlgorithms("addAbortAlgorithm", op);
    }
  }
  if (op.kind == Operation::Kind::kRead) {
    // Not read before epoll says so: a FIFO that no writer has open yet
    // reads as at its end.
    Wait(op, Progress::kWait);
  } else {
    Step(id);
  }
}

void FsWatches::Step(OperationId id) {
  auto it = operations_.find(id);
  if (it == operations_.end()) return;
  Operation& op = *it->second;
  // A stopped runtime runs nothing more: the operation just ends.
  if (runtime_->stopping()) {
    Remove(id);
    return;
  }
  const std::size_t moved = op.result.size + op.written;
  Progress progress;
  if (op.kind == Operation::Kind::kRead) {
    progress = ReadSome(op);
  } else {
    // (Open's kMore: opened, go on.)
    progress = op.result.stream ? Progress::kMore : Open(op);
    if (progress == Progress::kMore) progress = WriteSome(op);
  }
  if (op.result.size + op.written != moved) op.retry_delay = base::Duration::zero();
  switch (progress) {
    case Progress::kDone:
      Finish(id);
      break;
    case Progress::kMore:
    case Progress::kWait:
      Wait(op, progress);
      break;
  }
}

FsWatches::Progress FsWatches::Open(Operation& op) {
  int fd = ::open(op.result.path.c_str(), op.result.open_flags, op.result.mode);
  if (fd < 0) {
    if (errno == ENXIO) return Progress::kWait;  // still no reader
    op.result.Fail("open", errno, op.result.path);
    return Progress::kDone;
  }
  op.result.stream.Reset(fd);
  op.retry_delay = base::Duration::zero();
  return Progress::kMore;
}

FsWatches::Progress FsWatches::ReadSome(Operation& op) {
  FsResult& result = op.result;
  std::size_t budget = kStepBytes;
  while (budget > 0) {
    switch (result.MakeRoom(kFirstReadSize, op.limit)) {
      case FsResult::Room::kOk:
        break;
      case FsResult::Room::kTooLarge:
        result.TooLarge(result.size);
        return Progress::kDone;
      case FsResult::Room::kNoMemory:
        result.Fail("read", ENOMEM, result.path);
        return Progress::kDone;
    }
    ssize_t n = ::read(result.stream.Get(), result.data + result.size,
                       std::min(result.capacity - result.size, budget));
    if (n > 0) {
      result.size += static_cast<std::size_t>(n);
      budget -= static_cast<std::size_t>(n);
    } else if (n == 0) {
      return Progress::kDone;  // the end
    } else if (errno == EAGAIN) {
      return Progress::kWait;
    } else if (errno != EINTR) {
      result.Fail("read", errno, result.path);
      return Progress::kDone;
    }
  }
  return Progress::kMore;
}

FsWatches::Progress FsWatches::WriteSome(Operation& op) {
  FsResult& result = op.result;
  const Payload& payload = result.payload;
  std::size_t budget = kStepBytes;
  while (op.written < payload.size()) {
    if (budget == 0) return Progress::kMore;
    ssize_t n = ::write(result.stream.Get(), payload.data() + op.written,
                        std::min(payload.size() - op.written, budget));
    if (n > 0) {
      op.written += static_cast<std::size_t>(n);
      budget -= static_cast<std::size_t>(n);
    } else if (n == 0 || errno == EAGAIN) {
      return Progress::kWait;
    } else if (errno != EINTR) {
      result.Fail("write", errno, result.path);
      return Progress::kDone;
    }
  }
  // close() can report a deferred write error: not success.
  if (int error = CloseFile(op); error != 0) result.Fail("close", error, result.path);
  return Progress::kDone;
}

void FsWatches::Wait(Operation& op, Progress progress) {
  if (op.result.stream && !op.always_ready) {
    // epoll says when the fd is ready (in the next pass if it still is).
    if (op.watch != 0) return;
    const uint32_t events = op.kind == Operation::Kind::kRead ? EPOLLIN : EPOLLOUT;
    base::Result<loop::Looper::WatchId> watch = runtime_->looper()->WatchFd(
        op.result.stream.Get(), events, [this, id = op.id](uint32_t) { Step(id); },
        loop::Liveness::kWeak);
    if (watch.ok()) {
      op.watch = watch.value();
      return;
    }
    if (watch.error().code != EPERM) {
      op.result.Fail("epoll_ctl", watch.error().code, op.result.path);
      Finish(op.id);
      return;
    }
    // epoll cannot watch it: it is always ready.
    op.always_ready = true;
    progress = Progress::kMore;
  }
  if (progress == Progress::kMore) {
    PostStep(op, base::Duration::zero());
    return;
  }
  // Nothing to watch (yet): look again after a while, longer each time.
  op.retry_delay = op.retry_delay == base::Duration::zero()
                       ? kFirstRetryDelay
                       : std::min(op.retry_delay * 2, kMaxRetryDelay);
  PostStep(op, op.retry_delay);
}

void FsWatches::PostStep(Operation& op, base::Duration delay) {
  auto step = [this, alive = std::weak_ptr<bool>(alive_), id = op.id] {
    if (!alive.expired()) Step(id);
  };
  // (Weak: the operation's ref keeps the runtime alive. Refused after a
  // shutdown: the operation then ends with the runtime.)
  if (delay == base::Duration::zero()) {
    runtime_->event_loop().PostInternal(std::move(step));
  } else {
    runtime_->event_loop().PostInternalDelayed(std::move(step), delay);
  }
}

int FsWatches::CloseFile(Operation& op) {
  // Unwatched first: the Looper must not watch a closed fd.
  if (op.watch != 0) runtime_->looper()->UnwatchFd(std::exchange(op.watch, 0));
  if (!op.result.stream) return 0;
  return ::close(op.result.stream.Release()) < 0 && errno != EINTR ? errno : 0;
}

std::unique_ptr<FsWatches::Operation> FsWatches::Remove(OperationId id) {
  auto it = operations_.find(id);
  if (it == operations_.end()) return nullptr;
  std::unique_ptr<Operation> operation = std::move(it->second);
  operations_.erase(it);
  CloseFile(*operation);
  runtime_->event_loop().Unref();
  return operation;
}

void FsWatches::Finish(OperationId id) {
  std::unique_ptr<Operation> op = Remove(id);
  if (op == nullptr || runtime_->stopping()) return;
  // An fd callback is no entry of this runtime's: its isolate may not be
  // the current one.
  runtime_->MakeCurrent();
  v8::Isolate* isolate = runtime_->isolate();
  v8::HandleScope scope(isolate);
  if (!op->signal.IsEmpty()) CallAbortAlgorithms("removeAbortAlgorithm", *op);
  Runtime::NativeCallbackScope in_callback(runtime_);
  op->settle(runtime_, op->resolver.Get(isolate), op->result);
}

void FsWatches::OnAbort(const v8::FunctionCallbackInfo<v8::Value>& info) {
  Runtime* runtime = Runtime::From(info.GetIsolate());
  auto* watches = static_cast<FsWatches*>(runtime->extension(ExtensionSlot::kFsWatches));
  if (watches == nullptr) return;
  watches->Abort(static_cast<OperationId>(info.Data().As<v8::Number>()->Value()));
}

void FsWatches::Abort(OperationId id) {
  std::unique_ptr<Operation> op = Remove(id);
  if (op == nullptr) return;
  v8::Isolate* isolate = runtime_->isolate();
  v8::HandleScope scope(isolate);
  // (The reason; or, if reading it threw, what it threw.)
  v8::Local<v8::Value> reason;
  AbortReason(runtime_, op->signal.Get(isolate), &reason);
  if (reason.IsEmpty()) return;
  op->resolver.Get(isolate)->Reject(runtime_->context(), reason).FromMaybe(false);
}

void FsWatches::CallAbortAlgorithms(const char* name, Operation& op) {
  v8::Isolate* isolate = runtime_->isolate();
  v8::TryCatch try_catch(isolate);
  v8::Local<v8::Function> function;
  if (!runtime_->InternalFunction(name).ToLocal(&function)) return;
  v8::Local<v8::Value> argv[] = {op.signal.Get(isolate), op.abort_algorithm.Get(isolate)};
  function->Call(runtime_->context(), v8::Undefined(isolate), 2, argv).IsEmpty();
  if (try_catch.HasTerminated()) try_catch.ReThrow();
}

}  // namespace hostloop::runtime
