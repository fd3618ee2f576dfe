// ModuleLoader: ES modules for one Runtime. Modules are named by absolute
// URLs (file: for files, hostloop: for built-in modules) and cached by URL,
// so an import cycle or a diamond loads each module once.
//
// Loading a graph is synchronous and complete before instantiation: the
// loader compiles the root, then every static import, depth first, resolving
// specifiers against the importer's URL. InstantiateModule's resolve callback
// then only looks modules up. Failures become JS exceptions naming the
// specifier and the importer, with the import's line and column; a failed
// load leaves none of the modules it walked counted as loaded, so the next
// import of any of them meets the failure again (or loads what is fixed).
//
// import() posts the load to the internal lane (a host completion) and
// settles its promise when the imported module's evaluation settles.
#pragma once

#include <v8.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace hostloop::runtime {

class Runtime;

class ModuleLoader {
 public:
  // A built-in module importable as hostloop:NAME: given the context, returns
  // its exports object (own enumerable properties become named exports).
  using BuiltinModuleFactory = std::function<v8::MaybeLocal<v8::Object>(v8::Local<v8::Context>)>;

  explicit ModuleLoader(Runtime* runtime);
  ~ModuleLoader();

  // Installs the isolate callbacks (dynamic import, import.meta).
  static void InstallCallbacks(v8::Isolate* isolate);

  // Loads the graph rooted at `url` (with `source` instead of the file, for
  // -e) and instantiates it. On failure an exception is pending in the
  // caller's TryCatch and the result is empty.
  v8::MaybeLocal<v8::Module> LoadAndInstantiate(const std::string& url,
                                                const std::optional<std::string>& source);

  // Registers hostloop:NAME.
  void RegisterBuiltin(const std::string& name, BuiltinModuleFactory factory);

  // The URL a module was loaded from ("" if unknown).
  std::string UrlOf(v8::Local<v8::Module> module) const;
  // Whether `url` is in the module map (loaded, or failed to parse).
  bool Knows(const std::string& url) const {
    return by_url_.count(url) > 0 || parse_errors_.count(url) > 0;
  }

 private:
  enum class ModuleType { kJavaScript, kJson };
  struct Record;
  // Where a static import sits, for error messages.
  struct ImportSite {
    std::string importer;  // URL
    std::string where;     // "file:///x/main.mjs:3:8"
  };

  // Loads the graph rooted at `url`: all of it, or (with an exception
  // pending) nothing that counts as loaded.
  v8::MaybeLocal<v8::Module> LoadGraph(const std::string& url, ModuleType type,
                                       const std::optional<std::string>& source);
  // Compiles (or finds) the module at `url` and, recursively, its imports.
  // Each record marked `dependencies_loaded` on the way is added to `marked`.
  v8::MaybeLocal<v8::Module> Load(const std::string& url, ModuleType type,
                                  const std::optional<std::string>& source, const ImportSite* site,
                                  std::vector<Record*>* marked);
  v8::MaybeLocal<v8::Module> LoadDependencies(Record* record, std::vector<Record*>* marked);
  v8::MaybeLocal<v8::Module> Compile(const std::string& url, ModuleType type,
                                     const std::optional<std::string>& source,
                                     const ImportSite* site, v8::Local<v8::Value>* synthetic_value);
  v8::MaybeLocal<v8::Module> CompileBuiltin(const std::string& url, const ImportSite* site,
                                            v8::Local<v8::Value>* synthetic_value);
  Record* FindRecord(v8::Local<v8::Module> module) const;

  static v8::MaybeLocal<v8::Module> ResolveCallback(v8::Local<v8::Context> context,
                                                    v8::Local<v8::String> specifier,
                                                    v8::Local<v8::FixedArray> import_assertions,
                                                    v8::Local<v8::Module> referrer);
  static v8::MaybeLocal<v8::Promise> ImportDynamically(v8::Local<v8::Context> context,
                                                       v8::Local<v8::Data> host_defined_options,
                                                       v8::Local<v8::Value> resource_name,
                                                       v8::Local<v8::String> specifier,
                                                       v8::Local<v8::FixedArray> import_assertions);
  static void InitializeImportMeta(v8::Local<v8::Context> context, v8::Local<v8::Module> module,
                                   v8::Local<v8::Object> meta);
  static v8::MaybeLocal<v8::Value> EvaluateSyntheticModule(v8::Local<v8::Context> context,
                                                           v8::Local<v8::Module> module);

  // Runs a dynamic import from the internal lane.
  void FinishDynamicImport(v8::Local<v8::Promise::Resolver> resolver, const std::string& referrer,
                           const std::string& specifier, ModuleType type);

  Runtime* const runtime_;
  std::unordered_map<std::string, std::unique_ptr<Record>> by_url_;
  // Modules whose source did not parse, by the same key: HTML's module map
  // keeps the parse error, and every later import of the URL rethrows it
  // (the same object, as node does).
  std::unordered_map<std::string, v8::Global<v8::Value>> parse_errors_;
  std::unordered_multimap<int, Record*> by_hash_;
  std::unordered_map<std::string, BuiltinModuleFactory> builtins_;
};

}  // namespace hostloop::runtime
