#include "runtime/runtime.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <utility>
#include <vector>

#include "base/check.h"
#include "base/file_util.h"
#include "runtime/broadcast_channel.h"
#include "runtime/builtin_liveness.h"
#include "runtime/data_url.h"
#include "runtime/file_url.h"
#include "runtime/fs_module.h"
#include "runtime/host_bindings.h"
#include "runtime/message_port.h"
#include "runtime/module_loader.h"
#include "runtime/native_module.h"
#include "runtime/realm.h"
#include "runtime/rejection_tracker.h"
#include "runtime/serializer.h"
#include "runtime/timers.h"
#include "runtime/v8_util.h"
#include "v8/array_buffer_allocator.h"
#include "v8/v8_process.h"

namespace hostloop::runtime {
namespace {

// The isolate a Runtime has entered on this thread (each thread keeps one
// entered at a time, switching between the runtimes that share its Looper:
// V8 10.2's v8::Exception::Error and friends use the thread's current
// isolate, and one runtime's error built in another's heap was fatal).
thread_local v8::Isolate* tls_entered_isolate = nullptr;
// The isolates of this thread's live runtimes (CallScope restores only one
// of these).
thread_local std::vector<v8::Isolate*> tls_live_isolates;

// Returns 0, or the errno that stopped the write (EPIPE: the reader is gone).
// A non-blocking stdout (a file description shared with a parent or a
// terminal that set O_NONBLOCK) is waited on until it takes the rest: on
// EAGAIN most of a program's output was dropped, with exit code 0.
int WriteAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        pollfd writable{fd, POLLOUT, 0};
        if (::poll(&writable, 1, -1) < 0 && errno != EINTR) return errno;
        continue;
      }
      return errno;
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

}  // namespace

base::Result<std::unique_ptr<Runtime>> Runtime::Create(loop::Looper* looper,
                                                       RuntimeOptions options) {
  std::unique_ptr<Runtime> runtime(new Runtime(looper, std::move(options)));
  TRY(runtime->Initialize());
  return runtime;
}

Runtime::Runtime(loop::Looper* looper, RuntimeOptions options)
    : looper_(looper), options_(std::move(options)) {
  if (!options_.read_canceller) options_.read_canceller = std::make_shared<base::ReadCanceller>();
  looper_->AddDependent();
  NoteRuntimeStarted();
}

