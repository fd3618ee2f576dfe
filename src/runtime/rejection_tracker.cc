#include "runtime/rejection_tracker.h"

#include <algorithm>

#include "runtime/runtime.h"

namespace hostloop::runtime {

void RejectionTracker::OnPromiseReject(v8::PromiseRejectMessage message) {
  v8::Local<v8::Promise> promise = message.GetPromise();
  v8::Isolate* isolate = promise->GetIsolate();
  Runtime* runtime = Runtime::From(isolate);
  if (runtime == nullptr) return;
  RejectionTracker& tracker = runtime->rejections();
  switch (message.GetEvent()) {
    case v8::kPromiseRejectWithNoHandler:
      tracker.Add(promise, message.GetValue());
      break;
    case v8::kPromiseHandlerAddedAfterReject:
      tracker.HandlerAdded(promise);
      break;
    case v8::kPromiseRejectAfterResolved:
    case v8::kPromiseResolveAfterResolved:
      break;
  }
}

void RejectionTracker::Add(v8::Local<v8::Promise> promise, v8::Local<v8::Value> reason) {
  v8::Isolate* isolate = runtime_->isolate();
  pending_at_.emplace(promise->GetIdentityHash(), pending_.size());
  pending_.push_back(
      Pending{v8::Global<v8::Promise>(isolate, promise), v8::Global<v8::Value>(isolate, reason)});
}

void RejectionTracker::HandlerAdded(v8::Local<v8::Promise> promise) {
  v8::Isolate* isolate = runtime_->isolate();
  const int hash = promise->GetIdentityHash();
  // Not reported yet: it simply stops being a candidate.
  auto [first, last] = pending_at_.equal_range(hash);
  for (auto it = first; it != last; ++it) {
    Pending& entry = pending_[it->second];
    if (!entry.promise.IsEmpty() && entry.promise.Get(isolate) == promise) {
      entry.promise.Reset();
      entry.reason.Reset();
      pending_at_.erase(it);
      return;
    }
  }
  // Reported already: `rejectionhandled` is a task of its own.
  auto [from, to] = reported_.equal_range(hash);
  auto reported = from;
  while (reported != to &&
         (reported->second.promise.IsEmpty() || reported->second.promise.Get(isolate) != promise)) {
    ++reported;
  }
  if (reported == to) return;
  Pending entry{v8::Global<v8::Promise>(isolate, promise),
                v8::Global<v8::Value>(isolate, reported->second.reason.Get(isolate))};
  reported_.erase(reported);
  runtime_->event_loop().PostOrdered([runtime = runtime_, entry = std::move(entry)]() {
    v8::Isolate* isolate = runtime->isolate();
    v8::HandleScope scope(isolate);
    v8::Local<v8::Function> dispatch;
    if (!runtime->InternalFunction("dispatchRejectionHandled").ToLocal(&dispatch)) return;
    v8::Local<v8::Value> argv[] = {entry.promise.Get(isolate), entry.reason.Get(isolate)};
    runtime->CallAndReport(dispatch, v8::Undefined(isolate), 2, argv);
  });
}

void RejectionTracker::ProcessPending() {
  if (pending_at_.empty()) {
    pending_.clear();  // all handled before the checkpoint ended
    return;
  }
  auto batch = std::make_shared<std::vector<Pending>>(std::move(pending_));
  pending_.clear();
  pending_at_.clear();
  runtime_->event_loop().PostOrdered(
      [runtime = runtime_, batch] { runtime->rejections().Notify(*batch); });
}

void RejectionTracker::Notify(std::vector<Pending>& batch) {
  if (runtime_->stopping()) return;
  v8::Isolate* isolate = runtime_->isolate();
  v8::HandleScope scope(isolate);
  if (reported_.size() >= sweep_at_) {
    // Forget reported promises that were collected meanwhile.
    std::erase_if(reported_, [](const auto& item) { return item.second.promise.IsEmpty(); });
    sweep_at_ = std::max<std::size_t>(64, reported_.size() * 2);
  }
  v8::Local<v8::Function> dispatch;
  bool have_dispatch = runtime_->InternalFunction("dispatchUnhandledRejection").ToLocal(&dispatch);
  for (Pending& entry : batch) {
    if (runtime_->stopping()) break;
    if (entry.promise.IsEmpty()) continue;  // handled before the checkpoint ended
    v8::HandleScope entry_scope(isolate);
    v8::Local<v8::Promise> promise = entry.promise.Get(isolate);
    v8::Local<v8::Value> reason = entry.reason.Get(isolate);
    // Handled since (HTML: "if p's [[PromiseIsHandled]] is true, continue").
    if (promise->HasHandler()) continue;
    // A listener that throws is reported (and may stop the program), but
    // the rejection is reported too before anything stops.
    Runtime::StopDeferral defer_stop(runtime_);
    bool not_canceled = true;
    if (runtime_->options().unhandled_rejections != RejectionPolicy::kNone && have_dispatch) {
      v8::Local<v8::Value> argv[] = {promise, reason};
      v8::Local<v8::Value> result;
      // (CallAndReport, but telling a termination from a throw.)
      v8::TryCatch try_catch(isolate);
      if (dispatch->Call(runtime_->context(), v8::Undefined(isolate), 2, argv).ToLocal(&result)) {
        not_canceled = result->IsTrue();
      } else if (try_catch.HasTerminated()) {
        // Stopped from outside while a listener ran (a worker's
        // terminate()): nothing more of this runtime is reported (its
        // reason would be half-formatted by now anyway).
        break;
      } else if (try_catch.HasCaught()) {
        runtime_->ReportException(try_catch.Exception(), try_catch.Message());
      }
    }
    if (runtime_->stopping()) break;
    // A handler attached by a listener makes it handled after all.
    if (promise->HasHandler()) not_canceled = false;
    if (not_canceled) {
      switch (runtime_->options().unhandled_rejections) {
        case RejectionPolicy::kThrow:
          runtime_->HandleUnhandled(reason, v8::Exception::CreateMessage(isolate, reason),
                                    "Uncaught (in promise)", true);
          break;
        case RejectionPolicy::kWarn:
          // A warning where it happened, in a worker too: nothing goes to
          // the parent's Worker object (where the parent's own policy for
          // uncaught errors would end the program), as node warns and runs
          // on, and as HTML reports rejections on the worker's own global.
          runtime_->PrintError(reason, v8::Exception::CreateMessage(isolate, reason),
                               "Uncaught (in promise)", true);
          break;
        case RejectionPolicy::kNone:
          break;
      }
    }
    // `none` fires no unhandledrejection, so no rejectionhandled may follow
    // (HTML pairs them: only a promise in the "outstanding rejected promises
    // weak set", which the unhandledrejection step adds to, gets one).
    if (runtime_->options().unhandled_rejections != RejectionPolicy::kNone) Report(promise, reason);
  }
}

void RejectionTracker::Report(v8::Local<v8::Promise> promise, v8::Local<v8::Value> reason) {
  v8::Isolate* isolate = runtime_->isolate();
  Pending reported{v8::Global<v8::Promise>(isolate, promise),
                   v8::Global<v8::Value>(isolate, reason)};
  reported.promise.SetWeak();
  reported.reason.SetWeak();
  reported_.emplace(promise->GetIdentityHash(), std::move(reported));
}

}  // namespace hostloop::runtime
