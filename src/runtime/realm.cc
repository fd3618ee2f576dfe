#include "runtime/realm.h"

#include <algorithm>
#include <iterator>
#include <string_view>

#include "loop/event_loop.h"
#include "runtime/builtin_sources.h"
#include "runtime/host_bindings.h"
#include "runtime/message_port.h"
#include "runtime/v8_util.h"
#include "v8/v8_process.h"

// Defined by the snapshot blob object (snapshot_blob.S) in binaries that
// link one; null elsewhere.
extern "C" {
__attribute__((weak)) extern const char hostloop_snapshot_data[];
__attribute__((weak)) extern const uint64_t hostloop_snapshot_size;
}

namespace hostloop::runtime {

namespace {

// The internal scripts whose functions are all compiled while the realm is
// built, so the snapshot (made with kKeep) carries their bytecode. The rest
// compile each function on its first call, as V8 does by default: a program
// that never logs an object never pays for inspect.js's bytecode. These are
// the small ones on the paths most programs take after start-up: without
// this, the first timer to fire parsed and compiled 13 functions of
// timers.js and bootstrap.js (~0.9M instructions; after a long idle, with
// cold caches, several ms of the idle cost bench/ measures), for 30 KB more
// snapshot and ~0.2% more start-up instructions.
bool CompiledIntoSnapshot(std::string_view name) {
  constexpr std::string_view kEager[] = {"bootstrap.js", "errors.js",    "timers.js",
                                         "messaging.js", "scheduler.js", "worker.js"};
  return std::find(std::begin(kEager), std::end(kEager), name) != std::end(kEager);
}

}  // namespace

base::Result<void> BuildRealm(v8::Local<v8::Context> context,
                              v8::Local<v8::FunctionTemplate> port_template,
                              v8::Local<v8::Object>* host_out,
                              v8::Local<v8::Object>* internals_out) {
  v8::Isolate* isolate = context->GetIsolate();
  v8::Local<v8::Object> host = CreateHostObject(context, port_template);
  v8::Local<v8::Object> internals = v8::Object::New(isolate);
  v8::Local<v8::String> params[] = {V8Symbol(isolate, "host"), V8Symbol(isolate, "internals"),
                                    V8Symbol(isolate, "global")};
  v8::Local<v8::Value> args[] = {host, internals, context->Global()};
  for (std::size_t i = 0; i < kBuiltinSourceCount; ++i) {
    const BuiltinSource& builtin = kBuiltinSources[i];
    v8::TryCatch try_catch(isolate);
    v8::ScriptOrigin origin(isolate,
                            V8String(isolate, std::string("hostloop:internal/") + builtin.name));
    v8::ScriptCompiler::Source source(
        V8String(isolate, std::string_view(builtin.source, builtin.length)), origin);
    v8::Local<v8::Function> function;
    v8::Local<v8::Value> result;
    const v8::ScriptCompiler::CompileOptions options = CompiledIntoSnapshot(builtin.name)
                                                           ? v8::ScriptCompiler::kEagerCompile
                                                           : v8::ScriptCompiler::kNoCompileOptions;
    if (!v8::ScriptCompiler::CompileFunction(context, &source, 3, params, 0, nullptr, options)
             .ToLocal(&function) ||
        !function->Call(context, v8::Undefined(isolate), 3, args).ToLocal(&result)) {
      std::string detail = try_catch.HasCaught() ? StdString(isolate, try_catch.Exception()) : "";
      if (try_catch.HasCaught() && !try_catch.Message().IsEmpty()) {
        detail += " (line " +
                  std::to_string(try_catch.Message()->GetLineNumber(context).FromMaybe(0)) + ")";
      }
      return base::Error{0, std::string("internal script ") + builtin.name + " failed: " + detail};
    }
  }
  *host_out = host;
  *internals_out = internals;
  return {};
}

base::Result<std::string> CreateSnapshotBlob() {
  v8::Isolate* isolate = v8::Isolate::Allocate();
  // V8 asks for the isolate's foreground runner; a loop that never runs
  // takes (and finally drops) whatever it posts.
  std::shared_ptr<loop::EventLoop> loop = loop::EventLoop::Create();
  v8host::HostPlatform* platform = v8host::V8Process::platform();
  v8host::RuntimeKey key = platform->RegisterIsolate(isolate, loop);
  v8::StartupData blob{nullptr, 0};
  base::Result<void> built;
  {
    v8::SnapshotCreator creator(isolate, ExternalReferences());
    {
      v8::HandleScope scope(isolate);
      v8::Local<v8::FunctionTemplate> port_template = MessagePortHandle::CreateTemplate(isolate);
      v8::Local<v8::Context> context = v8::Context::New(isolate);
      v8::Context::Scope context_scope(context);
      v8::Local<v8::Object> host;
      v8::Local<v8::Object> internals;
      built = BuildRealm(context, port_template, &host, &internals);
      if (built.ok()) {
        CHECK(creator.AddData(port_template) == kSnapshotPortTemplateIndex);
        CHECK(creator.AddData(context, host) == kSnapshotHostIndex);
        CHECK(creator.AddData(context, internals) == kSnapshotInternalsIndex);
        creator.SetDefaultContext(context);
      }
    }
    if (built.ok()) blob = creator.CreateBlob(v8::SnapshotCreator::FunctionCodeHandling::kKeep);
  }
  loop->Shutdown();
  platform->UnregisterIsolate(isolate, key);
  if (!built.ok()) return std::move(built).error();
  if (blob.data == nullptr) return base::Error{0, "V8 could not create the snapshot"};
  std::string bytes(blob.data, static_cast<std::size_t>(blob.raw_size));
  delete[] blob.data;
  return bytes;
}

const v8::StartupData* EmbeddedSnapshot() {
  static const v8::StartupData blob = [] {
    if (&hostloop_snapshot_data == nullptr || &hostloop_snapshot_size == nullptr) {
      return v8::StartupData{nullptr, 0};
    }
    return v8::StartupData{hostloop_snapshot_data, static_cast<int>(hostloop_snapshot_size)};
  }();
  return blob.data == nullptr ? nullptr : &blob;
}

}  // namespace hostloop::runtime