base::Result<void> Runtime::Initialize() {
  CHECK(looper_->IsHomeThread());
  start_time_ = looper_->Now();
  v8host::HostPlatform* platform = v8host::V8Process::platform();
  time_origin_ms_ = platform->CurrentClockTimeMillis();
  event_loop_ =
      options_.event_loop ? options_.event_loop : loop::EventLoop::Create(looper_->clock());

  allocator_ = std::make_shared<v8host::ArrayBufferAllocator>();
  const v8::StartupData* snapshot = v8host::V8Process::snapshot();
  isolate_ = v8::Isolate::Allocate();
  tls_live_isolates.push_back(isolate_);
  // Registered before Initialize: V8 asks for the foreground runner inside
  // it, and whatever it posts then waits in the unbound loop (L2).
  runtime_key_ = platform->RegisterIsolate(isolate_, event_loop_);
  {
    base::MutexLock lock(remote_stop_->mutex_);
    remote_stop_->runtime_ = this;
    remote_stop_->isolate_ = isolate_;
    remote_stop_->looper_ = looper_->remote();
    remote_stop_->reads_ = options_.read_canceller;
  }
  v8::Isolate::CreateParams params;
  // Shared with every backing store the isolate allocates: a buffer may
  // outlive its isolate (a SharedArrayBuffer another thread still uses, the
  // bytes of a write still pending on the thread pool) and must still be
  // freed by its allocator.
  params.array_buffer_allocator_shared = allocator_;
  params.external_references = ExternalReferences();
  // CreateParams wants a mutable pointer; V8 only reads the blob.
  if (snapshot != nullptr) params.snapshot_blob = const_cast<v8::StartupData*>(snapshot);
  v8::Isolate::Initialize(isolate_, params);
  event_loop_->Bind(looper_);
  isolate_->SetData(kIsolateSlot, this);
  MakeCurrent();
  // Before each of this runtime's entries, its isolate becomes the thread's
  // current one again (another runtime on the Looper may have run).
  event_loop_->SetBeforeEntryHook([this] { MakeCurrent(); });
  // The host, not V8, decides when microtasks run: after every entry (L5).
  isolate_->SetMicrotasksPolicy(v8::MicrotasksPolicy::kExplicit);
  isolate_->SetPromiseRejectCallback(RejectionTracker::OnPromiseReject);
  isolate_->AddMessageListenerWithErrorLevel(OnUncaughtMessage, v8::Isolate::kMessageError);
  ModuleLoader::InstallCallbacks(isolate_);

  modules_ = std::make_unique<ModuleLoader>(this);
  timers_ = std::make_unique<Timers>(this);
  rejections_ = std::make_unique<RejectionTracker>(this);
  pending_promises_ = std::make_unique<PendingPromises>(this);
  modules_->RegisterBuiltin(
      "fs", [this](v8::Local<v8::Context> context) { return CreateFsModule(this, context); });
  for (const auto& [name, factory] : NativeModules()) {
    modules_->RegisterBuiltin(name, [this, factory = factory](v8::Local<v8::Context> context) {
      return factory(this, context);
    });
  }

  v8::HandleScope scope(isolate_);
  v8::Local<v8::FunctionTemplate> port_template;
  v8::Local<v8::Context> context;
  v8::Local<v8::Object> host;
  v8::Local<v8::Object> internals;
  if (snapshot != nullptr) {
    // The realm comes ready-made from the snapshot (realm.h).
    port_template =
        isolate_->GetDataFromSnapshotOnce<v8::FunctionTemplate>(kSnapshotPortTemplateIndex)
            .ToLocalChecked();
    context = v8::Context::New(isolate_);
    host = context->GetDataFromSnapshotOnce<v8::Object>(kSnapshotHostIndex).ToLocalChecked();
    internals =
        context->GetDataFromSnapshotOnce<v8::Object>(kSnapshotInternalsIndex).ToLocalChecked();
  } else {
    port_template = MessagePortHandle::CreateTemplate(isolate_);
    context = v8::Context::New(isolate_);
  }
  message_port_template_.Reset(isolate_, port_template);
  context_.Reset(isolate_, context);
  // The realm's context stays entered for the runtime's whole life: every
  // entry of this thread runs in it.
  context->Enter();
  if (snapshot == nullptr) TRY(BuildRealm(context, port_template, &host, &internals));
  internals_.Reset(isolate_, internals);
  SetRunHostProperties(this, host);
  // The per-run half of the realm (what a snapshot cannot hold).
  v8::Local<v8::Function> realm_started;
  if (InternalFunction("realmStarted").ToLocal(&realm_started)) {
    v8::TryCatch try_catch(isolate_);
    if (realm_started->Call(context, v8::Undefined(isolate_), 0, nullptr).IsEmpty()) {
      return base::Error{0, "realmStarted failed: " + StdString(isolate_, try_catch.Exception())};
    }
  }
  if (!WrapBuiltinsForLiveness(this)) return base::Error{0, "wrapping builtins failed"};
  resizable_buffers_ = !InternalFunction("resizableRange").IsEmpty();
  event_loop_->SetEntryHook([this] { Checkpoint(); });
  // Start-up is over: what V8 commits from now on, it is about to fill.
  platform->PopulateLargeCommits();
  return {};
}

Runtime::~Runtime() {
  looper_->RemoveDependent();
  if (isolate_ != nullptr) MakeCurrent();
  // Extensions first (they terminate and join this runtime's workers), while
  // the isolate still works.
  for (auto& extension : extensions_) extension.reset();
  NoteRuntimeEnded();
  stopping_ = true;
  {
    // Other threads' stop requests do nothing from now on.
    base::MutexLock lock(remote_stop_->mutex_);
    remote_stop_->runtime_ = nullptr;
    remote_stop_->isolate_ = nullptr;
  }
  if (isolate_ == nullptr) return;
  {
    v8::HandleScope scope(isolate_);
    // Drops every queued entry while the isolate can still release the
    // handles they hold (L7).
    event_loop_->Shutdown();
  }
  // Ports whose JS objects were never collected.
  while (!port_handles_.empty()) MessagePortHandle::Destroy(*port_handles_.begin());
  timers_.reset();
  modules_.reset();
  rejections_.reset();
  pending_promises_.reset();
  {
    v8::HandleScope scope(isolate_);
    if (!context_.IsEmpty()) context()->Exit();
  }
  message_port_template_.Reset();
  serializable_template_.Reset();
  dom_exception_prototype_.Reset();
  internal_functions_.clear();
  internals_.Reset();
  context_.Reset();
  MakeCurrent();
  tls_entered_isolate = nullptr;
  std::erase(tls_live_isolates, isolate_);
  isolate_->Exit();
  isolate_->Dispose();
  // After Dispose, matched on our key: a new isolate at this address keeps
  // its own registration (L11).
  v8host::V8Process::platform()->UnregisterIsolate(isolate_, runtime_key_);
  isolate_ = nullptr;
}

