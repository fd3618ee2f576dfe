// Template body of RunAsync (native_module.h).
#pragma once

#include <memory>
#include <utility>

#include "runtime/runtime.h"

namespace hostloop::runtime {

template <typename Result>
v8::Local<v8::Promise> RunAsync(
    Runtime* runtime, base::UniqueFunction<Result()> work,
    base::UniqueFunction<void(Runtime*, v8::Local<v8::Promise::Resolver>, Result&)> complete) {
  v8::Isolate* isolate = runtime->isolate();
  v8::Local<v8::Promise::Resolver> resolver =
      v8::Promise::Resolver::New(runtime->context()).ToLocalChecked();
  uint64_t id = runtime->pending_promises().Add(resolver);
  // Pending native work keeps the runtime alive until it completes (J3).
  runtime->event_loop().Ref();
  std::shared_ptr<loop::EventLoop> loop = runtime->event_loop().shared_from_this();
  loop::ThreadPool::Shared().Submit([runtime, loop, id, work = std::move(work),
                                     complete = std::move(complete)]() mutable {
    // Pool thread.
    auto result = std::make_unique<Result>(work());
    loop->PostInternal([runtime, id, result = std::move(result),
                        complete = std::move(complete)]() mutable {
      // Home thread (only ever runs while the runtime is alive: its
      // EventLoop refuses and drops entries once it is shut down).
      runtime->event_loop().Unref();
      v8::Isolate* isolate = runtime->isolate();
      v8::HandleScope scope(isolate);
      v8::Local<v8::Promise::Resolver> resolver = runtime->pending_promises().Take(id);
      if (resolver.IsEmpty() || runtime->stopping()) return;
      complete(runtime, resolver, *result);
    });
  });
  (void)isolate;
  return resolver->GetPromise();
}

}  // namespace hostloop::runtime
