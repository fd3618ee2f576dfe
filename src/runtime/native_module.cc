#include "runtime/native_module.h"

#include "base/check.h"
#include "base/slab_allocator.h"
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
                              v8::Local<v8::Value> signal, CancelFlag cancel) {
  uint32_t slot;
  if (!free_.empty()) {
    slot = free_.back();
    free_.pop_back();
  } else {
    slot = static_cast<uint32_t>(entries_.size());
    entries_.emplace_back();
  }
  v8::Isolate* isolate = runtime_->isolate();
  Entry& entry = entries_[slot];
  const uint64_t id = (static_cast<uint64_t>(entry.generation) << 32) | slot;
  entry.resolver.Reset(isolate, resolver);
  entry.cancel = std::move(cancel);
  ++size_;
  if (signal.IsEmpty() || signal->IsUndefined()) return id;
  entry.signal.Reset(isolate, signal);
  if (entry.cancel == nullptr) return id;
  // The abort algorithm knows its entry by id (a BigInt: ids use 64 bits).
  v8::Local<v8::Function> algorithm;
  if (v8::Function::New(runtime_->context(), OnAbort, v8::BigInt::NewFromUnsigned(isolate, id))
          .ToLocal(&algorithm)) {
    entry.abort_algorithm.Reset(isolate, algorithm);
    CallAbortAlgorithms("addAbortAlgorithm", signal, algorithm);
  }
  return id;
}

PendingPromises::~PendingPromises() {
  for (Entry& entry : entries_) {
    if (entry.cancel != nullptr) entry.cancel->store(true, std::memory_order_relaxed);
  }
}

PendingPromises::Entry* PendingPromises::Find(uint64_t id) {
  const uint32_t slot = static_cast<uint32_t>(id);
  if (slot >= entries_.size()) return nullptr;
  Entry& entry = entries_[slot];
  const bool live =
      entry.generation == static_cast<uint32_t>(id >> 32) && !entry.resolver.IsEmpty();
  return live ? &entry : nullptr;
}

void PendingPromises::Release(uint64_t id, Entry& entry) {
  entry.resolver.Reset();
  entry.signal.Reset();
  entry.abort_algorithm.Reset();
  entry.cancel.reset();
  ++entry.generation;
  free_.push_back(static_cast<uint32_t>(id));
  --size_;
}

PendingPromise PendingPromises::Take(uint64_t id) {
  Entry* entry = Find(id);
  if (entry == nullptr) return {};
  v8::Isolate* isolate = runtime_->isolate();
  PendingPromise pending{entry->resolver.Get(isolate), entry->signal.Get(isolate)};
  v8::Local<v8::Function> algorithm;
  if (!entry->abort_algorithm.IsEmpty()) algorithm = entry->abort_algorithm.Get(isolate);
  Release(id, *entry);
  // Done before its signal aborted: the signal no longer needs to know (a
  // long-lived signal would otherwise keep one algorithm per operation).
  if (!algorithm.IsEmpty()) CallAbortAlgorithms("removeAbortAlgorithm", pending.signal, algorithm);
  return pending;
}

void PendingPromises::CallAbortAlgorithms(const char* name, v8::Local<v8::Value> signal,
                                          v8::Local<v8::Function> algorithm) {
  v8::Isolate* isolate = runtime_->isolate();
  v8::TryCatch try_catch(isolate);
  v8::Local<v8::Function> function;
  if (!runtime_->InternalFunction(name).ToLocal(&function)) return;
  v8::Local<v8::Value> argv[] = {signal, algorithm};
  function->Call(runtime_->context(), v8::Undefined(isolate), 2, argv).IsEmpty();
  if (try_catch.HasTerminated()) try_catch.ReThrow();
}

void PendingPromises::OnAbort(const v8::FunctionCallbackInfo<v8::Value>& info) {
  Runtime* runtime = Runtime::From(info.GetIsolate());
  if (runtime == nullptr || !info.Data()->IsBigInt()) return;
  runtime->pending_promises().Abort(info.Data().As<v8::BigInt>()->Uint64Value());
}

void PendingPromises::Abort(uint64_t id) {
  Entry* entry = Find(id);
  if (entry == nullptr) return;  // settled already
  v8::Isolate* isolate = runtime_->isolate();
  v8::HandleScope scope(isolate);
  v8::Local<v8::Promise::Resolver> resolver = entry->resolver.Get(isolate);
  v8::Local<v8::Value> signal = entry->signal.Get(isolate);
  // The job stops at its next look; what it returns is dropped (Take()
  // finds nothing).
  if (entry->cancel != nullptr) entry->cancel->store(true, std::memory_order_relaxed);
  Release(id, *entry);
  // (The reason; or, if reading it threw, what it threw.)
  v8::Local<v8::Value> reason;
  AbortReason(runtime_, signal, &reason);
  if (reason.IsEmpty()) return;
  resolver->Reject(runtime_->context(), reason).FromMaybe(false);
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

namespace internal {

void* AllocateJob(std::size_t bytes) {
  if (bytes > base::SlabAllocator::kMaxBlock) return ::operator new(bytes);
  void* job = base::SlabAllocator::Shared().Allocate(bytes);
  CHECK(job != nullptr);  // out of memory, as a failed operator new would be
  return job;
}

void FreeJob(void* job, std::size_t bytes) {
  if (bytes > base::SlabAllocator::kMaxBlock) {
    ::operator delete(job);
  } else {
    base::SlabAllocator::Shared().Free(job);
  }
}

}  // namespace internal
}  // namespace hostloop::runtime
