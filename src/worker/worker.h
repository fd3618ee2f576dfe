// Web Workers (W1-W5): each Worker runs its script on its own thread with its
// own Looper, isolate, Runtime and EventLoop.
// https://html.spec.whatwg.org/multipage/workers.html
//
// Parent side (the creating runtime's home thread):
//   WorkerRegistry  one per parent runtime (a RuntimeExtension); owns the
//                   WorkerHosts and terminates and joins them all when the
//                   parent runtime goes away.
//   WorkerHost      one per `new Worker()`: the JS Worker object's native
//                   side; receives the worker's messages (a PortReceiver) and
//                   its errors; keeps the parent alive while the worker runs.
// Worker side (the new thread):
//   WorkerThread    creates the runtime, runs the script, opens the inbound
//                   message queue once the script (and its top-level await)
//                   finished (W3), forwards unhandled errors to the parent
//                   (J4), and tells the parent when it is gone.
//
// Messages both ways ride a PortCore pair, so a message is a task of its own
// on the receiving runtime's internal lane (L4); the parent's EventLoop for
// the worker exists before the thread does, so early messages are buffered
// (L2). terminate() (W4) closes the channel, interrupts JS with
// TerminateExecution, and quits the worker's Looper; the thread is joined
// when it reports its exit.
#pragma once

#include <v8.h>

#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <unordered_map>

#include "base/read_canceller.h"
#include "base/thread_annotations.h"
#include "loop/event_loop.h"
#include "loop/looper.h"
#include "runtime/message_port.h"
#include "runtime/runtime.h"

namespace hostloop::worker {

// Adds the Worker natives to every runtime's host object. Call once, before
// V8 is initialized (the CLI and the snapshot tool do).
void RegisterWorkerBindings();

// What a worker's uncaught error looks like to its parent: the ErrorEvent's
// message ("Uncaught Error: boom") and location, and what rebuilds the error.
struct ErrorReport : runtime::ErrorLocation {
  std::string name;          // the error's own name and message, to rebuild it
  std::string error_message;
  std::string stack;
  // A primitive was thrown (`throw "text"`): the notice carrying this report
  // holds it, serialized, and the parent reports that same value.
  bool primitive = false;
  // An object that is not an Error was thrown: `error_message` is what V8
  // calls it without running script ("#<Object>"), reported as is.
  bool non_error_object = false;
};

// State both threads touch.
struct WorkerShared {
  base::Mutex mutex;
  // The worker's isolate while TerminateExecution may be called on it.
  v8::Isolate* isolate GUARDED_BY(mutex) = nullptr;
  std::shared_ptr<loop::LooperRemote> looper GUARDED_BY(mutex);
  bool terminate_requested GUARDED_BY(mutex) = false;
  // The worker runtime's reads of its script and modules: a FIFO that nobody
  // writes would hold its thread, and the parent joining it, forever.
  const std::shared_ptr<base::ReadCanceller> reads = std::make_shared<base::ReadCanceller>();
};

class WorkerThread;

class WorkerHost final : public runtime::PortReceiver {
 public:
  WorkerHost(runtime::Runtime* parent, uint64_t id, v8::Local<v8::Object> object);
  ~WorkerHost() override;

  // Starts the thread. `url` is absolute.
  void Start(const std::string& url, const runtime::WorkerInfo& info);
  void PostMessage(std::unique_ptr<runtime::SerializedMessage> message);
  // W4: prompt, drops queued messages both ways, no event afterwards.
  void Terminate();

  // From the worker thread, on the parent's home thread:
  void OnError(const ErrorReport& report, runtime::SerializedMessage& notice);
  void OnLoadFailed(const ErrorReport& report);
  // The `error` Event of a worker that never ran, after printing `why`.
  void FireLoadError(const std::string& why);
  void OnExited();
  // Once the worker's last messages are delivered, forgets the worker
  // (joins its thread). May destroy this host.
  void FinishWhenDrained();

  // PortReceiver: a message from the worker, to the Worker object.
  void Deliver(runtime::SerializedMessage& message) override;

  bool exited() const { return exited_; }
  uint64_t id() const { return id_; }

 private:
  void ReleaseParent();

  runtime::Runtime* const parent_;
  const uint64_t id_;
  v8::Global<v8::Object> object_;
  std::shared_ptr<runtime::PortCore> parent_end_;
  std::shared_ptr<WorkerShared> shared_;
  std::unique_ptr<WorkerThread> thread_;
  bool terminated_ = false;
  bool exited_ = false;
  bool holds_parent_ = false;
};

class WorkerRegistry final : public runtime::RuntimeExtension {
 public:
  static WorkerRegistry& For(runtime::Runtime* runtime);
  ~WorkerRegistry() override;

  WorkerHost* Create(runtime::Runtime* parent, v8::Local<v8::Object> object);
  WorkerHost* Find(uint64_t id);
  // Joins and forgets an exited worker.
  void Remove(uint64_t id);
  std::size_t size() const { return workers_.size(); }

 private:
  std::unordered_map<uint64_t, std::unique_ptr<WorkerHost>> workers_;
  uint64_t next_id_ = 1;
};

}  // namespace hostloop::worker
