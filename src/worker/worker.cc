#include "worker/worker.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <system_error>
#include <utility>
#include <vector>

#include "base/check.h"
#include "runtime/data_url.h"
#include "runtime/file_url.h"
#include "runtime/host_bindings.h"
#include "runtime/serializer.h"
#include "runtime/v8_util.h"

namespace hostloop::worker {

using runtime::Runtime;
using runtime::V8String;
using runtime::V8Symbol;

// ---- WorkerThread: the worker's side, on its own thread ---------------------

class WorkerThread final : public runtime::RuntimeDelegate, public runtime::PortReceiver {
 public:
  struct Params {
    std::string url;
    runtime::WorkerInfo info;
    std::shared_ptr<WorkerShared> shared;
    std::shared_ptr<runtime::PortCore> worker_end;
    std::shared_ptr<loop::EventLoop> worker_loop;
    std::shared_ptr<loop::EventLoop> parent_loop;
    Runtime* parent;
    uint64_t id;
    runtime::RuntimeOptions parent_options;
    // The parent writes around a REPL prompt: hand it the worker's output.
    bool forward_output = false;
  };

  explicit WorkerThread(Params params) : params_(std::move(params)) {}
  ~WorkerThread() override { Join(); }

  void Start() {
    thread_ = std::thread([this] { Main(); });
  }
  void Join() {
    if (thread_.joinable()) thread_.join();
  }

  // The worker runtime of the calling thread, if it is a worker thread.
  static WorkerThread* Current() { return current_; }

  // self.postMessage: to the Worker object in the parent.
  void PostToParent(std::unique_ptr<runtime::SerializedMessage> message) {
    params_.worker_end->PostToPeer(runtime_, std::move(message));
  }

  // self.close(): the current task finishes, nothing after it runs, and
  // messages queued for the worker are dropped (W4). What the closing task
  // still posts reaches the parent (HTML: close() only sets the closing
  // flag; the worker's port stays entangled until the worker has ended).
  void Close() {
    closing_ = true;
    runtime_->looper()->Quit();
  }

  Runtime* runtime() const { return runtime_; }

  // RuntimeDelegate: the inbound queue opens once the script, its top-level
  // await included, has finished (W3: a deliberate deviation from HTML,
  // which opens it at the first await).
  void OnMainSettled(bool ok) override {
    main_settled_ = true;
    if (!closing_) params_.worker_end->Enable();
    UpdateKeepAlive();
  }

  // Whether the worker's global has a `message` listener (js/worker.js).
  void SetListening(bool listening) {
    listening_ = listening;
    UpdateKeepAlive();
  }

  // RuntimeDelegate: an error nobody in the worker canceled goes to the
  // Worker object's `error` event in the parent (J4).
  bool OnUnhandledError(v8::Local<v8::Value> error,
                        const runtime::ErrorLocation& location) override {
    ErrorReport report = MakeReport(error, location);
    if (runtime_->main_state() == Runtime::MainState::kNotStarted) {
      PostToParentLoop([report](WorkerHost* host) { host->OnLoadFailed(report); });
      return true;
    }
    // Behind the messages this worker posted before it (J4: "post the
    // result, then fail" must not lose or overtake the result).
    std::unique_ptr<runtime::SerializedMessage> notice;
    if (report.primitive) {
      // (Serializing a primitive runs no script and cannot fail.)
      v8::TryCatch try_catch(runtime_->isolate());
      notice = runtime::Serialize(runtime_, error, v8::Undefined(runtime_->isolate()));
    }
    if (!notice) {
      // A symbol cannot be serialized: reported by its description.
      if (report.primitive) report.non_error_object = true;
      report.primitive = false;
      notice = std::make_unique<runtime::SerializedMessage>();
    }
    notice->attach().notice = std::make_shared<const ErrorReport>(std::move(report));
    PostToParent(std::move(notice));
    return true;
  }

