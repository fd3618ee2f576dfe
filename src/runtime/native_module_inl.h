// Template body of RunAsync (native_module.h).
#pragma once

#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include "runtime/runtime.h"

namespace hostloop::runtime {

namespace internal {

// A job's memory (native_module.cc): from the SlabAllocator when it fits.
// A program's first burst of 10,000 readFiles has 10,000 jobs pending at
// once; from malloc, their fresh pages were ~1,000 of main's ~4,000 page
// faults in that burst (~10 us each on the VMs hostloop runs on; the slab's
// chunks past the first come in huge pages). Later bursts reuse freed jobs
// either way.
void* AllocateJob(std::size_t bytes);
void FreeJob(void* job, std::size_t bytes);

// RunAsyncWithSignal and RunAsyncAbortable: `cancel` is the flag of an
// abortable operation, else null.
template <typename Result, typename Work, typename Complete>
v8::Local<v8::Promise> RunAsyncJob(Runtime* runtime, v8::Local<v8::Value> signal, CancelFlag cancel,
                                   Work&& work, Complete&& complete) {
  v8::Local<v8::Promise::Resolver> resolver =
      v8::Promise::Resolver::New(runtime->context()).ToLocalChecked();
  // Everything the job carries, in one allocation that travels to the pool
  // and back: the lambdas below then hold one pointer each (inline in their
  // tasks, no allocation of their own).
  struct Job {
    Runtime* runtime;
    std::shared_ptr<loop::EventLoop> loop;
    uint64_t id;
    std::decay_t<Work> work;
    std::decay_t<Complete> complete;
    std::optional<Result> result;

    static void* operator new(std::size_t bytes) { return AllocateJob(bytes); }
    static void operator delete(void* job, std::size_t bytes) { FreeJob(job, bytes); }
  };
  auto job = std::unique_ptr<Job>(
      new Job{runtime, runtime->event_loop().shared_from_this(),
              runtime->pending_promises().Add(resolver, signal, std::move(cancel)),
              std::forward<Work>(work), std::forward<Complete>(complete), std::nullopt});
  // Pending native work keeps the runtime alive until it completes (J3).
  runtime->event_loop().Ref();
  loop::ThreadPool::Shared().Submit([job = std::move(job)]() mutable {
    // Pool thread.
    job->result.emplace(job->work());
    std::shared_ptr<loop::EventLoop> loop = std::move(job->loop);  // released here, not at home
    loop->PostInternal([job = std::move(job)]() mutable {
      // Home thread (only ever runs while the runtime is alive: its
      // EventLoop refuses and drops entries once it is shut down).
      Runtime* runtime = job->runtime;
      runtime->event_loop().Unref();
      v8::HandleScope scope(runtime->isolate());
      PendingPromise pending = runtime->pending_promises().Take(job->id);
      if (pending.resolver.IsEmpty() || runtime->stopping()) return;
      Runtime::NativeCallbackScope in_callback(runtime);
      job->complete(runtime, pending, *job->result);
    });
  });
  return resolver->GetPromise();
}

}  // namespace internal

template <typename Result, typename Work, typename Complete>
v8::Local<v8::Promise> RunAsyncWithSignal(Runtime* runtime, v8::Local<v8::Value> signal,
                                          Work&& work, Complete&& complete) {
  return internal::RunAsyncJob<Result>(runtime, signal, nullptr, std::forward<Work>(work),
                                       std::forward<Complete>(complete));
}

template <typename Result, typename Work, typename Complete>
v8::Local<v8::Promise> RunAsyncAbortable(Runtime* runtime, v8::Local<v8::Value> signal, Work&& work,
                                         Complete&& complete) {
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  return internal::RunAsyncJob<Result>(
      runtime, signal, cancel,
      [work = std::forward<Work>(work), cancel]() mutable { return work(*cancel); },
      std::forward<Complete>(complete));
}

template <typename Result, typename Work, typename Complete>
v8::Local<v8::Promise> RunAsync(Runtime* runtime, Work&& work, Complete&& complete) {
  return RunAsyncWithSignal<Result>(
      runtime, v8::Local<v8::Value>(), std::forward<Work>(work),
      [complete = std::forward<Complete>(complete)](Runtime* runtime, const PendingPromise& pending,
                                                    Result& result) mutable {
        complete(runtime, pending.resolver, result);
      });
}

}  // namespace hostloop::runtime