v8::MaybeLocal<v8::Function> Runtime::InternalFunction(const char* name) {
  // Cached by the name's address (callers pass string literals): these run
  // for every timer, message and task, and a property lookup by a freshly
  // internalized name cost more than the call itself.
  for (std::size_t i = 0; i < internal_functions_.size(); ++i) {
    if (internal_functions_[i].first != name) continue;
    // The ones called most drift to the front (a step per hit).
    if (i > 0) std::swap(internal_functions_[i], internal_functions_[i - 1]);
    return internal_functions_[i > 0 ? i - 1 : 0].second.Get(isolate_);
  }
  v8::EscapableHandleScope scope(isolate_);
  v8::Local<v8::Value> value;
  if (!internals()->Get(context(), V8Symbol(isolate_, name)).ToLocal(&value) ||
      !value->IsFunction()) {
    return {};
  }
  internal_functions_.emplace_back(name,
                                   v8::Global<v8::Function>(isolate_, value.As<v8::Function>()));
  return scope.Escape(value.As<v8::Function>());
}

std::unique_ptr<SerializedMessage> Runtime::TakeSpareMessage() {
  if (spare_messages_.empty()) return std::make_unique<SerializedMessage>();
  std::unique_ptr<SerializedMessage> message = std::move(spare_messages_.back());
  spare_messages_.pop_back();
  return message;
}

void Runtime::KeepSpareMessage(std::unique_ptr<SerializedMessage> message) {
  // Serialize takes one per post, and at most one comes back per post (from
  // Enqueue, or from a same-thread delivery), so a few suffice.
  constexpr std::size_t kMaxSpares = 16;
  if (spare_messages_.size() < kMaxSpares) spare_messages_.push_back(std::move(message));
}

namespace {

// Milliseconds from `start` to `t`. (A multiplication: a division, what
// duration<double, milli> does, took ~5 ns of every message's task.)
double MsBetween(loop::TimePoint start, loop::TimePoint t) {
  return static_cast<double>(std::chrono::nanoseconds(t - start).count()) * 1e-6;
}

}  // namespace

double Runtime::NowMs() const { return MsBetween(start_time_, looper_->clock()->Now()); }

double Runtime::EntryStartMs() const { return MsBetween(start_time_, looper_->EntryStartNow()); }

// ---- Main module -------------------------------------------------------------

