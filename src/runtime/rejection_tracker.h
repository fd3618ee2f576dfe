// RejectionTracker: J5. V8 tells us when a promise is rejected with no
// handler and when a handler arrives later; we report at the end of each
// microtask checkpoint (LESSONS 10), not when V8's callback fires, so a
// rejection handled within the same turn is never reported.
//
// https://html.spec.whatwg.org/multipage/webappapis.html#unhandled-promise-rejections
#pragma once

#include <v8.h>

#include <cstddef>
#include <unordered_map>
#include <vector>

namespace hostloop::runtime {

class Runtime;

class RejectionTracker {
 public:
  explicit RejectionTracker(Runtime* runtime) : runtime_(runtime) {}

  static void OnPromiseReject(v8::PromiseRejectMessage message);

  // At the end of a microtask checkpoint (HTML "notify about rejected
  // promises"): the rejections still unhandled go to a task of their own,
  // which dispatches `unhandledrejection` for each one not handled by then
  // and applies the policy to the uncanceled ones. A task, not more work in
  // this checkpoint: a listener that rejects another promise must not keep
  // the loop from its timers (L4).
  void ProcessPending();

 private:
  struct Pending {
    v8::Global<v8::Promise> promise;  // empty: handled before it was reported
    v8::Global<v8::Value> reason;
  };
  void Add(v8::Local<v8::Promise> promise, v8::Local<v8::Value> reason);
  void HandlerAdded(v8::Local<v8::Promise> promise);
  void Report(v8::Local<v8::Promise> promise, v8::Local<v8::Value> reason);
  // The task ProcessPending posts.
  void Notify(std::vector<Pending>& batch);

  Runtime* const runtime_;
  // Rejected without a handler, not yet reported, in rejection order; and
  // where each is in it, by the promise's identity hash (a handler arriving
  // finds its promise without a scan: 100k rejections handled one by one
  // took quadratic time).
  std::vector<Pending> pending_;
  std::unordered_multimap<int, std::size_t> pending_at_;
  // Reported as unhandled, by identity hash; weak, for `rejectionhandled`.
  // Collected ones are swept when the map has doubled since the last sweep.
  std::unordered_multimap<int, Pending> reported_;
  std::size_t sweep_at_ = 64;
};

}  // namespace hostloop::runtime