  // V8 is about to run out of heap in this worker: as node does, the worker
  // ends (its JS is terminated, its loop quits) with an error for its Worker
  // object in the parent, instead of V8's fatal error taking the whole
  // process down. The limit is raised so that the JS can unwind.
  static size_t NearHeapLimit(void* data, size_t current_limit, size_t initial_limit) {
    auto* self = static_cast<WorkerThread*>(data);
    if (!self->out_of_memory_ && self->runtime_ != nullptr) {
      self->out_of_memory_ = true;
      ErrorReport report;
      report.name = "RangeError";
      report.error_message =
          "Worker terminated: it ran out of memory (the JavaScript heap limit was reached)";
      report.message = "Uncaught RangeError: " + report.error_message;
      report.filename = self->params_.url;
      auto notice = std::make_unique<runtime::SerializedMessage>();
      notice->attach().notice = std::make_shared<const ErrorReport>(std::move(report));
      self->PostToParent(std::move(notice));
      self->Close();
      self->runtime_->isolate()->TerminateExecution();
    }
    return current_limit + initial_limit;
  }

  // RuntimeDelegate: stdout is gone; the whole program stops (exit 1), not
  // only this worker (the parent would run on, or exit 0).
  void OnOutputClosed() override {
    Runtime* parent = params_.parent;
    params_.parent_loop->PostInternal([parent] { parent->StopForClosedOutput(); });
  }

  // PortReceiver: a message from the parent, to the worker's global.
  void Deliver(runtime::SerializedMessage& message) override {
    if (closing_) return;
    v8::HandleScope scope(runtime_->isolate());
    runtime::DispatchMessageEvent(runtime_, runtime_->context()->Global(), message);
  }

 private:
  ErrorReport MakeReport(v8::Local<v8::Value> error, const runtime::ErrorLocation& location) {
    v8::Isolate* isolate = runtime_->isolate();
    v8::Local<v8::Context> context = runtime_->context();
    ErrorReport report;
    static_cast<runtime::ErrorLocation&>(report) = location;
    // Reporting runs no script (HTML: reportError() and worker errors invoke
    // no getters): data properties only, never a getter, a Proxy trap or a
    // toString.
    if (error->IsObject() && !error->IsProxy()) {
      v8::Local<v8::Object> object = error.As<v8::Object>();
      auto read = [&](const char* key, std::string* out) {
        v8::Local<v8::Value> value = DataProperty(context, object, V8Symbol(isolate, key));
        if (!value.IsEmpty() && value->IsString()) *out = runtime::StdString(isolate, value);
      };
      read("stack", &report.stack);
      // A DOMException's name and message are accessors on its prototype;
      // its internal fields hold them, read without script.
      if (!runtime::ReadDOMException(isolate, error, &report.name, &report.error_message)) {
        read("name", &report.name);
        read("message", &report.error_message);
      }
      // Not an Error (no stack, no message): what it is, as V8 names it.
      if (report.stack.empty() && report.error_message.empty()) {
        report.error_message = NoScriptString(context, error);
        report.non_error_object = true;
      }
    } else if (!error->IsObject()) {
      report.error_message = NoScriptString(context, error);
      report.primitive = true;
    } else {
      report.error_message = NoScriptString(context, error);  // a Proxy
      report.non_error_object = true;
    }
    if (report.message.empty()) report.message = "Uncaught " + NoScriptString(context, error);
    return report;
  }

