// The `host` object the internal JS files receive: the native functions
// behind console, inspect, timers and error reporting. Every function checks
// its arguments, since internal files are the only callers but a mistake
// there must not crash the process.
#include "runtime/host_bindings.h"

#include <sched.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "base/time.h"
#include "runtime/broadcast_channel.h"
#include "runtime/encoding.h"
#include "runtime/message_port.h"
#include "runtime/module_loader.h"
#include "runtime/runtime.h"
#include "runtime/serializer.h"
#include "runtime/timers.h"
#include "runtime/url_parser.h"
#include "runtime/v8_util.h"
#include "runtime/view_contents.h"

namespace hostloop::runtime {
namespace {

using v8::FunctionCallbackInfo;
using v8::Local;
using v8::Value;

Runtime* RuntimeOf(const FunctionCallbackInfo<Value>& info) {
  return Runtime::From(info.GetIsolate());
}

// print(text, stream): stream 1 = stdout, 2 = stderr.
void Print(const FunctionCallbackInfo<Value>& info) {
  v8::Isolate* isolate = info.GetIsolate();
  int stream = info.Length() > 1 && info[1]->IsInt32() ? info[1].As<v8::Int32>()->Value() : 1;
  RuntimeOf(info)->Print(StdString(isolate, info[0]), stream == 2 ? 2 : 1);
}

void Now(const FunctionCallbackInfo<Value>& info) {
  info.GetReturnValue().Set(RuntimeOf(info)->NowMs());
}
double FastNow(Local<v8::Object> /*receiver*/) {
  return Runtime::From(v8::Isolate::GetCurrent())->NowMs();
}
const v8::CFunction kFastNow = v8::CFunction::Make(FastNow);

// entryStartNow(): now(), or the loop's reading from just before the running
// entry when no other entry came between (Runtime::EntryStartMs). Only for
// stamps taken before the entry ran any script.
void EntryStartNow(const FunctionCallbackInfo<Value>& info) {
  info.GetReturnValue().Set(RuntimeOf(info)->EntryStartMs());
}
double FastEntryStartNow(Local<v8::Object> /*receiver*/) {
  return Runtime::From(v8::Isolate::GetCurrent())->EntryStartMs();
}
const v8::CFunction kFastEntryStartNow = v8::CFunction::Make(FastEntryStartNow);

void GetPromiseState(const FunctionCallbackInfo<Value>& info) {
  v8::Isolate* isolate = info.GetIsolate();
  if (info.Length() < 1 || !info[0]->IsPromise()) return;
  Local<v8::Promise> promise = info[0].As<v8::Promise>();
  Local<v8::Context> context = isolate->GetCurrentContext();
  Local<v8::Array> result = v8::Array::New(isolate);
  switch (promise->State()) {
    case v8::Promise::kPending:
      result->Set(context, 0, v8::Integer::New(isolate, 0)).FromMaybe(false);
      break;
    case v8::Promise::kFulfilled:
      result->Set(context, 0, v8::Integer::New(isolate, 1)).FromMaybe(false);
      result->Set(context, 1, promise->Result()).FromMaybe(false);
      break;
    case v8::Promise::kRejected:
      result->Set(context, 0, v8::Integer::New(isolate, 2)).FromMaybe(false);
      result->Set(context, 1, promise->Result()).FromMaybe(false);
      break;
  }
  info.GetReturnValue().Set(result);
}

void GetProxyTarget(const FunctionCallbackInfo<Value>& info) {
  if (info.Length() < 1 || !info[0]->IsProxy()) return;
  info.GetReturnValue().Set(info[0].As<v8::Proxy>()->GetTarget());
}

void GetProxyHandler(const FunctionCallbackInfo<Value>& info) {
  if (info.Length() < 1 || !info[0]->IsProxy()) return;
  info.GetReturnValue().Set(info[0].As<v8::Proxy>()->GetHandler());
}

void IsModuleNamespace(const FunctionCallbackInfo<Value>& info) {
  info.GetReturnValue().Set(info.Length() > 0 && info[0]->IsModuleNamespaceObject());
}

void GetConstructorName(const FunctionCallbackInfo<Value>& info) {
  if (info.Length() < 1 || !info[0]->IsObject()) return;
  info.GetReturnValue().Set(info[0].As<v8::Object>()->GetConstructorName());
}

// getOwnNonIndexProperties(object, onlyEnumerable) -> string and symbol keys
void GetOwnNonIndexProperties(const FunctionCallbackInfo<Value>& info) {
  if (info.Length() < 1 || !info[0]->IsObject()) return;
  v8::Isolate* isolate = info.GetIsolate();
  Local<v8::Context> context = isolate->GetCurrentContext();
  bool only_enumerable = info.Length() > 1 && info[1]->BooleanValue(isolate);
  v8::PropertyFilter filter = only_enumerable ? v8::ONLY_ENUMERABLE : v8::ALL_PROPERTIES;
  Local<v8::Array> keys;
  if (info[0]
          .As<v8::Object>()
          ->GetPropertyNames(context, v8::KeyCollectionMode::kOwnOnly, filter,
                             v8::IndexFilter::kSkipIndices, v8::KeyConversionMode::kKeepNumbers)
          .ToLocal(&keys)) {
    info.GetReturnValue().Set(keys);
  }
}

// previewEntries(object) -> [entries, isKeyValue] for Map/Set iterators and
// WeakMap/WeakSet.
void PreviewEntries(const FunctionCallbackInfo<Value>& info) {
  if (info.Length() < 1 || !info[0]->IsObject()) return;
  v8::Isolate* isolate = info.GetIsolate();
  Local<v8::Context> context = isolate->GetCurrentContext();
  bool is_key_value = false;
  Local<v8::Array> entries;
  if (!info[0].As<v8::Object>()->PreviewEntries(&is_key_value).ToLocal(&entries)) return;
  Local<v8::Array> result = v8::Array::New(isolate, 2);
  result->Set(context, 0, entries).FromMaybe(false);
  result->Set(context, 1, v8::Boolean::New(isolate, is_key_value)).FromMaybe(false);
  info.GetReturnValue().Set(result);
}

// printUncaught(error[, [message, filename, lineno, colno][, deferPolicy]]):
// the last step of "report an exception" when nobody canceled the error
// event, with the location the error was reported with (where a thrown
// non-Error value came from: V8 could only place it here, at this call).
void PrintUncaught(const FunctionCallbackInfo<Value>& info) {
  v8::Isolate* isolate = info.GetIsolate();
  Local<v8::Context> context = isolate->GetCurrentContext();
  Local<Value> error = info.Length() > 0 ? info[0] : v8::Undefined(isolate).As<Value>();
  Runtime* runtime = RuntimeOf(info);
  // deferPolicy true: print now, apply the policy later (applyUncaughtPolicy,
  // or the next printUncaught).
  const bool apply_policy = !(info.Length() > 2 && info[2]->IsTrue());
  if (info.Length() > 1 && info[1]->IsArray()) {
    Local<v8::Array> parts = info[1].As<v8::Array>();
    Local<Value> values[4];
    bool read = parts->Length() == 4;
    for (uint32_t i = 0; read && i < 4; ++i) read = parts->Get(context, i).ToLocal(&values[i]);
    if (read) {
      ErrorLocation location;
      location.message = StdString(isolate, values[0]);
      location.filename = values[1]->IsString() ? StdString(isolate, values[1]) : "";
      location.lineno = values[2]->Int32Value(context).FromMaybe(0);
      location.colno = values[3]->Int32Value(context).FromMaybe(0);
      runtime->PrintUncaught(error, v8::Exception::CreateMessage(isolate, error), &location,
                             apply_policy);
      return;
    }
  }
  runtime->PrintUncaught(error, v8::Exception::CreateMessage(isolate, error), nullptr,
                         apply_policy);
}

// applyUncaughtPolicy(): --uncaught-errors for an error printed earlier with
// its policy deferred.
void ApplyUncaughtPolicy(const FunctionCallbackInfo<Value>& info) {
  RuntimeOf(info)->ApplyUncaughtPolicy();
}

// isatty(fd) -> boolean: whether stdout (1) or stderr (2) is a terminal.
void IsATty(const FunctionCallbackInfo<Value>& info) {
  const int fd = info.Length() > 0 && info[0]->IsInt32() ? info[0].As<v8::Int32>()->Value() : -1;
  info.GetReturnValue().Set((fd == 1 || fd == 2) && ::isatty(fd) == 1);
}

// exit(code): hostloop.exit(); stops the program now with `code` (an
// integer 0-255, checked in bootstrap.js): the rest of the current JS does not
// run, nor any other task. In a worker it ends that worker, as node's
// process.exit() does.
void Exit(const FunctionCallbackInfo<Value>& info) {
  RuntimeOf(info)->Stop(info[0].As<v8::Int32>()->Value());
}

// exitCode() -> the code the program exits with if it ends now;
// setExitCode(code) sets it (hostloop.exitCode).
void ExitCode(const FunctionCallbackInfo<Value>& info) {
  info.GetReturnValue().Set(RuntimeOf(info)->exit_code());
}

void SetExitCode(const FunctionCallbackInfo<Value>& info) {
  RuntimeOf(info)->set_exit_code(info[0].As<v8::Int32>()->Value());
}

// hardwareConcurrency() -> the number of CPUs this process may run on (its
// affinity mask, as node's availableParallelism and deno count them), at
// least 1.
void HardwareConcurrency(const FunctionCallbackInfo<Value>& info) {
  int count = 0;
  cpu_set_t cpus;
  if (::sched_getaffinity(0, sizeof cpus, &cpus) == 0) count = CPU_COUNT(&cpus);
  if (count <= 0) count = static_cast<int>(::sysconf(_SC_NPROCESSORS_ONLN));
  info.GetReturnValue().Set(count > 0 ? count : 1);
}

// platform() -> "Linux x86_64" (the kernel's name and machine, as browsers
// report navigator.platform).
void Platform(const FunctionCallbackInfo<Value>& info) {
  struct utsname names;
  std::string platform = "Linux";
  if (::uname(&names) == 0) platform = std::string(names.sysname) + " " + names.machine;
  info.GetReturnValue().Set(V8String(info.GetIsolate(), platform));
}

// fillRandom(view, maxBytes) -> the view's byte length: fills its bytes from
// the kernel's cryptographically secure generator (getrandom(2), which
// blocks only until the pool is first initialized at boot), unless there are
// more than maxBytes. The caller (crypto.getRandomValues) checks the type.
void FillRandom(const FunctionCallbackInfo<Value>& info) {
  if (info.Length() < 2 || !info[0]->IsArrayBufferView() || !info[1]->IsNumber()) return;
  ViewContents view;
  if (!GetViewContents(RuntimeOf(info), info[0], &view).FromMaybe(false)) return;
  const std::size_t length = view.length;
  info.GetReturnValue().Set(static_cast<double>(length));
  if (length == 0 || static_cast<double>(length) > info[1].As<v8::Number>()->Value()) return;
  uint8_t* bytes = view.data();
  std::size_t filled = 0;
  while (filled < length) {
    ssize_t n = ::getrandom(bytes + filled, length - filled, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      v8::Isolate* isolate = info.GetIsolate();
      isolate->ThrowException(v8::Exception::Error(
          V8String(isolate, std::string("getrandom failed: ") + std::strerror(errno))));
      return;
    }
    filled += static_cast<std::size_t>(n);
  }
}

// typedArrayName(value) -> 'Uint8Array', ... | undefined: the type of a
// typed array from its internal slots, as V8's API checks it. For typed
// arrays on resizable buffers, whose type V8 10.2's
// %TypedArray%.prototype[@@toStringTag] does not report (bootstrap.js).
void TypedArrayName(const FunctionCallbackInfo<Value>& info) {
  if (info.Length() < 1 || !info[0]->IsTypedArray()) return;
  Local<Value> value = info[0];
  const char* name = value->IsUint8Array()          ? "Uint8Array"
                     : value->IsInt8Array()         ? "Int8Array"
                     : value->IsUint8ClampedArray() ? "Uint8ClampedArray"
                     : value->IsInt16Array()        ? "Int16Array"
                     : value->IsUint16Array()       ? "Uint16Array"
                     : value->IsInt32Array()        ? "Int32Array"
                     : value->IsUint32Array()       ? "Uint32Array"
                     : value->IsFloat32Array()      ? "Float32Array"
                     : value->IsFloat64Array()      ? "Float64Array"
                     : value->IsBigInt64Array()     ? "BigInt64Array"
                     : value->IsBigUint64Array()    ? "BigUint64Array"
                                                    : nullptr;
  if (name != nullptr) info.GetReturnValue().Set(V8Symbol(info.GetIsolate(), name));
}

bool IsInternalScript(v8::Isolate* isolate, Local<Value> name) {
  return name->IsString() && StdString(isolate, name).rfind("hostloop:internal/", 0) == 0;
}

// The innermost stack frame of the program's own code (a named script that
// is not one of hostloop's internal ones), or empty.
v8::MaybeLocal<v8::StackFrame> FirstProgramFrame(v8::Isolate* isolate) {
  Local<v8::StackTrace> trace = v8::StackTrace::CurrentStackTrace(isolate, 16);
  for (int i = 0; i < trace->GetFrameCount(); ++i) {
    Local<v8::StackFrame> frame = trace->GetFrame(isolate, i);
    Local<v8::String> name = frame->GetScriptName();
    if (!name.IsEmpty() && !IsInternalScript(isolate, name)) return frame;
  }
  return {};
}

// scriptOnStack() -> whether the program's own code (any script but
// hostloop's internal ones, nameless eval and Function code included) is on
// the JavaScript stack. Past 64 frames all internal it answers true: the
// caller then skips a checkpoint, which is what it did before asking.
void ScriptOnStack(const FunctionCallbackInfo<Value>& info) {
  v8::Isolate* isolate = info.GetIsolate();
  constexpr int kFrames = 64;
  Local<v8::StackTrace> trace =
      v8::StackTrace::CurrentStackTrace(isolate, kFrames, v8::StackTrace::kScriptName);
  bool found = trace->GetFrameCount() >= kFrames;
  for (int i = 0; i < trace->GetFrameCount() && !found; ++i) {
    Local<v8::String> name = trace->GetFrame(isolate, i)->GetScriptName();
    found = name.IsEmpty() || !IsInternalScript(isolate, name);
  }
  info.GetReturnValue().Set(found);
}

// checkpoint(): Runtime::CheckpointBetweenCallbacks.
void CheckpointBetweenCallbacks(const FunctionCallbackInfo<Value>& info) {
  RuntimeOf(info)->CheckpointBetweenCallbacks();
}

// errorLocation(error) -> [message, filename, lineno, colno]. A value with no
// stack of its own (reportError('text')) is placed where the program's code
// is, not in hostloop's internal script that reports it.
void GetErrorLocation(const FunctionCallbackInfo<Value>& info) {
  v8::Isolate* isolate = info.GetIsolate();
  Local<v8::Context> context = isolate->GetCurrentContext();
  Local<Value> error = info.Length() > 0 ? info[0] : v8::Undefined(isolate).As<Value>();
  Local<v8::Message> message = v8::Exception::CreateMessage(isolate, error);
  Local<v8::StackFrame> frame;
  if (IsInternalScript(isolate, message->GetScriptResourceName()) &&
      FirstProgramFrame(isolate).ToLocal(&frame)) {
    info.GetReturnValue().Set(LocationArray(context, UncaughtMessageText(context, error, message),
                                            frame->GetScriptName(), frame->GetLineNumber(),
                                            frame->GetColumn()));
    return;
  }
  info.GetReturnValue().Set(
      MessageLocation(context, message, UncaughtMessageText(context, error, message)));
}

void EnqueueMicrotask(const FunctionCallbackInfo<Value>& info) {
  if (info.Length() < 1 || !info[0]->IsFunction()) {
    ThrowTypeError(info.GetIsolate(), "enqueueMicrotask needs a function");
    return;
  }
  info.GetIsolate()->EnqueueMicrotask(info[0].As<v8::Function>());
}

// A new timer entry's id as the result, or the RangeError of a full queue.
void ReturnTimerId(const FunctionCallbackInfo<Value>& info, double id) {
  if (id == Timers::kQueueFull) {
    ThrowRangeError(info.GetIsolate(), "Too many timers pending: the loop's queue is full");
    return;
  }
  info.GetReturnValue().Set(id);
}

// timerStart(timeoutMs, weak) -> entry id
void TimerStart(const FunctionCallbackInfo<Value>& info) {
  if (info.Length() < 1 || !info[0]->IsNumber()) {
    ThrowTypeError(info.GetIsolate(), "timerStart(timeout, weak)");
    return;
  }
  bool weak = info.Length() > 1 && info[1]->IsTrue();
  ReturnTimerId(info, RuntimeOf(info)->timers().Start(info[0].As<v8::Number>()->Value(), weak));
}

// The same from optimized code (HostFunction::fast). A full queue takes the
// slow path, which throws; Start() changed nothing then (the cancels it may
// have flushed were due anyway).
double FastTimerStart(Local<v8::Object> /*receiver*/, double timeout_ms, bool weak,
                      v8::FastApiCallbackOptions& options) {
  double id = Runtime::From(v8::Isolate::GetCurrent())->timers().Start(timeout_ms, weak);
  if (id == Timers::kQueueFull) {
    options.fallback = true;
    return 0;
  }
  return id;
}
const v8::CFunction kFastTimerStart = v8::CFunction::Make(FastTimerStart);

// timerRearm(periodMs) -> entry id: the running interval's next repetition.
void TimerRearm(const FunctionCallbackInfo<Value>& info) {
  if (info.Length() < 1 || !info[0]->IsNumber()) return;
  ReturnTimerId(info, RuntimeOf(info)->timers().Rearm(info[0].As<v8::Number>()->Value()));
}

// timerFlushCancels(): the cancel buffer is full.
void TimerFlushCancels(const FunctionCallbackInfo<Value>& info) {
  RuntimeOf(info)->timers().FlushCancels();
}

// Runs one scheduler token: internals.runSchedulerToken(task), where `task`
// is the object a delayed token brings (scheduler.js's token record), or
// undefined.
void RunSchedulerToken(Runtime* runtime, const v8::Global<Value>* task) {
  v8::Isolate* isolate = runtime->isolate();
  v8::HandleScope scope(isolate);
  v8::Local<v8::Function> run;
  if (runtime->stopping() || !runtime->InternalFunction("runSchedulerToken").ToLocal(&run)) return;
  v8::Local<Value> argv[] = {task == nullptr ? v8::Undefined(isolate).As<Value>()
                                             : task->Get(isolate)};
  runtime->CallAndReport(run, v8::Undefined(isolate), 1, argv);
}

// The loop's time as scheduler.js compares it: nanoseconds since the
// runtime started, as a double (exact for 104 days; after that, rounding
// never reverses the order of two times).
double SchedulerTime(Runtime* runtime, loop::TimePoint time) {
  return static_cast<double>((time - runtime->start_time()).count());
}

// schedulerNow() -> the loop clock now, in SchedulerTime units: a token is
// due when this has reached its deadline.
void SchedulerNow(const FunctionCallbackInfo<Value>& info) {
  Runtime* runtime = RuntimeOf(info);
  info.GetReturnValue().Set(SchedulerTime(runtime, runtime->event_loop().looper()->Now()));
}

// A token due now is a plain ordered post (the lane's FIFO of due-now
// entries: no clock read, no heap) carrying only the runtime, so the task
// is stored inline (a captured v8::Global, whose move is not noexcept, cost
// an allocation per token).
void PostDueNowSchedulerToken(Runtime* runtime) {
  runtime->event_loop().PostOrdered([runtime] { RunSchedulerToken(runtime, nullptr); });
}

// postSchedulerToken(delayMs, task?): one ordered-lane entry for
// scheduler.js (see there). A token that brings an object (`task`: its
// token record) writes its deadline into task.due (SchedulerTime), so
// scheduler.js knows when the delay ends by the same clock reading the lane
// uses.
void PostSchedulerToken(const FunctionCallbackInfo<Value>& info) {
  Runtime* runtime = RuntimeOf(info);
  double delay_ms =
      info.Length() > 0 && info[0]->IsNumber() ? info[0].As<v8::Number>()->Value() : 0;
  const loop::Duration delay = base::DelayFromMilliseconds(delay_ms);
  bool brings_task = info.Length() > 1 && info[1]->IsObject();
  if (delay == loop::Duration::zero() && !brings_task) {
    PostDueNowSchedulerToken(runtime);
    return;
  }
  v8::Global<Value> task;
  if (brings_task) task.Reset(info.GetIsolate(), info[1]);
  // A fresh clock reading: the delay is measured from this call.
  const loop::TimePoint due = base::DueAfter(runtime->event_loop().looper()->DeadlineNow(), delay);
  if (brings_task) {
    v8::Isolate* isolate = info.GetIsolate();
    if (info[1]
            .As<v8::Object>()
            ->Set(isolate->GetCurrentContext(), V8Symbol(isolate, "due"),
                  v8::Number::New(isolate, SchedulerTime(runtime, due)))
            .IsNothing()) {
      return;  // Nothing is scheduled; the exception propagates to scheduler.js.
    }
  }
  auto schedule = [&] {
    return runtime->event_loop().ScheduleOrderedAt(
        [runtime, task = std::move(task)] {
          RunSchedulerToken(runtime, task.IsEmpty() ? nullptr : &task);
        },
        due);
  };
  loop::EventLoop::TimerId id = schedule();
  if (id == loop::TimerQueue::kInvalidId && runtime->timers().FlushCancels() > 0) {
    // Full, but with timers cleared in this task still holding slots.
    if (task.IsEmpty() && brings_task) task.Reset(info.GetIsolate(), info[1]);
    id = schedule();
  }
  // The entry's id (exact as a number: 53 bits), for cancelSchedulerToken.
  // No id: the runtime is shutting down (0, nothing will run), or the
  // loop's queue is full (a RangeError, as for setTimeout; the task's
  // promise rejects with it).
  if (id == loop::TimerQueue::kInvalidId && !runtime->event_loop().IsShutDownOnHomeThread()) {
    ReturnTimerId(info, Timers::kQueueFull);
    return;
  }
  info.GetReturnValue().Set(static_cast<double>(id));
}

// postSchedulerToken(0) from optimized code (a V8 fast API call): a token
// due now, as PostSchedulerToken posts it. Any other delay takes the
// regular callback (it reads the clock and may throw).
void FastPostSchedulerToken(Local<v8::Object> /*receiver*/, double delay_ms,
                            v8::FastApiCallbackOptions& options) {
  if (base::DelayFromMilliseconds(delay_ms) != loop::Duration::zero()) {
    options.fallback = true;
    return;
  }
  PostDueNowSchedulerToken(Runtime::From(v8::Isolate::GetCurrent()));
}
const v8::CFunction kFastPostSchedulerToken = v8::CFunction::Make(FastPostSchedulerToken);

// newSerializableDOMException(name, message) -> object: the API object a
// DOMException is (events.js), which structured clone copies.
void NewSerializableDOMException(const FunctionCallbackInfo<Value>& info) {
  v8::Isolate* isolate = info.GetIsolate();
  Local<Value> name = info.Length() > 0 ? info[0] : v8::Undefined(isolate).As<Value>();
  Local<Value> message = info.Length() > 1 ? info[1] : v8::Undefined(isolate).As<Value>();
  v8::Local<v8::Object> object;
  if (NewSerializableObject(RuntimeOf(info), kSerializableDOMException, name, message)
          .ToLocal(&object)) {
    info.GetReturnValue().Set(object);
  }
}

// serializableDOMExceptionParts(value) -> [name, message] | undefined.
void SerializableDOMExceptionParts(const FunctionCallbackInfo<Value>& info) {
  if (info.Length() < 1 || !info[0]->IsObject()) return;
  Local<v8::Object> object = info[0].As<v8::Object>();
  if (!IsSerializableKind(object, kSerializableDOMException)) return;
  v8::Isolate* isolate = info.GetIsolate();
  Local<v8::Array> parts = v8::Array::New(isolate, 2);
  Local<v8::Context> context = isolate->GetCurrentContext();
  // (Own data properties: no setter a script put on Array.prototype runs.)
  if (parts->CreateDataProperty(context, 0, object->GetInternalField(kSerializableNameField))
          .FromMaybe(false) &&
      parts->CreateDataProperty(context, 1, object->GetInternalField(kSerializableMessageField))
          .FromMaybe(false)) {
    info.GetReturnValue().Set(parts);
  }
}

// setDOMExceptionPrototype(prototype): at realm start (bootstrap.js).
void SetDOMExceptionPrototype(const FunctionCallbackInfo<Value>& info) {
  if (info.Length() < 1 || !info[0]->IsObject()) return;
  RuntimeOf(info)->dom_exception_prototype().Reset(info.GetIsolate(), info[0].As<v8::Object>());
}

// getSchedulingState() / setSchedulingState(value): scheduler.js's current
// scheduling state, kept as V8's continuation-preserved embedder data (saved
// with each promise reaction, restored while it runs).
void GetSchedulingState(const FunctionCallbackInfo<Value>& info) {
  info.GetReturnValue().Set(
      info.GetIsolate()->GetCurrentContext()->GetContinuationPreservedEmbedderData());
}

void SetSchedulingState(const FunctionCallbackInfo<Value>& info) {
  v8::Isolate* isolate = info.GetIsolate();
  isolate->GetCurrentContext()->SetContinuationPreservedEmbedderData(
      info.Length() > 0 ? info[0] : v8::Undefined(isolate).As<Value>());
}

// cancelSchedulerToken(id): a delayed task was aborted; its entry leaves the
// lane (it would keep the runtime alive until its delay ran out, J3).
void CancelSchedulerToken(const FunctionCallbackInfo<Value>& info) {
  if (info.Length() < 1 || !info[0]->IsNumber()) return;
  RuntimeOf(info)->event_loop().CancelOrdered(
      static_cast<loop::EventLoop::TimerId>(info[0].As<v8::Number>()->Value()));
}

// evaluateScript(source, name, baseUrl): runs a classic script in the global
// scope (string timer handlers). `baseUrl` (a file: URL or undefined) is what
// an import() inside it resolves against, carried in the script's
// host-defined options. Exceptions propagate to the caller.
void EvaluateScript(const FunctionCallbackInfo<Value>& info) {
  v8::Isolate* isolate = info.GetIsolate();
  Local<v8::Context> context = isolate->GetCurrentContext();
  if (info.Length() < 1 || !info[0]->IsString()) return;
  Local<Value> name = info.Length() > 1 ? info[1] : V8String(isolate, "script").As<Value>();
  Local<v8::PrimitiveArray> options = v8::PrimitiveArray::New(isolate, 1);
  if (info.Length() > 2 && info[2]->IsString()) {
    options->Set(isolate, 0, info[2].As<v8::String>());
  } else {
    options->Set(isolate, 0, v8::Undefined(isolate));
  }
  v8::ScriptOrigin origin(isolate, name, 0, 0, false, -1, Local<Value>(), false, false, false,
                          options);
  Local<v8::Script> script;
  if (!v8::Script::Compile(context, info[0].As<v8::String>(), &origin).ToLocal(&script)) return;
  Local<Value> result;
  if (script->Run(context).ToLocal(&result)) info.GetReturnValue().Set(result);
}

// initiatingScriptUrl() -> string | undefined: the file: URL of the script or
// module whose code is running (HTML's "active script"), skipping hostloop's
// internal scripts; undefined when that code has no file (a string timer
// handler, the REPL, -e).
void InitiatingScriptUrl(const FunctionCallbackInfo<Value>& info) {
  v8::Isolate* isolate = info.GetIsolate();
  Local<v8::StackFrame> frame;
  if (!FirstProgramFrame(isolate).ToLocal(&frame)) return;
  Local<v8::String> name = frame->GetScriptName();
  if (StdString(isolate, name).rfind("file://", 0) == 0) info.GetReturnValue().Set(name);
}

}  // namespace

const HostFunction kHostFunctions[] = {
    {"print", Print},
    {"isatty", IsATty},
    {"now", Now, &kFastNow},
    {"entryStartNow", EntryStartNow, &kFastEntryStartNow},
    {"urlParse", UrlParse},
    {"urlParserAvailable", UrlParserAvailable},
    {"getPromiseState", GetPromiseState},
    {"getProxyTarget", GetProxyTarget},
    {"getProxyHandler", GetProxyHandler},
    {"isModuleNamespace", IsModuleNamespace},
    {"getConstructorName", GetConstructorName},
    {"getOwnNonIndexProperties", GetOwnNonIndexProperties},
    {"previewEntries", PreviewEntries},
    {"printUncaught", PrintUncaught},
    {"applyUncaughtPolicy", ApplyUncaughtPolicy},
    {"errorLocation", GetErrorLocation},
    {"enqueueMicrotask", EnqueueMicrotask},
    {"timerStart", TimerStart, &kFastTimerStart},
    {"timerRearm", TimerRearm},
    {"timerFlushCancels", TimerFlushCancels},
    {"evaluateScript", EvaluateScript},
    {"initiatingScriptUrl", InitiatingScriptUrl},
    {"postSchedulerToken", PostSchedulerToken, &kFastPostSchedulerToken},
    {"schedulerNow", SchedulerNow},
    {"getSchedulingState", GetSchedulingState},
    {"newSerializableDOMException", NewSerializableDOMException},
    {"serializableDOMExceptionParts", SerializableDOMExceptionParts},
    {"setDOMExceptionPrototype", SetDOMExceptionPrototype},
    {"setSchedulingState", SetSchedulingState},
    {"cancelSchedulerToken", CancelSchedulerToken},
    {"hardwareConcurrency", HardwareConcurrency},
    {"exit", Exit},
    {"scriptOnStack", ScriptOnStack},
    {"checkpoint", CheckpointBetweenCallbacks},
    {"exitCode", ExitCode},
    {"setExitCode", SetExitCode},
    {"platform", Platform},
    {"fillRandom", FillRandom},
    {"typedArrayName", TypedArrayName},
};

std::vector<std::span<const HostFunction>>& HostExtensions() {
  static std::vector<std::span<const HostFunction>> extensions;
  return extensions;
}

void RegisterHostExtension(std::span<const HostFunction> functions) {
  HostExtensions().push_back(functions);
}

void AddHostFunctions(v8::Local<v8::Context> context, v8::Local<v8::Object> target,
                      std::span<const HostFunction> functions) {
  for (const HostFunction& function : functions) {
    if (function.fast == nullptr) {
      SetMethod(context, target, function.name, function.callback);
    } else {
      SetFastMethod(context, target, function.name, function.callback, function.fast);
    }
  }
}

v8::Local<v8::Object> CreateHostObject(v8::Local<v8::Context> context,
                                       v8::Local<v8::FunctionTemplate> port_template) {
  v8::Isolate* isolate = context->GetIsolate();
  v8::Local<v8::Object> host = v8::Object::New(isolate);
  AddHostFunctions(context, host, kHostFunctions);
  AddHostFunctions(context, host, MessagePortHandle::Functions());
  AddHostFunctions(context, host, EncodingFunctions());
  AddHostFunctions(context, host, BroadcastChannelFunctions());
  for (std::span<const HostFunction> extension : HostExtensions()) {
    AddHostFunctions(context, host, extension);
  }
  host->CreateDataProperty(context, V8Symbol(isolate, "MessagePort"),
                           port_template->GetFunction(context).ToLocalChecked())
      .FromMaybe(false);
  host->CreateDataProperty(context, V8Symbol(isolate, "version"),
                           V8String(isolate, HOSTLOOP_VERSION))
      .FromMaybe(false);
  host->CreateDataProperty(context, V8Symbol(isolate, "v8Version"),
                           V8String(isolate, v8::V8::GetVersion()))
      .FromMaybe(false);
  return host;
}

void SetRunHostProperties(Runtime* runtime, v8::Local<v8::Object> host) {
  v8::Isolate* isolate = runtime->isolate();
  v8::Local<v8::Context> context = runtime->context();
  const std::vector<std::string>& args = runtime->options().args;
  v8::Local<v8::Array> js_args = v8::Array::New(isolate, static_cast<int>(args.size()));
  for (std::size_t i = 0; i < args.size(); ++i) {
    js_args->Set(context, static_cast<uint32_t>(i), V8String(isolate, args[i])).FromMaybe(false);
  }
  host->CreateDataProperty(context, V8Symbol(isolate, "args"), js_args).FromMaybe(false);
  host->CreateDataProperty(context, V8Symbol(isolate, "timerCancelBuffer"),
                           runtime->timers().CancelBuffer())
      .FromMaybe(false);
  host->CreateDataProperty(context, V8Symbol(isolate, "timeOrigin"),
                           v8::Number::New(isolate, runtime->time_origin_ms()))
      .FromMaybe(false);
  if (runtime->options().worker) {
    v8::Local<v8::Object> worker = v8::Object::New(isolate);
    worker
        ->CreateDataProperty(context, V8Symbol(isolate, "name"),
                             V8String(isolate, runtime->options().worker->name))
        .FromMaybe(false);
    worker
        ->CreateDataProperty(context, V8Symbol(isolate, "type"),
                             V8String(isolate, runtime->options().worker->type))
        .FromMaybe(false);
    worker
        ->CreateDataProperty(context, V8Symbol(isolate, "url"),
                             V8String(isolate, runtime->options().worker->url))
        .FromMaybe(false);
    host->CreateDataProperty(context, V8Symbol(isolate, "workerInfo"), worker).FromMaybe(false);
  }
}

const intptr_t* ExternalReferences() {
  static const std::vector<intptr_t> references = [] {
    std::vector<intptr_t> list;
    auto add = [&list](std::span<const HostFunction> functions) {
      for (const HostFunction& function : functions) {
        list.push_back(reinterpret_cast<intptr_t>(function.callback));
        if (function.fast != nullptr) {
          list.push_back(reinterpret_cast<intptr_t>(function.fast->GetAddress()));
          list.push_back(reinterpret_cast<intptr_t>(function.fast->GetTypeInfo()));
        }
      }
    };
    add(kHostFunctions);
    add(MessagePortHandle::Functions());
    add(EncodingFunctions());
    add(BroadcastChannelFunctions());
    for (std::span<const HostFunction> extension : HostExtensions()) add(extension);
    list.push_back(reinterpret_cast<intptr_t>(MessagePortHandle::ConstructorCallback()));
    list.push_back(0);
    return list;
  }();
  return references.data();
}

}  // namespace hostloop::runtime