bool Runtime::StartMainModule(const std::string& url, const std::optional<std::string>& source) {
  v8::HandleScope scope(isolate_);
  v8::Local<v8::Context> context = this->context();
  base_url_ = url;
  v8::Local<v8::Module> module;
  {
    v8::TryCatch try_catch(isolate_);
    if (!modules_->LoadAndInstantiate(url, source).ToLocal(&module)) {
      if (try_catch.HasCaught() && !try_catch.HasTerminated()) {
        if (options_.delegate == nullptr ||
            !options_.delegate->OnUnhandledError(
                try_catch.Exception(),
                ErrorLocation::Of(context, try_catch.Exception(), try_catch.Message()))) {
          PrintError(try_catch.Exception(), try_catch.Message(), "Uncaught");
          exit_code_ = kExitUncaught;
        }
      }
      MainSettled(false);
      return false;
    }
  }
  // A module that loaded and instantiated has started: what is reported
  // while it evaluates (reportError, a listener that throws) is a runtime
  // error (an ErrorEvent for a worker's parent), not a failure to load.
  main_state_ = MainState::kPending;
  v8::Local<v8::Value> result;
  {
    v8::TryCatch try_catch(isolate_);
    if (!module->Evaluate(context).ToLocal(&result)) {
      // (Still pending while a module an embedder started before is.)
      if (unsettled_modules_.empty()) main_state_ = MainState::kRejected;
      if (try_catch.HasCaught() && !try_catch.HasTerminated()) {
        ReportException(try_catch.Exception(), try_catch.Message());
      }
      CheckpointUnlessNested();
      MainSettled(false);
      return false;
    }
  }
  v8::Local<v8::Promise> promise = result.As<v8::Promise>();
  // An embedder may start several modules in one runtime: each is tracked
  // until its top-level await settles, and the runtime's main state stays
  // pending while any is (exit code 13 names them).
  const uint32_t id = ++last_module_id_;
  unsettled_modules_.push_back({id, url});
  v8::Local<v8::Array> data = v8::Array::New(isolate_, 2);
  data->Set(context, 0, v8::External::New(isolate_, this)).Check();
  data->Set(context, 1, v8::Integer::NewFromUnsigned(isolate_, id)).Check();
  static constexpr auto settled = [](const v8::FunctionCallbackInfo<v8::Value>& info, bool ok) {
    v8::Local<v8::Context> context = info.GetIsolate()->GetCurrentContext();
    v8::Local<v8::Array> data = info.Data().As<v8::Array>();
    auto* runtime =
        static_cast<Runtime*>(data->Get(context, 0).ToLocalChecked().As<v8::External>()->Value());
    const uint32_t id = data->Get(context, 1).ToLocalChecked()->Uint32Value(context).FromMaybe(0);
    std::string url;
    std::erase_if(runtime->unsettled_modules_, [&](const UnsettledModule& module) {
      if (module.id != id) return false;
      url = module.url;
      return true;
    });
    if (runtime->unsettled_modules_.empty()) {
      runtime->main_state_ = ok ? MainState::kFulfilled : MainState::kRejected;
    }
    return std::pair<Runtime*, std::string>(runtime, url);
  };
  auto on_fulfilled = [](const v8::FunctionCallbackInfo<v8::Value>& info) {
    Runtime* runtime = settled(info, true).first;
    runtime->MainSettled(true);
  };
  auto on_rejected = [](const v8::FunctionCallbackInfo<v8::Value>& info) {
    auto [runtime, url] = settled(info, false);
    v8::Isolate* isolate = info.GetIsolate();
    v8::Local<v8::Value> error = info[0];
    v8::Local<v8::Message> message = v8::Exception::CreateMessage(isolate, error);
    if (error->IsNativeError()) {
      runtime->ReportException(error, message);  // where the Error was created
    } else {
      // Any other value thrown (`throw "text"`) or awaited rejected: its
      // place went with the module's own catch, and a message made now
      // would name the internal helper running this reaction. The module,
      // at an unknown line (0), is what is known.
      v8::Local<v8::Context> context = runtime->context();
      runtime->ReportExceptionAt(
          error, StdString(isolate, UncaughtMessageText(context, error, message)), url, 0, 0);
    }
    runtime->MainSettled(false);
  };
  // Fails only when execution is being terminated (a worker's terminate()
  // racing its start): then nothing more runs anyway.
  if (!WhenSettled(promise, on_fulfilled, on_rejected, data)) return false;
  CheckpointUnlessNested();
  return true;
}

void Runtime::MainSettled(bool ok) {
  if (options_.delegate != nullptr) options_.delegate->OnMainSettled(ok);
}

namespace {

// A classic script's text: a file's, or a data: URL's body (HTML checks the
// MIME type of classic worker scripts for HTTP(S) responses only). Errors
// name the path or the URL.
base::Result<std::string> ReadClassicScript(const std::string& url,
                                            base::ReadCanceller* canceller) {
  if (IsDataUrl(url)) {
    base::Result<DataUrlContents> contents = ProcessDataUrl(url);
    if (!contents.ok()) return base::Error{0, url + ": " + contents.error().message};
    return std::move(contents.value().body);
  }
  base::Result<std::string> path = FileUrlToPath(url);
  if (!path.ok()) return path.error();
  return base::ReadFileToString(path.value(), canceller);
}

}  // namespace

bool Runtime::RunClassicScript(const std::string& url, bool is_main) {
  v8::Local<v8::Context> context = this->context();
  base::Result<std::string> text = ReadClassicScript(url, read_canceller());
  if (!text.ok()) {
    ThrowDOMException(isolate_, V8String(isolate_, "Cannot load script: " + text.error().message),
                      "NetworkError");
    return false;
  }
  base::StripUtf8Bom(text.value());
  v8::ScriptOrigin origin(isolate_, V8String(isolate_, url));
  v8::Local<v8::Script> script;
  v8::Local<v8::Value> result;
  if (!v8::Script::Compile(context, V8String(isolate_, text.value()), &origin).ToLocal(&script)) {
    return false;
  }
  // A main script that loaded and parsed has started: what it throws from
  // now on is a runtime error (an ErrorEvent for a worker's parent), not a
  // failure to load.
  if (is_main) main_state_ = MainState::kPending;
  const bool ok = script->Run(context).ToLocal(&result);
  if (is_main) main_state_ = ok ? MainState::kFulfilled : MainState::kRejected;
  return ok;
}

bool Runtime::StartClassicScript(const std::string& url) {
  v8::HandleScope scope(isolate_);
  base_url_ = url;
  bool ok;
  {
    v8::TryCatch try_catch(isolate_);
    ok = RunClassicScript(url, /*is_main=*/true);
    if (!ok && try_catch.HasCaught() && !try_catch.HasTerminated()) {
      ReportException(try_catch.Exception(), try_catch.Message());
    }
  }
  CheckpointUnlessNested();
  MainSettled(ok);
  return ok;
}