  // `object`'s property `key` if it is a data property (own or inherited,
  // up to the first accessor or Proxy), else empty.
  static v8::Local<v8::Value> DataProperty(v8::Local<v8::Context> context,
                                           v8::Local<v8::Object> object,
                                           v8::Local<v8::String> key) {
    v8::Isolate* isolate = context->GetIsolate();
    v8::TryCatch try_catch(isolate);
    v8::Local<v8::Value> holder = object;
    for (int depth = 0; depth < 64 && holder->IsObject() && !holder->IsProxy(); ++depth) {
      v8::Local<v8::Object> current = holder.As<v8::Object>();
      v8::Local<v8::Value> descriptor;
      if (!current->GetOwnPropertyDescriptor(context, key).ToLocal(&descriptor)) return {};
      if (descriptor->IsObject()) {
        v8::Local<v8::Object> fields = descriptor.As<v8::Object>();
        v8::Local<v8::String> value_key = V8Symbol(isolate, "value");
        if (!fields->HasOwnProperty(context, value_key).FromMaybe(false)) return {};  // an accessor
        return fields->Get(context, value_key).FromMaybe(v8::Local<v8::Value>());
      }
      holder = current->GetPrototype();
    }
    return {};
  }

  // A value as text without running script (V8's side-effect-free form:
  // "#<Object>", "Symbol(x)").
  static std::string NoScriptString(v8::Local<v8::Context> context, v8::Local<v8::Value> value) {
    v8::Local<v8::String> text;
    if (!value->ToDetailString(context).ToLocal(&text)) return "";
    return runtime::StdString(context->GetIsolate(), text);
  }

  // Runs `fn(host)` on the parent's home thread if the Worker still exists.
  template <typename F>
  void PostToParentLoop(F fn) {
    Runtime* parent = params_.parent;
    uint64_t id = params_.id;
    params_.parent_loop->PostInternal([parent, id, fn = std::move(fn)]() mutable {
      if (WorkerHost* host = WorkerRegistry::For(parent).Find(id)) fn(host);
    });
  }

  void Main() {
    current_ = this;
    // The parent's clock (an embedder's own TickClock too): the worker's
    // EventLoop was made with it, and it binds only to a Looper that shares
    // it.
    loop::Looper::Options looper_options;
    looper_options.clock = params_.worker_loop->clock();
    auto looper_result = loop::Looper::Create(looper_options);
    if (!looper_result.ok()) {
      NotifyExit();
      return;
    }
    std::unique_ptr<loop::Looper> looper = std::move(looper_result).value();
    runtime::RuntimeOptions options;
    options.uncaught_errors = params_.parent_options.uncaught_errors;
    options.unhandled_rejections = params_.parent_options.unhandled_rejections;
    options.event_loop = params_.worker_loop;
    options.delegate = this;
    options.worker = params_.info;
    options.read_canceller = params_.shared->reads;
    if (params_.forward_output) {
      // Written by the parent, on its thread, in the order posted; once the
      // parent's loop is gone the worker writes for itself.
      options.forward_output = [loop = params_.parent_loop, parent = params_.parent](
                                   std::string_view text, int stream) {
        return loop->PostInternal(
            [parent, text = std::string(text), stream] { parent->Print(text, stream); });
      };
    }
    auto created = Runtime::Create(looper.get(), std::move(options));
    if (!created.ok()) {
      ErrorReport report;
      report.message = created.error().message;
      report.filename = params_.url;
      PostToParentLoop([report](WorkerHost* host) { host->OnLoadFailed(report); });
      params_.worker_loop->Shutdown();
      NotifyExit();
      return;
    }
    std::unique_ptr<Runtime> runtime = std::move(created).value();
    runtime_ = runtime.get();
    runtime->isolate()->AddNearHeapLimitCallback(&WorkerThread::NearHeapLimit, this);
    bool terminated;
    {
      base::MutexLock lock(params_.shared->mutex);
      terminated = params_.shared->terminate_requested;
      if (!terminated) {
        params_.shared->isolate = runtime->isolate();
        params_.shared->looper = looper->remote();
      }
    }
    if (!terminated) {
      params_.worker_end->Attach(this, params_.worker_loop);
      // The entry script runs in the loop's first entry, as on main
      // (src/cli/main.cc): what it schedules takes its turn as from a task.
      loop::Looper* worker_looper = looper.get();
      worker_looper->Post([&] {
        bool started = params_.info.type == "module"
                           ? runtime->StartMainModule(params_.url, std::nullopt)
                           : runtime->StartClassicScript(params_.url);
        if ((!started && runtime->main_state() == Runtime::MainState::kNotStarted) || closing_) {
          worker_looper->Quit();
        }
      });
      Runtime::RunScope run_scope(runtime.get());
      worker_looper->Run();
      // The loop went idle with the top-level await still pending: nothing
      // left can settle it (said as for the main module; not after close()
      // or terminate(), which end the loop on purpose).
      bool terminate_requested;
      {
        base::MutexLock lock(params_.shared->mutex);
        terminate_requested = params_.shared->terminate_requested;
      }
      if (!closing_ && !terminate_requested &&
          runtime->main_state() == Runtime::MainState::kPending && !runtime->stopping()) {
        runtime->CheckUnsettledMain();
        runtime->Print(
            "  (a worker's messages are delivered once its top-level await has settled: one "
            "that waits for a message from the parent never ends; set onmessage instead)\n",
            2);
      }
    }
    {
      base::MutexLock lock(params_.shared->mutex);
      params_.shared->isolate = nullptr;
      params_.shared->looper.reset();
    }
    params_.worker_end->Detach();
    params_.worker_end->Close();
    runtime->isolate()->RemoveNearHeapLimitCallback(&WorkerThread::NearHeapLimit, 0);
    runtime_ = nullptr;
    runtime.reset();
    looper.reset();
    NotifyExit();
  }

