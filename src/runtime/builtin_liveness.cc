// The wrappers are native functions, not JS: a JS wrapper printed its own
// source for toString(), and an error thrown by the builtin it called (a
// TypeError from waitAsync on a non-shared array) carried a frame of
// hostloop's internal script. An API function has no source and no frame
// of its own in a stack trace, so the builtin's error reads as in node.
#include "runtime/builtin_liveness.h"

#include <optional>
#include <vector>

#include "runtime/runtime.h"
#include "runtime/v8_util.h"
#include "v8/delayed_task_capture.h"

namespace hostloop::runtime {
namespace {

using v8::FunctionCallbackInfo;
using v8::Local;
using v8::Value;

// Calls `original` with the wrapper's receiver and arguments, all of them:
// the builtin sees the call the program made.
v8::MaybeLocal<Value> CallOriginal(const FunctionCallbackInfo<Value>& info,
                                   Local<v8::Function> original) {
  constexpr int kInlineArguments = 4;
  Local<Value> inline_argv[kInlineArguments];
  std::vector<Local<Value>> heap_argv;
  Local<Value>* argv = inline_argv;
  if (info.Length() > kInlineArguments) {
    heap_argv.resize(static_cast<std::size_t>(info.Length()));
    argv = heap_argv.data();
  }
  for (int i = 0; i < info.Length(); ++i) argv[i] = info[i];
  return original->Call(info.GetIsolate()->GetCurrentContext(), info.This(), info.Length(), argv);
}

// A wrapper's data: [original, release], where release() ends a wait's
// bookkeeping (one function for every waitAsync call; none is made per
// call).
enum WrapperData : uint32_t { kOriginal, kRelease };

// (Elements of our own array: reading them runs no program code.)
Local<v8::Function> DataElement(const FunctionCallbackInfo<Value>& info, WrapperData index) {
  Local<Value> element;
  if (!info.Data()
           .As<v8::Array>()
           ->Get(info.GetIsolate()->GetCurrentContext(), index)
           .ToLocal(&element)) {
    return {};
  }
  return element.As<v8::Function>();
}

// A waitAsync promise settled (info[0] its value, info[1] the token: the
// internal-lane entry of its timeout task, when the call learned it). Drops
// the loop reference and cancels that entry: a notified wait leaves V8's
// timeout task aborted (futex-emulation.cc, ResolveAsyncWaiterPromise), a
// no-op that would still wait in the lane until its deadline, holding
// memory and waking the loop. (A wait that timed out ran its task: the id is
// dead, and the cancel finds nothing.)
void WaitEnded(const FunctionCallbackInfo<Value>& info) {
  loop::EventLoop& loop = Runtime::From(info.GetIsolate())->event_loop();
  if (info.Length() > 1 && info[1]->IsNumber()) {
    loop.CancelInternal(static_cast<loop::EventLoop::TimerId>(info[1].As<v8::Number>()->Value()));
  }
  loop.Unref();
}

// Whether Atomics.waitAsync(ta, index, value, timeout) has a timeout for
// which V8 posts a delayed timeout task when the call waits: a number of
// milliseconds from 0.002 to 1e12, with margin. (V8 10.2 counts in whole
// microseconds: below 1 us the task is posted as an immediate one, or the
// call does not wait; past 2^63 ns it waits forever.) Other values post no
// delayed task (undefined, NaN, Infinity, 0 and less) or convert through
// program code, which may make them so: the capture would then take
// whatever else V8 posted during the call (a GC task) for the wait's.
bool HasTimeoutTask(const FunctionCallbackInfo<Value>& info) {
  if (info.Length() < 4 || !info[3]->IsNumber()) return false;
  double timeout = info[3].As<v8::Number>()->Value();
  return timeout >= 0.002 && timeout <= 1e12;
}

void WaitAsync(const FunctionCallbackInfo<Value>& info) {
  v8::Isolate* isolate = info.GetIsolate();
  Local<v8::Context> context = isolate->GetCurrentContext();
  Local<v8::Function> original = DataElement(info, kOriginal);
  Local<v8::Function> release = DataElement(info, kRelease);
  if (original.IsEmpty() || release.IsEmpty()) return;
  Runtime* runtime = Runtime::From(isolate);
  Local<Value> result;
  loop::EventLoop::TimerId timeout_entry = loop::TimerQueue::kInvalidId;
  {
    // The builtin posts the timeout task before it returns.
    std::optional<v8host::DelayedTaskCapture> capture;
    if (HasTimeoutTask(info)) capture.emplace(runtime->event_loop());
    if (!CallOriginal(info, original).ToLocal(&result)) return;
    if (capture) timeout_entry = capture->id();
  }
  // { async, value }, made by V8 just now: value is a promise when the call
  // waits, else "not-equal" or "timed-out".
  Local<Value> value;
  if (!result.As<v8::Object>()->Get(context, V8Symbol(isolate, "value")).ToLocal(&value)) return;
  if (value->IsPromise()) {
    Local<Value> token;
    // (Ids have 53 bits: a double holds them exactly.)
    if (timeout_entry != loop::TimerQueue::kInvalidId) {
      token = v8::Number::New(isolate, static_cast<double>(timeout_entry));
    }
    runtime->event_loop().Ref();
    if (!runtime->WhenSettled(value.As<v8::Promise>(), release, release, token)) {
      // (A stack overflow: the caller gets the RangeError, and the reference
      // must not outlive the call, or the runtime never exits.)
      runtime->event_loop().Unref();
      return;
    }
  }
  info.GetReturnValue().Set(result);
}

// The reactions to V8's compile promise; their data is the resolver of the
// promise the caller got, settled the same way.
template <bool kFulfilled>
void CompileSettled(const FunctionCallbackInfo<Value>& info) {
  v8::Isolate* isolate = info.GetIsolate();
  Runtime::From(isolate)->event_loop().Unref();
  Local<v8::Promise::Resolver> resolver = info.Data().As<v8::Promise::Resolver>();
  Local<v8::Context> context = isolate->GetCurrentContext();
  (kFulfilled ? resolver->Resolve(context, info[0]) : resolver->Reject(context, info[0]))
      .FromMaybe(false);
}

// WebAssembly.compile and WebAssembly.instantiate. V8's promise is watched
// with WhenSettled (no program code runs: neither Promise[Symbol.species]
// nor a constructor getter), which handles it; the caller gets a promise of
// ours, settled the same way, so a rejection the caller ignores is still
// reported as unhandled (J5).
void Compile(const FunctionCallbackInfo<Value>& info) {
  v8::Isolate* isolate = info.GetIsolate();
  Local<v8::Context> context = isolate->GetCurrentContext();
  Local<v8::Function> original = DataElement(info, kOriginal);
  Local<v8::Promise::Resolver> resolver;
  Local<Value> promise;
  if (original.IsEmpty() || !v8::Promise::Resolver::New(context).ToLocal(&resolver) ||
      !CallOriginal(info, original).ToLocal(&promise)) {
    return;
  }
  if (!promise->IsPromise()) {
    info.GetReturnValue().Set(promise);  // (Not so in V8 10.2; nothing to watch.)
    return;
  }
  Runtime* runtime = Runtime::From(isolate);
  runtime->event_loop().Ref();
  if (!runtime->WhenSettled(promise.As<v8::Promise>(), CompileSettled<true>, CompileSettled<false>,
                            resolver)) {
    runtime->event_loop().Unref();  // (As for waitAsync.)
    return;
  }
  info.GetReturnValue().Set(resolver->GetPromise());
}

// Replaces namespace_[name] with a native function `callback` with the
// original's name, length and property attributes; its data is
// [original, release] (`release` may be empty).
bool Wrap(Local<v8::Context> context, Local<v8::Object> namespace_, const char* name,
          v8::FunctionCallback callback, Local<v8::Function> release) {
  v8::Isolate* isolate = context->GetIsolate();
  Local<v8::String> key = V8Symbol(isolate, name);
  Local<Value> original;
  if (!namespace_->Get(context, key).ToLocal(&original)) return false;
  if (!original->IsFunction()) return true;
  v8::PropertyAttribute attributes;
  Local<Value> length;
  if (!namespace_->GetPropertyAttributes(context, key).To(&attributes) ||
      !original.As<v8::Object>()->Get(context, V8Symbol(isolate, "length")).ToLocal(&length)) {
    return false;
  }
  Local<Value> elements[] = {original, release};
  Local<v8::Array> data = v8::Array::New(isolate, elements, release.IsEmpty() ? 1 : 2);
  Local<v8::Function> wrapper;
  if (!v8::Function::New(context, callback, data,
                         length->IsInt32() ? length.As<v8::Int32>()->Value() : 0,
                         v8::ConstructorBehavior::kThrow)
           .ToLocal(&wrapper)) {
    return false;
  }
  wrapper->SetName(key);
  return namespace_->DefineOwnProperty(context, key, wrapper, attributes).FromMaybe(false);
}

// The global's namespace object `name`, or empty when a V8 flag removed it
// (--no-harmony-atomics, --no-expose-wasm).
Local<v8::Object> Namespace(Local<v8::Context> context, const char* name) {
  Local<Value> value;
  if (!context->Global()->Get(context, V8Symbol(context->GetIsolate(), name)).ToLocal(&value) ||
      !value->IsObject()) {
    return {};
  }
  return value.As<v8::Object>();
}

}  // namespace

bool WrapBuiltinsForLiveness(Runtime* runtime) {
  v8::Isolate* isolate = runtime->isolate();
  v8::HandleScope scope(isolate);
  Local<v8::Context> context = runtime->context();
  if (Local<v8::Object> atomics = Namespace(context, "Atomics"); !atomics.IsEmpty()) {
    Local<v8::Function> release;
    if (!v8::Function::New(context, WaitEnded).ToLocal(&release) ||
        !Wrap(context, atomics, "waitAsync", WaitAsync, release)) {
      return false;
    }
  }
  if (Local<v8::Object> wasm = Namespace(context, "WebAssembly"); !wasm.IsEmpty()) {
    // (compileStreaming and instantiateStreaming exist only with a
    // WasmStreamingCallback, which hostloop does not install.)
    for (const char* name : {"compile", "instantiate"}) {
      if (!Wrap(context, wasm, name, Compile, Local<v8::Function>())) return false;
    }
  }
  return true;
}

}  // namespace hostloop::runtime
