#include "runtime/native_module.h"

#include "runtime/runtime.h"

namespace hostloop::runtime {
namespace {

std::unordered_map<std::string, NativeModuleFactory>& Registry() {
  static std::unordered_map<std::string, NativeModuleFactory> registry;
  return registry;
}

}  // namespace

void RegisterNativeModule(const std::string& name, NativeModuleFactory factory) {
  Registry()[name] = std::move(factory);
}

const std::unordered_map<std::string, NativeModuleFactory>& NativeModules() { return Registry(); }

uint64_t PendingPromises::Add(v8::Local<v8::Promise::Resolver> resolver,
                              v8::Local<v8::Value> signal) {
  uint32_t slot;
  if (!free_.empty()) {
    slot = free_.back();
    free_.pop_back();
  } else {
    slot = static_cast<uint32_t>(entries_.size());
    entries_.emplace_back();
  }
  Entry& entry = entries_[slot];
  entry.resolver.Reset(runtime_->isolate(), resolver);
  if (!signal.IsEmpty() && !signal->IsUndefined()) entry.signal.Reset(runtime_->isolate(), signal);
  ++size_;
  return (static_cast<uint64_t>(entry.generation) << 32) | slot;
}

PendingPromise PendingPromises::Take(uint64_t id) {
  const uint32_t slot = static_cast<uint32_t>(id);
  if (slot >= entries_.size()) return {};
  Entry& entry = entries_[slot];
  if (entry.generation != static_cast<uint32_t>(id >> 32) || entry.resolver.IsEmpty()) return {};
  PendingPromise pending{entry.resolver.Get(runtime_->isolate()),
                         entry.signal.Get(runtime_->isolate())};
  entry.resolver.Reset();
  entry.signal.Reset();
  ++entry.generation;
  free_.push_back(slot);
  --size_;
  return pending;
}

bool AbortReason(Runtime* runtime, v8::Local<v8::Value> signal, v8::Local<v8::Value>* reason) {
  v8::Isolate* isolate = runtime->isolate();
  v8::TryCatch try_catch(isolate);
  v8::Local<v8::Function> reason_of;
  v8::Local<v8::Value> argv[] = {signal};
  if (runtime->InternalFunction("abortReasonOf").ToLocal(&reason_of) &&
      reason_of->Call(runtime->context(), v8::Undefined(isolate), 1, argv).ToLocal(reason)) {
    return true;
  }
  *reason = try_catch.HasCaught() ? try_catch.Exception() : v8::Undefined(isolate).As<v8::Value>();
  if (try_catch.HasTerminated()) try_catch.ReThrow();
  return false;
}

}  // namespace hostloop::runtime