void Runtime::CheckUnsettledMain() {
  if (main_state_ != MainState::kPending || stopping_) return;
  PrintUnsettledMain();
  exit_code_ = kExitUnsettledTopLevelAwait;
}

bool Runtime::KnowsModule(const std::string& url) const { return modules_->Knows(url); }

void Runtime::PrintUnsettledMain() {
  std::string where;
  for (const UnsettledModule& module : unsettled_modules_) {
    base::Result<std::string> path = FileUrlToPath(module.url);
    if (!where.empty()) where += ", ";
    where += path.ok() ? path.value() : module.url;
  }
  Print("error: top-level await never settled in " + where +
            ": the module awaits a promise that nothing left in the program can resolve\n",
        2);
}

// ---- Errors (J4) -------------------------------------------------------------

void Runtime::ReportException(v8::Local<v8::Value> exception, v8::Local<v8::Message> message) {
  if (stopping_) return;
  v8::HandleScope scope(isolate_);
  v8::Local<v8::Context> context = this->context();
  v8::Local<v8::Function> report;
  if (!InternalFunction("reportException").ToLocal(&report)) {
    PrintUncaught(exception, message);
    return;
  }
  // An Error object's location is where it was created (the first frame of
  // its stack, as printed); any other value's is where it was thrown.
  if (exception->IsNativeError() || message.IsEmpty()) {
    message = v8::Exception::CreateMessage(isolate_, exception);
  }
  v8::Local<v8::Value> location = v8::Undefined(isolate_);
  if (!message.IsEmpty()) {
    location = MessageLocation(context, message, UncaughtMessageText(context, exception, message));
  }
  CallReporter(report, exception, location, message);
}

void Runtime::OnUncaughtMessage(v8::Local<v8::Message> message, v8::Local<v8::Value> error) {
  // Without a listener V8 prints these itself, on stdout, and goes on.
  Runtime* runtime = From(message->GetIsolate());
  if (runtime != nullptr) runtime->ReportException(error, message);
}

void Runtime::ReportExceptionAt(v8::Local<v8::Value> exception, const std::string& message,
                                const std::string& filename, int lineno, int colno) {
  if (stopping_) return;
  v8::HandleScope scope(isolate_);
  v8::Local<v8::Context> context = this->context();
  v8::Local<v8::Function> report;
  if (!InternalFunction("reportException").ToLocal(&report)) {
    PrintUncaught(exception, v8::Exception::CreateMessage(isolate_, exception));
    return;
  }
  CallReporter(report, exception,
               LocationArray(context, V8String(isolate_, message), V8String(isolate_, filename),
                             lineno, colno),
               v8::Local<v8::Message>());
}

void Runtime::CallReporter(v8::Local<v8::Function> report, v8::Local<v8::Value> exception,
                           v8::Local<v8::Value> location, v8::Local<v8::Message> message) {
  v8::TryCatch try_catch(isolate_);
  v8::Local<v8::Value> argv[] = {exception, location};
  if (report->Call(context(), v8::Undefined(isolate_), 2, argv).IsEmpty() &&
      !try_catch.HasTerminated()) {
    // The reporter itself failed: fall back to printing.
    if (message.IsEmpty()) message = v8::Exception::CreateMessage(isolate_, exception);
    PrintUncaught(exception, message);
  }
}

v8::Local<v8::String> UncaughtMessageText(v8::Local<v8::Context> context,
                                          v8::Local<v8::Value> exception,
                                          v8::Local<v8::Message> message) {
  v8::Isolate* isolate = context->GetIsolate();
  std::string name;
  std::string text;
  if (!ReadDOMException(isolate, exception, &name, &text)) {
    return message.IsEmpty() ? v8::String::Empty(isolate) : message->Get();
  }
  // As Error.prototype.toString joins them.
  if (name.empty()) return V8String(isolate, "Uncaught " + text);
  if (text.empty()) return V8String(isolate, "Uncaught " + name);
  return V8String(isolate, "Uncaught " + name + ": " + text);
}

ErrorLocation ErrorLocation::Of(v8::Local<v8::Context> context, v8::Local<v8::Value> exception,
                                v8::Local<v8::Message> message) {
  ErrorLocation location;
  if (message.IsEmpty()) return location;
  v8::Isolate* isolate = context->GetIsolate();
  location.message = StdString(isolate, UncaughtMessageText(context, exception, message));
  v8::Local<v8::Value> resource = message->GetScriptResourceName();
  if (resource->IsString()) location.filename = StdString(isolate, resource);
  location.lineno = message->GetLineNumber(context).FromMaybe(0);
  location.colno = message->GetStartColumn(context).FromMaybe(-1) + 1;
  return location;
}

