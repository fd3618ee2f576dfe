#include "runtime/module_loader.h"

#include <cerrno>
#include <cstring>
#include <utility>
#include <vector>

#include "base/check.h"
#include "base/file_util.h"
#include "runtime/data_url.h"
#include "runtime/file_url.h"
#include "runtime/import_attributes.h"
#include "runtime/runtime.h"
#include "runtime/v8_util.h"

namespace hostloop::runtime {

struct ModuleLoader::Record {
  std::string url;
  ModuleType type;
  v8::Global<v8::Module> module;
  // JSON modules: the parsed value; built-ins: the exports object.
  v8::Global<v8::Value> synthetic_value;
  // Every module this one imports, directly or not, is loaded. Set before
  // the imports are walked, so that an import cycle ends here.
  bool dependencies_loaded = false;
};

namespace {

std::string CacheKey(const std::string& url, bool json) { return json ? url + "\x01json" : url; }

// "/x/main.mjs" for file: URLs, the URL itself otherwise: what messages show.
std::string DisplayName(const std::string& url) {
  base::Result<std::string> path = FileUrlToPath(url);
  return path.ok() ? path.value() : url;
}

// An error made by `make` (v8::Exception::Error, TypeError, ...) whose
// stack points at the import that failed, so the report reads like any
// other uncaught error.
v8::Local<v8::Value> MakeErrorAt(v8::Isolate* isolate,
                                 v8::Local<v8::Value> (*make)(v8::Local<v8::String>),
                                 const char* name, const std::string& message,
                                 const std::string& where) {
  v8::Local<v8::Value> error = make(V8String(isolate, message));
  std::string stack = std::string(name) + ": " + message;
  if (!where.empty()) stack += "\n    at " + where;
  error.As<v8::Object>()
      ->Set(isolate->GetCurrentContext(), V8Symbol(isolate, "stack"), V8String(isolate, stack))
      .FromMaybe(false);
  return error;
}

v8::Local<v8::Value> MakeLoadError(v8::Isolate* isolate, const std::string& message,
                                   const std::string& where, bool type_error = false) {
  return type_error ? MakeErrorAt(isolate, v8::Exception::TypeError, "TypeError", message, where)
                    : MakeErrorAt(isolate, v8::Exception::Error, "Error", message, where);
}

// The `type` of import assertions: a FixedArray of (key, value[, position]).
// A key other than `type` is named in `*unknown_key` (HTML: a SyntaxError;
// it was ignored).
bool AssertedJson(v8::Local<v8::Context> context, v8::Local<v8::FixedArray> assertions, int stride,
                  std::string* unsupported, std::string* unknown_key = nullptr) {
  v8::Isolate* isolate = context->GetIsolate();
  for (int i = 0; i + 1 < assertions->Length(); i += stride) {
    std::string key = StdString(isolate, assertions->Get(context, i).As<v8::Value>());
    std::string value = StdString(isolate, assertions->Get(context, i + 1).As<v8::Value>());
    if (key != "type") {
      if (unknown_key != nullptr && unknown_key->empty()) *unknown_key = key;
      continue;
    }
    if (value == "json") return true;
    *unsupported = value;
  }
  return false;
}

// HTML HostLoadImportedModule: an import attribute other than `type` is a
// SyntaxError (node 20: ERR_IMPORT_ATTRIBUTE_UNSUPPORTED).
v8::Local<v8::Value> UnknownAttributeError(v8::Isolate* isolate, const std::string& key,
                                           const std::string& specifier, const std::string& where) {
  return MakeErrorAt(
      isolate, v8::Exception::SyntaxError, "SyntaxError",
      "Import attribute '" + key + "' of '" + specifier + "' is not supported (only 'type' is)",
      where);
}

// A module whose text V8 cannot hold as a string: a RangeError, not V8's
// fatal error.
void ThrowSourceTooLong(v8::Isolate* isolate, const std::string& url, std::size_t size) {
  isolate->ThrowException(v8::Exception::RangeError(
      V8String(isolate, "Module '" + url + "' is too long: " + std::to_string(size) +
                            " bytes, more than V8's longest string (" +
                            std::to_string(v8::String::kMaxLength) + ")")));
}

// Compiles the text of a JavaScript module named `url`.
v8::MaybeLocal<v8::Module> CompileModuleText(v8::Isolate* isolate, const std::string& url,
                                             const std::string& text) {
  v8::Local<v8::String> source_text;
  if (!MaybeV8String(isolate, text).ToLocal(&source_text)) {
    ThrowSourceTooLong(isolate, url, text.size());
    return {};
  }
  v8::ScriptOrigin origin(isolate, V8String(isolate, url), 0, 0, false, -1, v8::Local<v8::Value>(),
                          false, false, /*is_module=*/true);
  v8::ScriptCompiler::Source compiler_source(source_text, origin);
  return v8::ScriptCompiler::CompileModule(isolate, &compiler_source);
}

bool EndsWith(const std::string& text, std::string_view suffix) {
  std::size_t cut = text.find_first_of("?#");
  std::string_view path = std::string_view(text).substr(0, cut);
  return path.size() >= suffix.size() && path.substr(path.size() - suffix.size()) == suffix;
}

// The text of a data: URL module. HTML checks a module script's MIME type
// whatever its scheme: JavaScript for a JavaScript module, JSON for one
// imported with type 'json'. The body is UTF-8 (a BOM dropped).
bool ReadDataUrlModule(v8::Isolate* isolate, const std::string& url, bool json,
                       const std::string& imported_from, const std::string& where,
                       std::string* text) {
  base::Result<DataUrlContents> contents = ProcessDataUrl(url);
  if (!contents.ok()) {
    const std::string message =
        "Cannot load module '" + url + "'" + imported_from + ": " + contents.error().message;
    isolate->ThrowException(MakeLoadError(isolate, message, where, /*type_error=*/true));
    return false;
  }
  const std::string& essence = contents.value().mime_essence;
  if (json ? !IsJsonMimeEssence(essence) : !IsJavaScriptMimeEssence(essence)) {
    isolate->ThrowException(MakeLoadError(
        isolate,
        "Cannot load module '" + url + "'" + imported_from + ": expected a " +
            (json ? "JSON" : "JavaScript") + " MIME type, but the data: URL's type is '" + essence +
            "' (module scripts are checked strictly, as HTML says)",
        where, /*type_error=*/true));
    return false;
  }
  *text = std::move(contents.value().body);
  base::StripUtf8Bom(*text);
  return true;
}

}  // namespace

ModuleLoader::ModuleLoader(Runtime* runtime) : runtime_(runtime) {}

ModuleLoader::~ModuleLoader() = default;

void ModuleLoader::InstallCallbacks(v8::Isolate* isolate) {
  isolate->SetHostImportModuleDynamicallyCallback(ImportDynamically);
  isolate->SetHostInitializeImportMetaObjectCallback(InitializeImportMeta);
}

void ModuleLoader::RegisterBuiltin(const std::string& name, BuiltinModuleFactory factory) {
  builtins_[name] = std::move(factory);
}

ModuleLoader::Record* ModuleLoader::FindRecord(v8::Local<v8::Module> module) const {
  auto range = by_hash_.equal_range(module->GetIdentityHash());
  v8::Isolate* isolate = runtime_->isolate();
  for (auto it = range.first; it != range.second; ++it) {
    if (it->second->module.Get(isolate) == module) return it->second;
  }
  return nullptr;
}

std::string ModuleLoader::UrlOf(v8::Local<v8::Module> module) const {
  Record* record = FindRecord(module);
  return record == nullptr ? std::string() : record->url;
}

v8::MaybeLocal<v8::Module> ModuleLoader::LoadAndInstantiate(
    const std::string& url, const std::optional<std::string>& source) {
  v8::Isolate* isolate = runtime_->isolate();
  v8::EscapableHandleScope scope(isolate);
  v8::Local<v8::Module> module;
  if (!LoadGraph(url, ModuleType::kJavaScript, source).ToLocal(&module)) return {};
  if (module->GetStatus() == v8::Module::kUninstantiated &&
      module->InstantiateModule(runtime_->context(), ResolveCallback).IsNothing()) {
    return {};
  }
  return scope.Escape(module);
}

v8::MaybeLocal<v8::Module> ModuleLoader::LoadGraph(const std::string& url, ModuleType type,
                                                   const std::optional<std::string>& source) {
  std::vector<Record*> marked;
  v8::MaybeLocal<v8::Module> module = Load(url, type, source, nullptr, &marked);
  if (module.IsEmpty()) {
    // Not only the records whose imports failed: in a cycle a -> b -> a
    // where a also imports a missing module, b's own imports all loaded,
    // but instantiating b reaches the missing module through a. Every
    // record this walk marked is walked again next time (its module stays
    // cached: nothing is compiled or evaluated twice).
    for (Record* record : marked) record->dependencies_loaded = false;
  }
  return module;
}

v8::MaybeLocal<v8::Module> ModuleLoader::Load(const std::string& url, ModuleType type,
                                              const std::optional<std::string>& source,
                                              const ImportSite* site,
                                              std::vector<Record*>* marked) {
  v8::Isolate* isolate = runtime_->isolate();
  auto it = by_url_.find(CacheKey(url, type == ModuleType::kJson));
  if (it != by_url_.end()) {
    if (it->second->dependencies_loaded) return it->second->module.Get(isolate);
    return LoadDependencies(it->second.get(), marked);
  }
  const std::string key = CacheKey(url, type == ModuleType::kJson);
  if (auto failed = parse_errors_.find(key); failed != parse_errors_.end()) {
    isolate->ThrowException(failed->second.Get(isolate));
    return {};
  }
  v8::Local<v8::Module> module;
  v8::Local<v8::Value> synthetic_value;
  {
    v8::TryCatch try_catch(isolate);
    if (!Compile(url, type, source, site, &synthetic_value).ToLocal(&module)) {
      if (try_catch.HasCaught() && !try_catch.HasTerminated()) {
        v8::Local<v8::Value> error = try_catch.Exception();
        v8::Local<v8::Value> name;
        if (error->IsNativeError() &&
            error.As<v8::Object>()
                ->Get(runtime_->context(), V8Symbol(isolate, "name"))
                .ToLocal(&name) &&
            StdString(isolate, name) == "SyntaxError") {
          parse_errors_[key].Reset(isolate, error);
        }
        try_catch.ReThrow();
      }
      return {};
    }
  }
  auto record = std::make_unique<Record>();
  record->url = url;
  record->type = type;
  record->module.Reset(isolate, module);
  if (!synthetic_value.IsEmpty()) record->synthetic_value.Reset(isolate, synthetic_value);
  Record* raw = record.get();
  by_hash_.emplace(module->GetIdentityHash(), raw);
  by_url_[CacheKey(url, type == ModuleType::kJson)] = std::move(record);
  return LoadDependencies(raw, marked);
}

v8::MaybeLocal<v8::Module> ModuleLoader::LoadDependencies(Record* record,
                                                          std::vector<Record*>* marked) {
  v8::Isolate* isolate = runtime_->isolate();
  v8::Local<v8::Context> context = runtime_->context();
  v8::Local<v8::Module> module = record->module.Get(isolate);
  // Marked before recursing: an import cycle finds this record loaded
  // (LoadGraph unmarks it if the walk fails).
  record->dependencies_loaded = true;
  marked->push_back(record);
  if (record->type != ModuleType::kJavaScript || module->IsSyntheticModule()) return module;
  v8::Local<v8::FixedArray> requests = module->GetModuleRequests();
  for (int i = 0; i < requests->Length(); ++i) {
    v8::Local<v8::ModuleRequest> request = requests->Get(context, i).As<v8::ModuleRequest>();
    std::string specifier = StdString(isolate, request->GetSpecifier());
    v8::Location location = module->SourceOffsetToLocation(request->GetSourceOffset());
    std::string where = record->url + ":" + std::to_string(location.GetLineNumber() + 1) + ":" +
                        std::to_string(location.GetColumnNumber() + 1);
    base::Result<std::string> resolved = ResolveSpecifier(specifier, record->url);
    if (!resolved.ok()) {
      isolate->ThrowException(MakeLoadError(isolate,
                                            "Cannot resolve '" + specifier + "' imported from " +
                                                DisplayName(record->url) + ": " +
                                                resolved.error().message,
                                            where, /*type_error=*/true));
      return {};
    }
    std::string unsupported;
    std::string unknown_key;
    bool json =
        AssertedJson(context, request->GetImportAssertions(), 3, &unsupported, &unknown_key);
    if (!unknown_key.empty()) {
      isolate->ThrowException(UnknownAttributeError(isolate, unknown_key, specifier, where));
      return {};
    }
    if (!unsupported.empty()) {
      isolate->ThrowException(MakeLoadError(
          isolate, "Unsupported module type '" + unsupported + "' for '" + specifier + "'", where,
          /*type_error=*/true));
      return {};
    }
    ImportSite site{record->url, where};
    if (Load(resolved.value(), json ? ModuleType::kJson : ModuleType::kJavaScript, std::nullopt,
             &site, marked)
            .IsEmpty()) {
      return {};
    }
  }
  return module;
}

v8::MaybeLocal<v8::Module> ModuleLoader::Compile(const std::string& url, ModuleType type,
                                                 const std::optional<std::string>& source,
                                                 const ImportSite* site,
                                                 v8::Local<v8::Value>* synthetic_value) {
  v8::Isolate* isolate = runtime_->isolate();
  v8::Local<v8::Context> context = runtime_->context();
  if (url.rfind("hostloop:", 0) == 0) return CompileBuiltin(url, site, synthetic_value);
  std::string imported_from = site ? " imported from " + DisplayName(site->importer) : "";
  std::string where = site ? site->where : "";

  std::string text;
  if (source) {
    text = *source;
  } else if (IsDataUrl(url)) {
    const bool json = type == ModuleType::kJson;
    if (!ReadDataUrlModule(isolate, url, json, imported_from, where, &text)) return {};
  } else {
    base::Result<std::string> path = FileUrlToPath(url);
    if (!path.ok()) {
      isolate->ThrowException(
          MakeLoadError(isolate, path.error().message + imported_from, where, true));
      return {};
    }
    base::Result<std::string> contents =
        base::ReadFileToString(path.value(), runtime_->read_canceller());
    if (!contents.ok()) {
      std::string message = contents.error().code == ENOENT
                                ? "Cannot find module '" + path.value() + "'" + imported_from
                                : "Cannot read module '" + path.value() + "'" + imported_from +
                                      ": " + std::strerror(contents.error().code);
      isolate->ThrowException(MakeLoadError(isolate, message, where));
      return {};
    }
    text = std::move(contents).value();
    // A UTF-8 byte-order mark is neither JS nor JSON, but files carry it
    // (a BOM before a shebang line was a SyntaxError; node strips it too).
    base::StripUtf8Bom(text);
  }

  if (type == ModuleType::kJson) {
    v8::Local<v8::Value> value;
    std::string reason;
    {
      v8::TryCatch try_catch(isolate);
      v8::Local<v8::String> json_text;
      if (!MaybeV8String(isolate, text).ToLocal(&json_text)) {
        ThrowSourceTooLong(isolate, url, text.size());
        try_catch.ReThrow();
        return {};
      }
      if (!v8::JSON::Parse(context, json_text).ToLocal(&value)) {
        reason = StdString(isolate, try_catch.Message()->Get());
        std::string prefix = "Uncaught SyntaxError: ";
        if (reason.rfind(prefix, 0) == 0) reason = reason.substr(prefix.size());
      }
    }
    if (value.IsEmpty()) {
      // Thrown outside the TryCatch above, which would swallow it.
      isolate->ThrowException(v8::Exception::SyntaxError(
          V8String(isolate, "Invalid JSON in module " + DisplayName(url) + ": " + reason)));
      return {};
    }
    std::vector<v8::Local<v8::String>> names = {V8Symbol(isolate, "default")};
    v8::Local<v8::Module> module = v8::Module::CreateSyntheticModule(
        isolate, V8String(isolate, url), names, EvaluateSyntheticModule);
    *synthetic_value = value;
    return module;
  }

  if (!source && !IsDataUrl(url) && EndsWith(url, ".json")) {
    // Static imports accept `assert` and `with`; V8 10.2 reads only `assert`
    // from import()'s options.
    std::string how =
        site ? "add `with { type: 'json' }` (or `assert { type: 'json' }`) to the import"
             : "import() it with `{ assert: { type: 'json' } }` (V8 10.2 does not read "
               "`with` in import() options)";
    isolate->ThrowException(MakeLoadError(
        isolate, "Cannot import JSON module '" + DisplayName(url) + "' as JavaScript: " + how,
        where, /*type_error=*/true));
    return {};
  }

  // V8 10.2 reads import attributes only in their older spelling, with
  // `assert` (import_attributes.h). A module that compiles as written is
  // never rewritten; one that does not has all its `with` clauses rewritten
  // at once and is compiled again. When nothing was rewritten, V8's error
  // for the text as written stands.
  {
    v8::TryCatch try_catch(isolate);
    v8::Local<v8::Module> module;
    if (CompileModuleText(isolate, url, text).ToLocal(&module)) return module;
    if (try_catch.HasTerminated() || RewriteImportAttributes(&text) == 0) {
      try_catch.ReThrow();
      return {};
    }
  }
  return CompileModuleText(isolate, url, text);
}

namespace {

// The own enumerable string-keyed property names of a native module's
// exports object, numbers as strings.
v8::MaybeLocal<v8::Array> ExportNames(v8::Local<v8::Context> context,
                                      v8::Local<v8::Object> exports) {
  return exports->GetOwnPropertyNames(
      context, static_cast<v8::PropertyFilter>(v8::ONLY_ENUMERABLE | v8::SKIP_SYMBOLS),
      v8::KeyConversionMode::kConvertToString);
}

}  // namespace

v8::MaybeLocal<v8::Module> ModuleLoader::CompileBuiltin(const std::string& url,
                                                        const ImportSite* site,
                                                        v8::Local<v8::Value>* synthetic_value) {
  v8::Isolate* isolate = runtime_->isolate();
  v8::Local<v8::Context> context = runtime_->context();
  auto it = builtins_.find(url.substr(9));
  if (it == builtins_.end()) {
    std::string imported_from = site ? " imported from " + DisplayName(site->importer) : "";
    isolate->ThrowException(MakeLoadError(
        isolate, "Cannot find module '" + url + "'" + imported_from, site ? site->where : ""));
    return {};
  }
  v8::Local<v8::Object> exports;
  {
    v8::TryCatch try_catch(isolate);
    Runtime::NativeCallbackScope in_callback(runtime_);
    if (!it->second(context).ToLocal(&exports) &&
        (try_catch.HasCaught() || try_catch.HasTerminated())) {
      try_catch.ReThrow();
      return {};
    }
  }
  if (exports.IsEmpty()) {
    // A factory that returned nothing without throwing: an error all the
    // same (an import with no exception to reject with crashed).
    isolate->ThrowException(v8::Exception::Error(
        V8String(isolate, "The module factory of '" + url + "' returned no exports object")));
    return {};
  }
  v8::Local<v8::Array> keys;
  if (!ExportNames(context, exports).ToLocal(&keys)) return {};
  // Every own enumerable string key is a named export (a number is named by
  // its string, "0"); `default` is the object itself unless it has an own
  // `default` (a name may be exported only once).
  std::vector<v8::Local<v8::String>> names;
  bool has_default = false;
  for (uint32_t i = 0; i < keys->Length(); ++i) {
    v8::Local<v8::Value> key;
    if (!keys->Get(context, i).ToLocal(&key)) return {};  // terminating
    v8::Local<v8::String> name = key.As<v8::String>();
    has_default |= name->StringEquals(V8Symbol(isolate, "default"));
    names.push_back(name);
  }
  if (!has_default) names.push_back(V8Symbol(isolate, "default"));
  v8::Local<v8::Module> module = v8::Module::CreateSyntheticModule(isolate, V8String(isolate, url),
                                                                   names, EvaluateSyntheticModule);
  *synthetic_value = exports;
  return module;
}

v8::MaybeLocal<v8::Value> ModuleLoader::EvaluateSyntheticModule(v8::Local<v8::Context> context,
                                                                v8::Local<v8::Module> module) {
  v8::Isolate* isolate = context->GetIsolate();
  Runtime* runtime = Runtime::From(isolate);
  Record* record = runtime->modules().FindRecord(module);
  CHECK(record != nullptr);
  // An exception a getter of the exports throws must go back to V8 pending
  // (V8 checks that one is when these steps return nothing): caught here
  // and rethrown, or the embedder's TryCatch further up took it and V8
  // stopped the process on "has_pending_exception()".
  v8::TryCatch try_catch(isolate);
  auto fail = [&try_catch]() -> v8::MaybeLocal<v8::Value> {
    if (try_catch.HasCaught() && !try_catch.HasTerminated()) try_catch.ReThrow();
    return {};
  };
  v8::Local<v8::Value> value = record->synthetic_value.Get(isolate);
  if (record->type == ModuleType::kJson) {
    if (module->SetSyntheticModuleExport(isolate, V8Symbol(isolate, "default"), value)
            .IsNothing()) {
      return fail();
    }
  } else {
    v8::Local<v8::Object> exports = value.As<v8::Object>();
    module->SetSyntheticModuleExport(isolate, V8Symbol(isolate, "default"), exports)
        .FromMaybe(false);
    v8::Local<v8::Array> keys;
    if (!ExportNames(context, exports).ToLocal(&keys)) return fail();
    for (uint32_t i = 0; i < keys->Length(); ++i) {
      v8::Local<v8::Value> key_value;
      if (!keys->Get(context, i).ToLocal(&key_value)) return fail();  // terminating
      v8::Local<v8::String> key = key_value.As<v8::String>();
      v8::Local<v8::Value> export_value;
      // Only names CompileBuiltin declared (an exports object that changed
      // since has the rest ignored); a throwing getter fails the import.
      if (!exports->Get(context, key).ToLocal(&export_value)) return fail();
      v8::TryCatch undeclared(isolate);  // a key added after the import was compiled
      module->SetSyntheticModuleExport(isolate, key, export_value).FromMaybe(false);
    }
  }
  // With top-level await, module evaluation yields a promise.
  v8::Local<v8::Promise::Resolver> resolver;
  if (!v8::Promise::Resolver::New(context).ToLocal(&resolver)) return fail();  // terminating
  resolver->Resolve(context, v8::Undefined(isolate)).FromMaybe(false);
  return resolver->GetPromise();
}

v8::MaybeLocal<v8::Module> ModuleLoader::ResolveCallback(
    v8::Local<v8::Context> context, v8::Local<v8::String> specifier,
    v8::Local<v8::FixedArray> import_assertions, v8::Local<v8::Module> referrer) {
  v8::Isolate* isolate = context->GetIsolate();
  ModuleLoader& loader = Runtime::From(isolate)->modules();
  Record* record = loader.FindRecord(referrer);
  CHECK(record != nullptr);
  std::string spec = StdString(isolate, specifier);
  base::Result<std::string> url = ResolveSpecifier(spec, record->url);
  std::string unsupported;
  bool json = AssertedJson(context, import_assertions, 3, &unsupported);
  if (url.ok()) {
    auto it = loader.by_url_.find(CacheKey(url.value(), json));
    if (it != loader.by_url_.end()) return it->second->module.Get(isolate);
  }
  // Every import was loaded before instantiation; this is a loader bug.
  ThrowError(isolate, "module '" + spec + "' was not loaded before instantiation");
  return {};
}

void ModuleLoader::InitializeImportMeta(v8::Local<v8::Context> context,
                                        v8::Local<v8::Module> module, v8::Local<v8::Object> meta) {
  v8::Isolate* isolate = context->GetIsolate();
  Runtime* runtime = Runtime::From(isolate);
  std::string url = runtime->modules().UrlOf(module);
  v8::Local<v8::String> url_string = V8String(isolate, url);
  meta->CreateDataProperty(context, V8Symbol(isolate, "url"), url_string).FromMaybe(false);
  base::Result<std::string> path = FileUrlToPath(url);
  if (path.ok()) {
    std::string filename = path.value();
    std::string dirname = filename.substr(0, filename.rfind('/'));
    if (dirname.empty()) dirname = "/";
    meta->CreateDataProperty(context, V8Symbol(isolate, "filename"), V8String(isolate, filename))
        .FromMaybe(false);
    meta->CreateDataProperty(context, V8Symbol(isolate, "dirname"), V8String(isolate, dirname))
        .FromMaybe(false);
  }
  // import.meta.resolve(specifier): the URL the specifier names from here.
  v8::Local<v8::Function> resolve;
  if (!v8::Function::New(
           context,
           [](const v8::FunctionCallbackInfo<v8::Value>& info) {
             v8::Isolate* isolate = info.GetIsolate();
             std::string base = StdString(isolate, info.Data());
             // ? ToString(specifier): what a toString throws propagates.
             v8::Local<v8::Value> argument =
                 info.Length() > 0 ? info[0] : v8::Undefined(isolate).As<v8::Value>();
             v8::Local<v8::String> specifier;
             if (!argument->ToString(isolate->GetCurrentContext()).ToLocal(&specifier)) return;
             std::string spec = StdString(isolate, specifier);
             base::Result<std::string> resolved = ResolveSpecifier(spec, base);
             if (!resolved.ok()) {
               ThrowTypeError(isolate, resolved.error().message);
               return;
             }
             info.GetReturnValue().Set(V8String(isolate, resolved.value()));
           },
           url_string, 1, v8::ConstructorBehavior::kThrow)
           .ToLocal(&resolve)) {
    return;  // the runtime's JS is being terminated
  }
  meta->CreateDataProperty(context, V8Symbol(isolate, "resolve"), resolve).FromMaybe(false);
}

v8::MaybeLocal<v8::Promise> ModuleLoader::ImportDynamically(
    v8::Local<v8::Context> context, v8::Local<v8::Data> host_defined_options,
    v8::Local<v8::Value> resource_name, v8::Local<v8::String> specifier,
    v8::Local<v8::FixedArray> import_assertions) {
  v8::Isolate* isolate = context->GetIsolate();
  Runtime* runtime = Runtime::From(isolate);
  v8::Local<v8::Promise::Resolver> resolver;
  if (!v8::Promise::Resolver::New(context).ToLocal(&resolver)) return {};
  std::string referrer = resource_name->IsString() ? StdString(isolate, resource_name) : "";
  // A string timer handler carries the URL of the script that set the timer
  // (HTML: the initiating script's base URL) in its host-defined options.
  const auto has_own_url = [](const std::string& url) {
    return url.rfind("file://", 0) == 0 || IsDataUrl(url);
  };
  if (!has_own_url(referrer) && !host_defined_options.IsEmpty() &&
      host_defined_options->IsFixedArray()) {
    v8::Local<v8::PrimitiveArray> options = host_defined_options.As<v8::PrimitiveArray>();
    if (options->Length() > 0) {
      v8::Local<v8::Primitive> base = options->Get(isolate, 0);
      if (base->IsString()) referrer = StdString(isolate, base);
    }
  }
  // Code with no file of its own (the REPL, -e): the current directory.
  if (!has_own_url(referrer)) referrer = CurrentDirectoryUrl();
  std::string spec = StdString(isolate, specifier);
  std::string unsupported;
  std::string unknown_key;
  bool json = AssertedJson(context, import_assertions, 2, &unsupported, &unknown_key);
  if (!unknown_key.empty()) {
    resolver->Reject(context, UnknownAttributeError(isolate, unknown_key, spec, ""))
        .FromMaybe(false);
    return resolver->GetPromise();
  }
  if (!unsupported.empty()) {
    resolver
        ->Reject(context, v8::Exception::TypeError(
                              V8String(isolate, "Unsupported module type '" + unsupported + "'")))
        .FromMaybe(false);
    return resolver->GetPromise();
  }
  // Loading and evaluation happen in a later task, never inside the JS
  // that called import(); the pending entry keeps the loop alive until then.
  runtime->event_loop().PostInternal([runtime,
                                      global = v8::Global<v8::Promise::Resolver>(isolate, resolver),
                                      referrer, spec, json]() mutable {
    v8::Isolate* isolate = runtime->isolate();
    v8::HandleScope scope(isolate);
    runtime->modules().FinishDynamicImport(global.Get(isolate), referrer, spec,
                                           json ? ModuleType::kJson : ModuleType::kJavaScript);
  });
  return resolver->GetPromise();
}

void ModuleLoader::FinishDynamicImport(v8::Local<v8::Promise::Resolver> resolver,
                                       const std::string& referrer, const std::string& specifier,
                                       ModuleType type) {
  v8::Isolate* isolate = runtime_->isolate();
  v8::Local<v8::Context> context = runtime_->context();
  v8::TryCatch try_catch(isolate);
  auto reject = [&](v8::Local<v8::Value> reason) {
    resolver->Reject(context, reason).FromMaybe(false);
  };

  base::Result<std::string> url = ResolveSpecifier(specifier, referrer);
  if (!url.ok()) {
    reject(v8::Exception::TypeError(
        V8String(isolate, "Cannot resolve '" + specifier + "' imported from " +
                              DisplayName(referrer) + ": " + url.error().message)));
    return;
  }
  v8::Local<v8::Module> module;
  if (!LoadGraph(url.value(), type, std::nullopt).ToLocal(&module)) {
    reject(try_catch.Exception());
    return;
  }
  if (module->GetStatus() == v8::Module::kUninstantiated &&
      module->InstantiateModule(context, ResolveCallback).IsNothing()) {
    reject(try_catch.Exception());
    return;
  }
  v8::Local<v8::Value> result;
  if (!module->Evaluate(context).ToLocal(&result)) {
    if (try_catch.HasTerminated()) return;
    reject(try_catch.Exception());
    return;
  }
  v8::Local<v8::Array> data = v8::Array::New(isolate, 2);
  data->Set(context, 0, resolver).FromMaybe(false);
  data->Set(context, 1, module->GetModuleNamespace()).FromMaybe(false);
  auto on_fulfilled = [](const v8::FunctionCallbackInfo<v8::Value>& info) {
    v8::Local<v8::Context> context = info.GetIsolate()->GetCurrentContext();
    v8::Local<v8::Array> data = info.Data().As<v8::Array>();
    v8::Local<v8::Value> resolver;
    v8::Local<v8::Value> namespace_object;
    if (data->Get(context, 0).ToLocal(&resolver) &&
        data->Get(context, 1).ToLocal(&namespace_object)) {
      resolver.As<v8::Promise::Resolver>()->Resolve(context, namespace_object).FromMaybe(false);
    }
  };
  auto on_rejected = [](const v8::FunctionCallbackInfo<v8::Value>& info) {
    v8::Local<v8::Context> context = info.GetIsolate()->GetCurrentContext();
    v8::Local<v8::Array> data = info.Data().As<v8::Array>();
    v8::Local<v8::Value> resolver;
    if (data->Get(context, 0).ToLocal(&resolver)) {
      resolver.As<v8::Promise::Resolver>()->Reject(context, info[0]).FromMaybe(false);
    }
  };
  Runtime::From(isolate)->WhenSettled(result.As<v8::Promise>(), on_fulfilled, on_rejected, data);
}

}  // namespace hostloop::runtime
