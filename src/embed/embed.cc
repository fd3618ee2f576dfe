// The embedding API (include/hostloop/hostloop.h) on top of the runtime.
#include "hostloop/hostloop.h"

#include <atomic>
#include <string>

#include "base/check.h"
#include "runtime/file_url.h"
#include "runtime/native_module.h"
#include "runtime/realm.h"
#include "runtime/runtime.h"
#include "runtime/v8_util.h"
#include "v8/v8_process.h"
#include "worker/worker.h"

namespace hostloop {

bool Engine::Initialize(const char* argv0, const std::vector<std::string>& v8_flags,
                        std::string* error) {
  worker::RegisterWorkerBindings();
  const v8::StartupData* snapshot = v8_flags.empty() ? runtime::EmbeddedSnapshot() : nullptr;
  base::Result<void> result = v8host::V8Process::Initialize(argv0, v8_flags, snapshot);
  if (error != nullptr) *error = result.ok() ? std::string() : result.error().message;
  return result.ok();
}

namespace {
// Runtimes created through this API and not yet destroyed (any thread).
std::atomic<int> live_runtimes{0};
}  // namespace

void Engine::Shutdown() {
  CHECK_MSG(live_runtimes.load() == 0,
            "hostloop::Engine::Shutdown() called while a hostloop::Runtime is alive; destroy "
            "every Runtime first");
  v8host::V8Process::Shutdown();
}

void DefineModule(const std::string& name, ModuleFactory factory) {
  runtime::RegisterNativeModule(
      name, [factory = std::move(factory)](runtime::Runtime*, v8::Local<v8::Context> context) {
        return v8::MaybeLocal<v8::Object>(factory(context));
      });
}

namespace {

// Calls the JsonFunction behind a module function: arguments in as a JSON
// array, the result back through JSON.parse.
void CallJsonFunction(const v8::FunctionCallbackInfo<v8::Value>& info) {
  v8::Isolate* isolate = info.GetIsolate();
  v8::Local<v8::Context> context = isolate->GetCurrentContext();
  auto* function = static_cast<JsonFunction*>(info.Data().As<v8::External>()->Value());
  v8::Local<v8::Array> arguments = v8::Array::New(isolate, info.Length());
  for (int i = 0; i < info.Length(); ++i) {
    arguments->Set(context, static_cast<uint32_t>(i), info[i]).FromMaybe(false);
  }
  v8::Local<v8::String> json;
  if (!v8::JSON::Stringify(context, arguments).ToLocal(&json)) return;
  std::string result;
  // A C++ exception must not unwind through V8's frames (std::terminate):
  // it becomes a JS Error at the call.
  try {
    result = (*function)(runtime::StdString(isolate, json));
  } catch (const std::exception& error) {
    runtime::ThrowError(isolate, std::string("a native function threw: ") + error.what());
    return;
  } catch (...) {
    runtime::ThrowError(isolate, "a native function threw a C++ exception");
    return;
  }
  if (result.empty()) return;
  // Longer than V8's longest string (or than an int counts): a RangeError
  // at the call, not a failed CHECK.
  v8::Local<v8::String> text;
  if (result.size() > static_cast<std::size_t>(v8::String::kMaxLength) ||
      !v8::String::NewFromUtf8(isolate, result.data(), v8::NewStringType::kNormal,
                               static_cast<int>(result.size()))
           .ToLocal(&text)) {
    isolate->ThrowException(v8::Exception::RangeError(runtime::V8String(
        isolate, "a native function's JSON result (" + std::to_string(result.size()) +
                     " bytes) is longer than V8's longest string")));
    return;
  }
  v8::Local<v8::Value> value;
  if (v8::JSON::Parse(context, text).ToLocal(&value)) info.GetReturnValue().Set(value);
}

}  // namespace

void DefineJsonModule(const std::string& name, std::map<std::string, JsonFunction> functions) {
  // The functions live as long as the module registration (the process):
  // the JS functions point into this table.
  auto table = std::make_shared<std::map<std::string, JsonFunction>>(std::move(functions));
  DefineModule(name, [table](v8::Local<v8::Context> context) {
    v8::Isolate* isolate = context->GetIsolate();
    v8::Local<v8::Object> exports = v8::Object::New(isolate);
    for (auto& [function_name, function] : *table) {
      runtime::SetMethod(context, exports, function_name, CallJsonFunction,
                         v8::External::New(isolate, &function));
    }
    return exports;
  });
}

struct Runtime::Impl {
  std::unique_ptr<runtime::Runtime> runtime;
  // EvaluateModule calls without a name so far (each gets its own).
  int unnamed_modules = 0;
  // The unsettled top-level await was reported (exit_code() says it once).
  bool reported_unsettled = false;