void Runtime::PrintUncaught(v8::Local<v8::Value> exception, v8::Local<v8::Message> message,
                            const ErrorLocation* location, bool apply_policy) {
  if (!apply_policy) {
    // An error listener's own error (HTML "error reporting mode"): to the
    // console only, not on to a worker's parent.
    PrintError(exception, message, "Uncaught", true, location);
    return;
  }
  HandleUnhandled(exception, message, "Uncaught",
                  options_.uncaught_errors == UncaughtErrorPolicy::kThrow, location);
}

void Runtime::ApplyUncaughtPolicy() {
  // A worker's errors are its parent's business; only the one reported goes
  // there, and the worker goes on.
  if (options_.delegate != nullptr) return;
  if (options_.uncaught_errors == UncaughtErrorPolicy::kThrow) Stop(kExitUncaught);
}

void Runtime::HandleUnhandled(v8::Local<v8::Value> exception, v8::Local<v8::Message> message,
                              const char* prefix, bool stop, const ErrorLocation* location) {
  if (options_.delegate != nullptr) {
    v8::HandleScope scope(isolate_);
    if (options_.delegate->OnUnhandledError(
            exception,
            location != nullptr ? *location : ErrorLocation::Of(context(), exception, message))) {
      return;
    }
  }
  PrintError(exception, message, prefix, true, location);
  if (stop) Stop(kExitUncaught);
}

void Runtime::PrintError(v8::Local<v8::Value> exception, v8::Local<v8::Message> message,
                         const char* prefix, bool source_context, const ErrorLocation* location) {
  v8::HandleScope scope(isolate_);
  v8::Local<v8::Context> context = this->context();
  std::string text;
  bool has_location_in_text = false;

  // Compile-time errors: the file, the line and a caret (node/d8 style).
  bool syntax_error = false;
  if (exception->IsNativeError()) {
    v8::Local<v8::Value> name;
    syntax_error =
        exception.As<v8::Object>()->Get(context, V8Symbol(isolate_, "name")).ToLocal(&name) &&
        StdString(isolate_, name) == "SyntaxError";
  }
  if (syntax_error && source_context && !message.IsEmpty()) {
    v8::Local<v8::String> source_line;
    std::string resource = StdString(isolate_, message->GetScriptResourceName());
    int line_number = message->GetLineNumber(context).FromMaybe(0);
    int start_column = message->GetStartColumn(context).FromMaybe(-1);
    if (line_number > 0 && start_column >= 0 &&
        message->GetSourceLine(context).ToLocal(&source_line) &&
        resource.rfind("hostloop:", 0) != 0) {
      base::Result<std::string> path = FileUrlToPath(resource);
      int line = message->GetLineNumber(context).FromMaybe(0);
      int column = message->GetStartColumn(context).FromMaybe(0);
      int end = std::max(column + 1, message->GetEndColumn(context).FromMaybe(column + 1));
      text += (path.ok() ? path.value() : resource) + ":" + std::to_string(line) + ":" +
              std::to_string(column + 1) + "\n";
      std::string line_text = StdString(isolate_, source_line);
      text += line_text + "\n";
      // Tabs stay tabs so the caret lines up on screen.
      for (int c = 0; c < column; ++c) {
        text += static_cast<std::size_t>(c) < line_text.size() && line_text[c] == '\t' ? '\t' : ' ';
      }
      text += std::string(static_cast<std::size_t>(end - column), '^') + "\n";
      has_location_in_text = true;
    }
  }

  // The value itself, formatted like console.log would (errors: the stack
  // and any extra properties).
  std::string body;
  v8::Local<v8::Function> inspect;
  v8::Local<v8::Value> formatted;
  {
    v8::TryCatch try_catch(isolate_);
    v8::Local<v8::Value> argv[] = {exception};
    if (InternalFunction("inspect").ToLocal(&inspect) &&
        inspect->Call(context, v8::Undefined(isolate_), 1, argv).ToLocal(&formatted)) {
      body = StdString(isolate_, formatted);
    } else {
      // inspect() failed (a getter of the value threw): V8's text for the
      // value, which runs no script (its toString could throw as well).
      v8::Local<v8::String> detail;
      if (exception->ToDetailString(context).ToLocal(&detail)) body = StdString(isolate_, detail);
    }
  }
  if (syntax_error && has_location_in_text) {
    // The stack of a compile error only repeats the location.
    body = StdString(isolate_, exception);
  } else if ((exception->IsNativeError() || IsDOMException(exception)) && body.size() > 2 &&
             body.front() == '[' && body.back() == ']') {
    // inspect() brackets an error without frames: "[Error: x]", and a
    // DOMException without one (a structured clone has no stack):
    // "[DOMException [AbortError]: x]".
    body = body.substr(1, body.size() - 2);
  }
  bool has_frames = body.find("\n    at ") != std::string::npos;
  if (!has_frames && !has_location_in_text && (location != nullptr || !message.IsEmpty())) {
    const ErrorLocation where =
        location != nullptr ? *location : ErrorLocation::Of(context, exception, message);
    // A location inside hostloop's own scripts says nothing about the program.
    if (!where.filename.empty() && where.filename.rfind("hostloop:", 0) != 0 && where.lineno > 0) {
      body += "\n    at " + where.filename + ":" + std::to_string(where.lineno) + ":" +
              std::to_string(where.colno);
    }
  }
  if (syntax_error && has_location_in_text) {
    text += body + "\n";
  } else {
    text += std::string(prefix) + " " + body + "\n";
  }
  Print(text, 2);
}