  void NotifyExit() {
    current_ = nullptr;
    Runtime* parent = params_.parent;
    uint64_t id = params_.id;
    params_.parent_loop->PostInternal([parent, id] {
      if (WorkerHost* host = WorkerRegistry::For(parent).Find(id)) host->OnExited();
    });
  }

  // A `message` listener keeps the worker alive (J3: its parent may still
  // send it work) once messages can reach it: from the moment the entry
  // script, its top-level await included, has settled (W3). Before, it
  // would hold a worker whose top-level await nothing can settle for good,
  // and its parent with it.
  void UpdateKeepAlive() {
    const bool keep = listening_ && main_settled_;
    if (keep == keeps_alive_) return;
    keeps_alive_ = keep;
    if (keep) {
      runtime_->event_loop().Ref();
    } else {
      runtime_->event_loop().Unref();
    }
  }

  static thread_local WorkerThread* current_;
  Params params_;
  std::thread thread_;
  Runtime* runtime_ = nullptr;
  bool out_of_memory_ = false;  // NearHeapLimit ended it
  bool closing_ = false;
  bool listening_ = false;
  bool main_settled_ = false;
  bool keeps_alive_ = false;
};

thread_local WorkerThread* WorkerThread::current_ = nullptr;

// ---- WorkerHost: the parent's side --------------------------------------------

WorkerHost::WorkerHost(Runtime* parent, uint64_t id, v8::Local<v8::Object> object)
    : parent_(parent),
      id_(id),
      object_(parent->isolate(), object),
      shared_(std::make_shared<WorkerShared>()) {}

WorkerHost::~WorkerHost() {
  if (!exited_) Terminate();
  if (thread_) thread_->Join();
  if (parent_end_) parent_end_->Close();
  ReleaseParent();
}

void WorkerHost::Start(const std::string& url, const runtime::WorkerInfo& info) {
  auto [parent_end, worker_end] = runtime::PortCore::CreatePair();
  parent_end_ = std::move(parent_end);
  std::shared_ptr<loop::EventLoop> parent_loop = parent_->event_loop().shared_from_this();
  parent_end_->Attach(this, parent_loop);
  parent_end_->Enable();
  WorkerThread::Params params{url,
                              info,
                              shared_,
                              std::move(worker_end),
                              loop::EventLoop::Create(parent_->looper()->clock()),
                              parent_loop,
                              parent_,
                              id_,
                              parent_->options(),
                              parent_->forwards_output()};
  params.parent_options.event_loop.reset();
  params.parent_options.delegate = nullptr;
  params.parent_options.forward_output = nullptr;
  params.parent_options.read_canceller.reset();
  thread_ = std::make_unique<WorkerThread>(std::move(params));
  // A live worker keeps its parent alive (J3).
  parent_->event_loop().Ref();
  holds_parent_ = true;
  try {
    thread_->Start();
  } catch (const std::system_error& e) {
    // No thread for it (a pids limit, RLIMIT_NPROC, no memory for a stack):
    // this worker fails as one whose script cannot load does, with an
    // `error` event, in a task of its own (the constructor is still running);
    // the program goes on.
    runtime::Runtime* parent = parent_;
    parent_->event_loop().PostInternal([parent, id = id_, reason = std::string(e.what())] {
      WorkerHost* host = WorkerRegistry::For(parent).Find(id);
      if (host == nullptr) return;
      host->FireLoadError("hostloop: a worker could not start: no thread for it (" + reason +
                          ")\n");
      host->OnExited();
    });
  }
}

void WorkerHost::ReleaseParent() {
  if (!holds_parent_) return;
  holds_parent_ = false;
  parent_->event_loop().Unref();
}

void WorkerHost::PostMessage(std::unique_ptr<runtime::SerializedMessage> message) {
  if (terminated_ || exited_ || !parent_end_) return;
  parent_end_->PostToPeer(parent_, std::move(message));
}

void WorkerHost::Terminate() {
  if (terminated_) return;
  terminated_ = true;
  // Messages queued either way are dropped (both ends close); nothing
  // reaches the Worker object from now on.
  if (parent_end_) {
    std::shared_ptr<runtime::PortCore> worker_end = parent_end_->peer();
    parent_end_->Close();
    if (worker_end) worker_end->Close();
  }
  {
    base::MutexLock lock(shared_->mutex);
    shared_->terminate_requested = true;
    // Stops JS even inside an endless loop (W4), or inside Atomics.wait.
    if (shared_->isolate != nullptr) runtime::TerminateFromAnotherThread(shared_->isolate);
    if (shared_->looper) shared_->looper->Quit();
  }
  // Stops a wait in the loading of its script or modules, outside JS.
  shared_->reads->Cancel();
  ReleaseParent();
}

void WorkerHost::Deliver(runtime::SerializedMessage& message) {
  if (terminated_) return;
  if (message.is_notice()) {
    // Only the worker sends notices on this queue: its uncaught errors.
    auto report =
        std::static_pointer_cast<const ErrorReport>(std::move(message.attachments->notice));
    OnError(*report, message);
    return;
  }
  v8::HandleScope scope(parent_->isolate());
  runtime::DispatchMessageEvent(parent_, object_.Get(parent_->isolate()), message);
}

namespace {

// "\n    at FILE:LINE:COL": a stack line for where `report` happened.
std::string AtLine(const ErrorReport& report) {
  return "\n    at " + report.filename + ":" + std::to_string(report.lineno) + ":" +
         std::to_string(report.colno);
}

}  // namespace

void WorkerHost::OnError(const ErrorReport& report, runtime::SerializedMessage& notice) {
  if (terminated_ || parent_->stopping()) return;
  v8::Isolate* isolate = parent_->isolate();
  v8::HandleScope scope(isolate);
  v8::Local<v8::Context> context = parent_->context();
  v8::Local<v8::Function> dispatch;
  if (!parent_->InternalFunction("dispatchWorkerError").ToLocal(&dispatch)) return;
  v8::Local<v8::Value> argv[] = {
      object_.Get(isolate), V8String(isolate, report.message), V8String(isolate, report.filename),
      v8::Integer::New(isolate, report.lineno), v8::Integer::New(isolate, report.colno)};
  v8::Local<v8::Value> not_canceled;
  if (!parent_->CallAndReport(dispatch, v8::Undefined(isolate), 5, argv).ToLocal(&not_canceled) ||
      !not_canceled->IsTrue()) {
    return;
  }
  // Not canceled at the Worker object: the parent reports it as its own
  // (its global `error` event with the worker's message and location, then
  // stderr and the policy). A thrown primitive is reported as itself
  // (`Uncaught 'text'`, as on the main thread), not as an Error.
  if (report.primitive) {
    v8::Local<v8::Value> value;
    v8::TryCatch try_catch(isolate);
    if (runtime::Deserialize(parent_, notice, nullptr).ToLocal(&value)) {
      parent_->ReportExceptionAt(value, report.message, report.filename, report.lineno,
                                 report.colno);
      return;
    }
  }
  // Of the worker error's own type where V8 makes one (a TypeError was
  // reported as "Error [TypeError]"); any other name is set on an Error.
  struct Kind {
    const char* name;
    v8::Local<v8::Value> (*make)(v8::Local<v8::String>);
  };
  static constexpr Kind kKinds[] = {{"Error", v8::Exception::Error},
                                    {"TypeError", v8::Exception::TypeError},
                                    {"RangeError", v8::Exception::RangeError},
                                    {"SyntaxError", v8::Exception::SyntaxError},
                                    {"ReferenceError", v8::Exception::ReferenceError}};
  const Kind* kind = std::find_if(std::begin(kKinds), std::end(kKinds),
                                  [&](const Kind& k) { return report.name == k.name; });
  v8::Local<v8::String> text = V8String(isolate, report.error_message);
  v8::Local<v8::Value> error =
      kind != std::end(kKinds) ? kind->make(text) : v8::Exception::Error(text);
  v8::Local<v8::Object> object = error.As<v8::Object>();
  if (!report.name.empty() && kind == std::end(kKinds)) {
    object->Set(context, V8Symbol(isolate, "name"), V8String(isolate, report.name))
        .FromMaybe(false);
  }
  std::string stack = !report.stack.empty()     ? report.stack
                      : report.non_error_object ? report.error_message
                                                : (report.name.empty() ? "Error" : report.name) +
                                                      ": " + report.error_message;
  if (!report.filename.empty() && stack.find("\n    at ") == std::string::npos) {
    stack += AtLine(report);
  }
  object->Set(context, V8Symbol(isolate, "stack"), V8String(isolate, stack)).FromMaybe(false);
  parent_->ReportExceptionAt(error, report.message, report.filename, report.lineno, report.colno);
}

void WorkerHost::OnLoadFailed(const ErrorReport& report) {
  // HTML "run a worker": a script that cannot be fetched or parsed fires a
  // plain `error` Event at the Worker object; nothing is reported further and
  // the parent goes on. The reason goes to stderr for the developer.
  if (terminated_ || parent_->stopping()) return;
  std::string reason = report.error_message.empty() ? report.message : report.error_message;
  if (!report.name.empty() && report.name != "Error" && !report.error_message.empty()) {
    reason = report.name + ": " + reason;
  }
  // Where, when the error has a place (a syntax error deep in the worker's
  // module graph names the module and line, not just the token).
  if (!report.filename.empty() && report.lineno > 0) reason += AtLine(report);
  FireLoadError("hostloop: a worker's script could not be loaded: " + reason + "\n");
}

void WorkerHost::FireLoadError(const std::string& why) {
  if (terminated_ || parent_->stopping()) return;
  parent_->Print(why, 2);
  v8::Isolate* isolate = parent_->isolate();
  v8::HandleScope scope(isolate);
  v8::Local<v8::Function> fire;
  if (!parent_->InternalFunction("fireWorkerLoadError").ToLocal(&fire)) return;
  v8::Local<v8::Value> argv[] = {object_.Get(isolate)};
  parent_->CallAndReport(fire, v8::Undefined(isolate), 1, argv);
}

void WorkerHost::OnExited() {
  exited_ = true;
  ReleaseParent();
  FinishWhenDrained();
}

void WorkerHost::FinishWhenDrained() {
  // Messages the worker posted before it ended are still delivered (each
  // drain delivers a bounded batch, then waits for a later pass): the host
  // stays until its queue is empty, checking again after each such pass.
  if (!terminated_ && parent_end_ && parent_end_->has_queued()) {
    runtime::Runtime* parent = parent_;
    uint64_t id = id_;
    parent_->event_loop().PostInternal([parent, id] {
      if (WorkerHost* host = WorkerRegistry::For(parent).Find(id)) host->FinishWhenDrained();
    });
    return;
  }
  if (parent_end_) parent_end_->Close();
  object_.Reset();
  WorkerRegistry::For(parent_).Remove(id_);  // destroys this host: last statement
}

// ---- WorkerRegistry -------------------------------------------------------------

WorkerRegistry& WorkerRegistry::For(Runtime* runtime) {
  RuntimeExtension* existing = runtime->extension(runtime::ExtensionSlot::kWorkers);
  if (existing == nullptr) {
    runtime->set_extension(runtime::ExtensionSlot::kWorkers, std::make_unique<WorkerRegistry>());
    existing = runtime->extension(runtime::ExtensionSlot::kWorkers);
  }
  return *static_cast<WorkerRegistry*>(existing);
}

WorkerRegistry::~WorkerRegistry() {
  // The parent is going away: stop every worker, then wait for the threads.
  for (auto& [id, host] : workers_) host->Terminate();
  workers_.clear();
}

WorkerHost* WorkerRegistry::Create(Runtime* parent, v8::Local<v8::Object> object) {
  uint64_t id = next_id_++;
  auto host = std::make_unique<WorkerHost>(parent, id, object);
  WorkerHost* raw = host.get();
  workers_.emplace(id, std::move(host));
  return raw;
}

WorkerHost* WorkerRegistry::Find(uint64_t id) {
  auto it = workers_.find(id);
  return it == workers_.end() ? nullptr : it->second.get();
}

void WorkerRegistry::Remove(uint64_t id) {
  auto it = workers_.find(id);
  if (it == workers_.end()) return;
  std::unique_ptr<WorkerHost> host = std::move(it->second);
  workers_.erase(it);
  // ~WorkerHost joins the (finished) thread.
}

// ---- Bindings ---------------------------------------------------------------------

namespace {

Runtime* RuntimeOf(const v8::FunctionCallbackInfo<v8::Value>& info) {
  return Runtime::From(info.GetIsolate());
}

void ThrowSyntaxErrorDOMException(v8::Isolate* isolate, const std::string& message) {
  runtime::ThrowDOMException(isolate, V8String(isolate, message), "SyntaxError");
}

// workerCreate(workerObject, url, type, name) -> id
void WorkerCreate(const v8::FunctionCallbackInfo<v8::Value>& info) {
  Runtime* runtime = RuntimeOf(info);
  v8::Isolate* isolate = info.GetIsolate();
  if (info.Length() < 4 || !info[0]->IsObject()) {
    runtime::ThrowTypeError(isolate, "workerCreate(object, url, type, name)");
    return;
  }
  std::string url = runtime::StdString(isolate, info[1]);
  // Relative to the creating script's base URL (like a document's): "w.mjs"
  // means "./w.mjs".
  std::string base =
      runtime->base_url().empty() ? runtime::CurrentDirectoryUrl() : runtime->base_url();
  base::Result<std::string> resolved = runtime::ParseUrl(url, base);
  if (!resolved.ok() ||
      (resolved.value().rfind("file://", 0) != 0 && !runtime::IsDataUrl(resolved.value()))) {
    ThrowSyntaxErrorDOMException(
        isolate, "Failed to construct 'Worker': The script URL '" + url +
                     "' is invalid or not supported (hostloop runs file: and data: workers)." +
                     (resolved.ok() ? "" : " " + resolved.error().message));
    return;
  }
  runtime::WorkerInfo worker_info{runtime::StdString(isolate, info[3]),
                                  runtime::StdString(isolate, info[2]), resolved.value()};
  WorkerHost* host = WorkerRegistry::For(runtime).Create(runtime, info[0].As<v8::Object>());
  host->Start(resolved.value(), worker_info);
  info.GetReturnValue().Set(v8::Number::New(isolate, static_cast<double>(host->id())));
}

WorkerHost* HostFromId(const v8::FunctionCallbackInfo<v8::Value>& info) {
  if (info.Length() < 1 || !info[0]->IsNumber()) return nullptr;
  return WorkerRegistry::For(RuntimeOf(info))
      .Find(static_cast<uint64_t>(info[0].As<v8::Number>()->Value()));
}

// workerPostMessage(id, message, transfer)
void WorkerPostMessage(const v8::FunctionCallbackInfo<v8::Value>& info) {
  Runtime* runtime = RuntimeOf(info);
  // Serialized even when the worker is gone: DataCloneError still throws.
  std::unique_ptr<runtime::SerializedMessage> message =
      runtime::Serialize(runtime, info[1], info[2]);
  if (!message) return;
  if (WorkerHost* host = HostFromId(info)) host->PostMessage(std::move(message));
}

void WorkerTerminate(const v8::FunctionCallbackInfo<v8::Value>& info) {
  if (WorkerHost* host = HostFromId(info)) host->Terminate();
}

// workerGlobalPostMessage(message, transfer): self.postMessage in a worker.
void WorkerGlobalPostMessage(const v8::FunctionCallbackInfo<v8::Value>& info) {
  WorkerThread* worker = WorkerThread::Current();
  if (worker == nullptr) return;
  std::unique_ptr<runtime::SerializedMessage> message =
      runtime::Serialize(worker->runtime(), info[0], info[1]);
  if (message) worker->PostToParent(std::move(message));
}

void WorkerClose(const v8::FunctionCallbackInfo<v8::Value>& info) {
  if (WorkerThread* worker = WorkerThread::Current()) worker->Close();
}

// workerKeepAlive(bool): a `message` listener on the worker's global keeps
// the worker alive (it can still receive work from its parent).
void WorkerKeepAlive(const v8::FunctionCallbackInfo<v8::Value>& info) {
  if (WorkerThread* worker = WorkerThread::Current()) {
    worker->SetListening(info.Length() > 0 && info[0]->IsTrue());
  }
}

// importScripts(...urls): classic workers load and run scripts in order.
void ImportScripts(const v8::FunctionCallbackInfo<v8::Value>& info) {
  Runtime* runtime = RuntimeOf(info);
  v8::Isolate* isolate = info.GetIsolate();
  std::vector<std::string> urls;
  for (int i = 0; i < info.Length(); ++i) {
    std::string url = runtime::StdString(isolate, info[i]);
    // The JS side has checked that the URL parses (else SyntaxError); one
    // hostloop cannot load (another scheme, a remote file: host) fails as
    // a fetch does.
    base::Result<std::string> resolved = runtime::ParseUrl(url, runtime->base_url());
    if (!resolved.ok()) {
      runtime::ThrowDOMException(
          isolate,
          V8String(isolate, "Failed to execute 'importScripts': Cannot load script '" + url +
                                "': " + resolved.error().message),
          "NetworkError");
      return;
    }
    urls.push_back(resolved.value());
  }
  for (const std::string& url : urls) {
    if (!runtime->RunClassicScript(url)) return;
  }
}

const runtime::HostFunction kWorkerFunctions[] = {
    {"workerCreate", WorkerCreate},       {"workerPostMessage", WorkerPostMessage},
    {"workerTerminate", WorkerTerminate}, {"workerGlobalPostMessage", WorkerGlobalPostMessage},
    {"workerClose", WorkerClose},         {"workerKeepAlive", WorkerKeepAlive},
    {"importScripts", ImportScripts},
};

}  // namespace

void RegisterWorkerBindings() { runtime::RegisterHostExtension(kWorkerFunctions); }

}  // namespace hostloop::worker
