#include "runtime/native_module.h"

#include "runtime/runtime.h"

namespace hostloop::runtime {
namespace {

std::unordered_map<std::string, NativeModuleFactory>& Registry() {
  static std::unordered_map<std::string, NativeModuleFactory> registry;
  return registry;
}

}  // namespace

void RegisterNativeModule(const std::string& name, NativeModuleFactory factory) {
  Registry()[name] = std::move(factory);
}

const std::unordered_map<std::string, NativeModuleFactory>& NativeModules() { return Registry(); }

uint64_t PendingPromises::Add(v8::Local<v8::Promise::Resolver> resolver) {
  uint64_t id = next_id_++;
  resolvers_.emplace(id, v8::Global<v8::Promise::Resolver>(runtime_->isolate(), resolver));
  return id;
}

v8::Local<v8::Promise::Resolver> PendingPromises::Take(uint64_t id) {
  auto it = resolvers_.find(id);
  if (it == resolvers_.end()) return {};
  v8::Local<v8::Promise::Resolver> resolver = it->second.Get(runtime_->isolate());
  resolvers_.erase(it);
  return resolver;
}

}  // namespace hostloop::runtime