v8::MaybeLocal<v8::Value> Runtime::CallAndReport(v8::Local<v8::Function> function,
                                                 v8::Local<v8::Value> receiver, int argc,
                                                 v8::Local<v8::Value> argv[]) {
  if (stopping()) return {};
  // No handle scope of its own: Function::Call has one inside, and the
  // result lands in the caller's (these calls run every task).
  v8::TryCatch try_catch(isolate_);
  v8::Local<v8::Value> result;
  if (!function->Call(context(), receiver, argc, argv).ToLocal(&result)) {
    if (try_catch.HasCaught() && !try_catch.HasTerminated()) {
      v8::HandleScope scope(isolate_);
      ReportException(try_catch.Exception(), try_catch.Message());
    }
    return {};
  }
  return result;
}

void Runtime::Stop(int exit_code) {
  if (stopping_) return;
  if (stop_deferrals_ > 0) {
    if (!deferred_exit_code_) deferred_exit_code_ = exit_code;
    return;
  }
  stopping_ = true;
  exit_code_ = exit_code;
  // Nothing else of this program runs: not the rest of the current JS, not
  // another entry.
  isolate_->TerminateExecution();
  looper_->Quit();
  // Its work never runs again, so it must not keep the loop alive either
  // (J3): when the loop next runs (a Looper may carry other runtimes, and an
  // embedder may run it on), its lanes are dropped. Not here: this is deep
  // inside one of its own entries.
  looper_->Post([runtime = this, alive = std::weak_ptr<bool>(alive_)] {
    if (alive.expired()) return;
    v8::HandleScope scope(runtime->isolate_);
    runtime->event_loop_->Shutdown();
  });
}

void RemoteStop::Request(int exit_code) {
  base::MutexLock lock(mutex_);
  if (runtime_ == nullptr || posted_) return;
  posted_ = true;
  // The stop itself happens on the home thread, where the runtime lives and
  // dies: it is still there if this entry finds it registered. Posted
  // before anything else, so that the pending post keeps the Looper running
  // until it has stopped the runtime (once `requested_` is seen, the
  // runtime's own entries do nothing and keep nothing alive).
  looper_->Post([stop = weak_from_this(), exit_code] {
    std::shared_ptr<RemoteStop> alive = stop.lock();
    if (!alive) return;
    Runtime* runtime;
    {
      base::MutexLock lock(alive->mutex_);
      runtime = alive->runtime_;
    }
    if (runtime != nullptr) runtime->Stop(exit_code);
  });
  requested_.store(true, std::memory_order_relaxed);
  TerminateFromAnotherThread(isolate_);
  reads_->Cancel();
}

void TerminateFromAnotherThread(v8::Isolate* isolate) {
  // Terminated from inside the JS, at V8's next interrupt check (an endless
  // loop, Atomics.wait): a TerminateExecution() from another thread could
  // land as the isolate's thread enters Module::Evaluate, before the module
  // is on V8's evaluation stack, and V8 10.2 then fails a CHECK
  // (module->status() == kErrored) and stops the process.
  isolate->RequestInterrupt([](v8::Isolate* isolate, void*) { isolate->TerminateExecution(); },
                            nullptr);
}

Runtime::StopDeferral::~StopDeferral() {
  if (--runtime_->stop_deferrals_ > 0 || !runtime_->deferred_exit_code_) return;
  const int exit_code = *runtime_->deferred_exit_code_;
  runtime_->deferred_exit_code_.reset();
  runtime_->Stop(exit_code);
}

