// RejectionTracker: J5. V8 tells us when a promise is rejected with no
// handler and when a handler arrives later; we report at the end of each
// microtask checkpoint (LESSONS 10), not when V8's callback fires, so a
// rejection handled within the same turn is never reported.
//
// https://html.spec.whatwg.org/multipage/webappapis.html#unhandled-promise-rejections
#pragma once

#include <v8.h>

#include <vector>

namespace hostloop::runtime {

class Runtime;

class RejectionTracker {
 public:
  explicit RejectionTracker(Runtime* runtime) : runtime_(runtime) {}

  static void OnPromiseReject(v8::PromiseRejectMessage message);

  // After a microtask checkpoint: dispatches `unhandledrejection` for each
  // rejection still unhandled and applies the policy to the uncanceled ones.
  // Returns whether it ran any JS (so another checkpoint is due).
  bool ProcessPending();
  bool has_pending() const { return !pending_.empty(); }

 private:
  struct Pending {
    v8::Global<v8::Promise> promise;
    v8::Global<v8::Value> reason;
  };
  void Add(v8::Local<v8::Promise> promise, v8::Local<v8::Value> reason);
  void HandlerAdded(v8::Local<v8::Promise> promise);

  Runtime* const runtime_;
  // Rejected without a handler, not yet reported.
  std::vector<Pending> pending_;
  // Reported as unhandled; weak, for `rejectionhandled`.
  std::vector<Pending> reported_;
};

}  // namespace hostloop::runtime