  // The runtime, for a call on its home thread: a call from any other
  // thread is a clear CHECK failure, not a data race inside V8. Several
  // runtimes may share the thread: the call is about this one, so its
  // isolate is made current (for good: isolate() and context() hand it to
  // the caller's own V8 code).
  runtime::Runtime& Home() const {
    CheckHomeThread();
    runtime->MakeCurrent();
    return *runtime;
  }
  void CheckHomeThread() const {
    CHECK_MSG(runtime->looper()->IsHomeThread(),
              "hostloop::Runtime used off its home thread (the thread that created it)");
  }
};

namespace {

// An API call that returns to its caller (a native function of another
// runtime may be the one asking): the runtime's isolate is current during
// the call, and the one that was current before is again afterwards.
class Call {
 public:
  explicit Call(runtime::Runtime& runtime) : runtime_(runtime), scope_(runtime) {}
  runtime::Runtime& home() { return runtime_; }

 private:
  runtime::Runtime& runtime_;
  runtime::Runtime::CallScope scope_;
};

}  // namespace

Runtime::Runtime(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) { ++live_runtimes; }

Runtime::~Runtime() {
  if (impl_ != nullptr) {
    // Destroyed from inside its own JavaScript (a native function, or a
    // callback JS called), the runtime would free the isolate under the
    // frames still running in it: stop with a message instead of a crash
    // somewhere later.
    // (A native function V8 runs as a promise reaction has no JS frame
    // under it: the runtime is then inside its microtask checkpoint. Nor
    // has a native module's factory or an async job's completion: the
    // runtime counts those calls.)
    impl_->CheckHomeThread();
    runtime::Runtime& home = *impl_->runtime;
    // Whoever was current before (a native function of another runtime
    // destroying this one) is current again afterwards.
    runtime::Runtime::CallScope call(home);
    v8::Isolate* isolate = home.isolate();
    {
      v8::HandleScope scope(isolate);
      CHECK_MSG(!home.in_checkpoint() && !home.in_native_callback() &&
                    v8::StackTrace::CurrentStackTrace(isolate, 1)->GetFrameCount() == 0,
                "hostloop::Runtime destroyed while its JavaScript runs (inside a native function "
                "or a callback it calls): post the destruction to the Looper instead");
    }
    impl_.reset();
  }
  --live_runtimes;
}

std::unique_ptr<Runtime> Runtime::Create(Looper* looper, const Options& options,
                                         std::string* error) {
  if (v8host::V8Process::platform() == nullptr) {
    if (error != nullptr) {
      *error = v8host::V8Process::shut_down()
                   ? "hostloop::Engine::Shutdown() has been called: no runtime can be created "
                     "after it"
                   : "hostloop::Engine::Initialize() has not been called";
    }
    return nullptr;
  }
  if (looper == nullptr || !looper->IsHomeThread()) {
    if (error != nullptr) {
      *error = looper == nullptr ? "Runtime::Create: no Looper given"
                                 : "Runtime::Create: called off the Looper's home thread (the "
                                   "thread that created it)";
    }
    return nullptr;
  }
  runtime::RuntimeOptions runtime_options;
  runtime_options.args = options.args;
  if (options.keep_running_after_errors) {
    runtime_options.uncaught_errors = runtime::UncaughtErrorPolicy::kWarn;
    runtime_options.unhandled_rejections = runtime::RejectionPolicy::kWarn;
  }
  // (Creating it makes its isolate current; whoever was current before, a
  // native function of another runtime asking for this one, is again.)
  runtime::Runtime::CallScope keep_current;
  base::Result<std::unique_ptr<runtime::Runtime>> created =
      runtime::Runtime::Create(looper, std::move(runtime_options));
  if (!created.ok()) {
    if (error != nullptr) *error = created.error().message;
    return nullptr;
  }
  auto impl = std::make_unique<Impl>();
  impl->runtime = std::move(created).value();
  return std::unique_ptr<Runtime>(new Runtime(std::move(impl)));
}

namespace {

// False with a message when `home` was stopped: nothing runs in it any more
// (its JS is terminated), and the call would fail with nothing said.
bool RefuseIfStopped(runtime::Runtime& home, const char* what) {
  if (!home.stopping()) return false;
  home.Print(std::string("error: ") + what + ": the runtime was stopped (exit code " +
                 std::to_string(home.exit_code()) + "); nothing ran\n",
             2);
  return true;
}

}  // namespace

bool Runtime::RunModule(const std::string& path) {
  impl_->CheckHomeThread();
  Call call(*impl_->runtime);
  runtime::Runtime& home = call.home();
  if (RefuseIfStopped(home, "RunModule")) return false;
  return home.StartMainModule(runtime::PathToFileUrl(runtime::AbsolutePath(path)), std::nullopt);
}

bool Runtime::EvaluateModule(const std::string& code, const std::string& name) {
  impl_->CheckHomeThread();
  Call call(*impl_->runtime);
  runtime::Runtime& home = call.home();
  if (RefuseIfStopped(home, "EvaluateModule")) return false;
  std::string module_name = name;
  if (module_name.empty()) {
    int n = ++impl_->unnamed_modules;
    module_name = n == 1 ? "[embed]" : "[embed-" + std::to_string(n) + "]";
  }
  std::string url = runtime::PathToFileUrl(runtime::AbsolutePath(module_name));
  if (home.KnowsModule(url)) {
    // A module map entry is the module for good: new source under its URL
    // would be silently ignored (or its old SyntaxError thrown again).
    home.Print("error: EvaluateModule: a module named '" + module_name +
                   "' was already evaluated in this runtime; give the new source another name\n",
               2);
    return false;
  }
  return home.StartMainModule(url, code);
}

int Runtime::exit_code() {
  impl_->CheckHomeThread();
  Call call(*impl_->runtime);
  runtime::Runtime& home = call.home();
  // Only an idle loop knows that a pending top-level await can never settle;
  // asking earlier neither decides it nor prints.
  if (home.main_state() == runtime::Runtime::MainState::kPending && !home.stopping() &&
      !home.looper()->KeepsAlive()) {
    if (!impl_->reported_unsettled) home.PrintUnsettledMain();
    impl_->reported_unsettled = true;
    return runtime::kExitUnsettledTopLevelAwait;
  }
  return home.exit_code();
}

bool Runtime::stopped() const {
  impl_->CheckHomeThread();
  return impl_->runtime->stopping();
}

RuntimeStopper Runtime::stopper() const {
  impl_->CheckHomeThread();
  return RuntimeStopper(impl_->runtime->remote_stop());
}

void RuntimeStopper::Stop(int exit_code) const { stop_->Request(exit_code); }

v8::Isolate* Runtime::isolate() const { return impl_->Home().isolate(); }

v8::Local<v8::Context> Runtime::context() const { return impl_->Home().context(); }

void Runtime::PerformMicrotaskCheckpoint() {
  impl_->CheckHomeThread();
  Call call(*impl_->runtime);
  call.home().CheckpointUnlessNested();
}

}  // namespace hostloop