// ---- The turn (L5) -----------------------------------------------------------

void Runtime::CheckpointUnlessNested() {
  // Called from JS (an embedder's native function evaluating a module), the
  // microtasks wait for the end of the task that called it (L5): running
  // them here would run them in the middle of that task.
  if (v8::StackTrace::CurrentStackTrace(isolate_, 1)->GetFrameCount() > 0) return;
  Checkpoint();
}

bool Runtime::WhenSettled(v8::Local<v8::Promise> promise, v8::FunctionCallback on_fulfilled,
                          v8::FunctionCallback on_rejected, v8::Local<v8::Value> data) {
  v8::Local<v8::Context> context = this->context();
  v8::Local<v8::Function> fulfilled;
  v8::Local<v8::Function> rejected;
  if (!v8::Function::New(context, on_fulfilled, data).ToLocal(&fulfilled) ||
      !v8::Function::New(context, on_rejected, data).ToLocal(&rejected)) {
    return false;
  }
  return WhenSettled(promise, fulfilled, rejected);
}

bool Runtime::WhenSettled(v8::Local<v8::Promise> promise, v8::Local<v8::Function> fulfilled,
                          v8::Local<v8::Function> rejected, v8::Local<v8::Value> token) {
  v8::Local<v8::Context> context = this->context();
  v8::Local<v8::Function> when_settled;
  if (!InternalFunction("whenSettled").ToLocal(&when_settled)) return false;
  v8::Local<v8::Value> argv[] = {promise, fulfilled, rejected, token};
  return !when_settled->Call(context, v8::Undefined(isolate_), token.IsEmpty() ? 3 : 4, argv)
              .IsEmpty();
}

void Runtime::MakeCurrent() {
  if (tls_entered_isolate == isolate_) return;
  if (tls_entered_isolate != nullptr) tls_entered_isolate->Exit();
  isolate_->Enter();
  tls_entered_isolate = isolate_;
}

Runtime::CallScope::CallScope(Runtime& runtime) : previous_(tls_entered_isolate) {
  runtime.MakeCurrent();
}

Runtime::CallScope::CallScope() : previous_(tls_entered_isolate) {}

Runtime::CallScope::~CallScope() {
  if (previous_ == nullptr || previous_ == tls_entered_isolate) return;
  if (std::find(tls_live_isolates.begin(), tls_live_isolates.end(), previous_) ==
      tls_live_isolates.end()) {
    return;  // disposed meanwhile
  }
  if (tls_entered_isolate != nullptr) tls_entered_isolate->Exit();
  previous_->Enter();
  tls_entered_isolate = previous_;
}

void Runtime::Checkpoint() {
  if (stopping() || in_checkpoint_) return;
  MakeCurrent();
  in_checkpoint_ = true;
  v8::HandleScope scope(isolate_);
  isolate_->PerformMicrotaskCheckpoint();
  if (!stopping_) rejections_->ProcessPending();
  // Timers cleared during the task leave the queue before the loop decides
  // how long it may sleep (js/timers.js).
  timers_->FlushCancels();
  in_checkpoint_ = false;
}

// ---- Output ------------------------------------------------------------------

void Runtime::Print(std::string_view text, int stream) {
  // Written at once, not buffered until the task ends: a line logged before
  // an endless loop, a crash or a kill must be there, and output must follow
  // the order of events across threads (a worker that answers a message
  // logs after the line main logged before posting it). One write per call
  // costs ~3 us on a pipe here, still faster than node's console.log.
  if (options_.forward_output && options_.forward_output(text, stream)) return;
  if (output_hook_) output_hook_(true);
  const int error = WriteAll(stream == 2 ? 2 : 1, text);
  if (output_hook_) output_hook_(false);
  if (error != EPIPE) return;
  if (stream == 2) {
    // stderr's reader is gone (`2>&1 | head -1`): the program stops as for
    // stdout, with nowhere left to say why.
    StopForClosedOutput();
  } else if (!stopping_) {
    // Whoever read stdout is gone (`hostloop x.mjs | head -1`): the program
    // stops, as SIGPIPE (ignored here) would stop a C program, instead of
    // running on with its output going nowhere. Exit code 1, as node.
    static std::atomic<bool> told{false};
    if (!told.exchange(true))
      WriteAll(2, "hostloop: stdout was closed by its reader (EPIPE); stopping\n");
    StopForClosedOutput();
  }
}

void Runtime::StopForClosedOutput() {
  if (stopping_) return;
  Stop(kExitUncaught);
  if (options_.delegate != nullptr) options_.delegate->OnOutputClosed();
}

}  // namespace hostloop::runtime
