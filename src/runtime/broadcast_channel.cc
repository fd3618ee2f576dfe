#include "runtime/broadcast_channel.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/check.h"
#include "base/thread_annotations.h"
#include "loop/event_loop.h"
#include "runtime/message_port.h"
#include "runtime/runtime.h"
#include "runtime/serializer.h"
#include "runtime/v8_util.h"

namespace hostloop::runtime {
namespace {

class ChannelHandle;

// One open BroadcastChannel, as the hub sees it (any thread).
struct Subscription {
  Subscription(std::string name, std::shared_ptr<loop::EventLoop> loop)
      : name(std::move(name)), loop(loop), runtime_id(loop->owner_id()) {}
  const std::string name;
  const std::weak_ptr<loop::EventLoop> loop;
  // Which runtime the channel lives in (its EventLoop's owner id).
  const uint32_t runtime_id;
  // Set by the hub when the channel closes (any thread reads it).
  std::atomic<bool> closed{false};
  // The channel's home-thread side; read and written on that thread only.
  ChannelHandle* handle = nullptr;
};

// On `subscription`'s home thread: its channel looks again at its liveness.
void Recheck(const Subscription& subscription);

// The process-wide registry of open channels.
class Hub {
 public:
  static Hub& Get() {
    static Hub* hub = new Hub();  // never destroyed: workers may outlive main's statics
    return *hub;
  }

  void Open(const std::shared_ptr<Subscription>& subscription) {
    base::MutexLock lock(mutex_);
    by_name_[subscription->name].push_back(subscription);
  }

  void Close(const std::shared_ptr<Subscription>& subscription) {
    base::MutexLock lock(mutex_);
    if (subscription->closed.exchange(true)) return;
    auto it = by_name_.find(subscription->name);
    if (it == by_name_.end()) return;
    std::erase(it->second, subscription);
    if (it->second.empty()) by_name_.erase(it);
  }

  // Whether another runtime lives in the process: one that could open a
  // channel of any name and post to it.
  bool OtherRuntimesAlive() {
    base::MutexLock lock(mutex_);
    return runtimes_ > 1;
  }

  // A runtime starts or ends. When that changes whether any channel has a
  // runtime beside its own (one runtime <-> two), every open channel looks
  // again at its liveness.
  void RuntimeStarted() { ChangeRuntimes(+1); }
  void RuntimeEnded() { ChangeRuntimes(-1); }

  // The open channels of `source`'s name other than `source`, in creation order.
  std::vector<std::shared_ptr<Subscription>> Destinations(const Subscription& source) {
    std::vector<std::shared_ptr<Subscription>> destinations;
    base::MutexLock lock(mutex_);
    auto it = by_name_.find(source.name);
    if (it == by_name_.end()) return destinations;
    for (const auto& other : it->second) {
      if (other.get() != &source) destinations.push_back(other);
    }
    return destinations;
  }

 private:
  Hub() = default;

  void ChangeRuntimes(int delta) {
    std::vector<std::shared_ptr<Subscription>> affected;
    {
      base::MutexLock lock(mutex_);
      const bool before = runtimes_ > 1;
      runtimes_ += delta;
      if ((runtimes_ > 1) == before) return;
      for (const auto& [name, list] : by_name_) affected.insert(affected.end(), list.begin(), list.end());
    }
    // Outside the lock (a refused post destroys its task here).
    for (const auto& subscription : affected) {
      std::shared_ptr<loop::EventLoop> loop = subscription->loop.lock();
      if (!loop) continue;
      loop->PostInternal([subscription] { Recheck(*subscription); });
    }
  }

  base::Mutex mutex_;
  std::map<std::string, std::vector<std::shared_ptr<Subscription>>> by_name_ GUARDED_BY(mutex_);
  int runtimes_ GUARDED_BY(mutex_) = 0;
};

// The copy of a serialized message for one more destination. A broadcast
// transfers nothing, so only the bytes, shared memory and wasm modules are
// carried.
std::unique_ptr<SerializedMessage> CopyMessage(const SerializedMessage& message) {
  auto copy = std::make_unique<SerializedMessage>();
  if (message.size > 0) {
    copy->data.reset(static_cast<uint8_t*>(std::malloc(message.size)));
    CHECK_MSG(copy->data != nullptr, "out of memory copying a BroadcastChannel message");
    std::memcpy(copy->data.get(), message.data.get(), message.size);
    copy->size = message.size;
    copy->capacity = message.size;
  }
  if (message.attachments) {
    const SerializedMessage::Attachments& from = *message.attachments;
    SerializedMessage::Attachments& to = copy->attach();
    to.shared_array_buffers = from.shared_array_buffers;
    // (Copy-constructed one by one: CompiledWasmModule cannot be assigned.)
    to.wasm_modules.reserve(from.wasm_modules.size());
    for (const v8::CompiledWasmModule& module : from.wasm_modules) to.wasm_modules.push_back(module);
  }
  copy->inline_value = message.inline_value;
  copy->number = message.number;
  return copy;
}

// A runtime's open channels, by the id its JS objects hold. Destroyed first
// when the runtime goes away (a RuntimeExtension): its channels close then.
class ChannelRegistry final : public RuntimeExtension {
 public:
  static ChannelRegistry& For(Runtime* runtime) {
    RuntimeExtension* existing = runtime->extension(ExtensionSlot::kBroadcastChannels);
    if (existing == nullptr) {
      runtime->set_extension(ExtensionSlot::kBroadcastChannels, std::make_unique<ChannelRegistry>());
      existing = runtime->extension(ExtensionSlot::kBroadcastChannels);
    }
    return *static_cast<ChannelRegistry*>(existing);
  }
  ~ChannelRegistry() override;

  uint64_t Add(std::unique_ptr<ChannelHandle> handle);
  ChannelHandle* Find(uint64_t id) {
    auto it = handles_.find(id);
    return it == handles_.end() ? nullptr : it->second.get();
  }
  void Remove(uint64_t id) { handles_.erase(id); }

 private:
  std::unordered_map<uint64_t, std::unique_ptr<ChannelHandle>> handles_;
  uint64_t next_id_ = 1;
};

// The home-thread side of one BroadcastChannel: its JS object (held strongly
// only while it may still receive a message somebody listens for, as HTML's
// garbage collection rules say) and its subscription.
class ChannelHandle {
 public:
  ChannelHandle(Runtime* runtime, v8::Local<v8::Object> object, std::string name)
      : runtime_(runtime),
        subscription_(std::make_shared<Subscription>(std::move(name),
                                                     runtime->event_loop().shared_from_this())) {
    object_.Reset(runtime->isolate(), object);
    subscription_->handle = this;
  }
  ~ChannelHandle() {
    Close();
    object_.Reset();
  }
  ChannelHandle(const ChannelHandle&) = delete;
  ChannelHandle& operator=(const ChannelHandle&) = delete;

  void set_id(uint64_t id) { id_ = id; }
  const std::shared_ptr<Subscription>& subscription() const { return subscription_; }
  Runtime* runtime() const { return runtime_; }
  v8::Local<v8::Object> object() { return object_.Get(runtime_->isolate()); }

  void Open() {
    Hub::Get().Open(subscription_);
    UpdateLiveness();
  }

  void Close() {
    if (subscription_->handle == nullptr) return;
    subscription_->handle = nullptr;
    Hub::Get().Close(subscription_);
    closed_ = true;
    UpdateLiveness();
  }

  void set_listening(bool listening) {
    listening_ = listening;
    UpdateLiveness();
  }

  // J3 and garbage collection: see the header.
  void UpdateLiveness() {
    const bool open = !closed_;
    loop_ref_.Set(runtime_->event_loop(), open && listening_ && Hub::Get().OtherRuntimesAlive());
    // A channel that is open and listening may still get events: its
    // object stays. Otherwise nobody can observe it any more once script
    // drops it, and collecting it closes the channel.
    strength_.Set(open && listening_);
  }

  void MakeWeak() { strength_.MakeWeak(); }

 private:
  static void OnCollected(const v8::WeakCallbackInfo<ChannelHandle>& info) {
    ChannelHandle* handle = info.GetParameter();
    handle->object_.Reset();
    ChannelRegistry::For(handle->runtime_).Remove(handle->id_);  // deletes it
  }

  Runtime* const runtime_;
  const std::shared_ptr<Subscription> subscription_;
  v8::Global<v8::Object> object_;
  uint64_t id_ = 0;
  bool closed_ = false;
  bool listening_ = false;
  loop::LoopRef loop_ref_;
  StrongWhile<ChannelHandle> strength_{&object_, this, OnCollected};
};

uint64_t ChannelRegistry::Add(std::unique_ptr<ChannelHandle> handle) {
  const uint64_t id = next_id_++;
  handle->set_id(id);
  handles_.emplace(id, std::move(handle));
  return id;
}

ChannelRegistry::~ChannelRegistry() {
  // The runtime is going away: its channels close (the other runtimes'
  // channels of their names look again at their liveness).
  handles_.clear();
}

void Recheck(const Subscription& subscription) {
  if (subscription.handle != nullptr) subscription.handle->UpdateLiveness();
}

Runtime* RuntimeOf(const v8::FunctionCallbackInfo<v8::Value>& info) {
  return Runtime::From(info.GetIsolate());
}

ChannelHandle* HandleOf(const v8::FunctionCallbackInfo<v8::Value>& info) {
  if (info.Length() < 1 || !info[0]->IsNumber()) return nullptr;
  const double id = info[0].As<v8::Number>()->Value();
  if (!(id >= 1)) return nullptr;
  return ChannelRegistry::For(RuntimeOf(info)).Find(static_cast<uint64_t>(id));
}

// broadcastOpen(object, name) -> id
void BroadcastOpen(const v8::FunctionCallbackInfo<v8::Value>& info) {
  if (info.Length() < 2 || !info[0]->IsObject() || !info[1]->IsString()) return;
  Runtime* runtime = RuntimeOf(info);
  if (runtime->stopping()) return;
  auto handle = std::make_unique<ChannelHandle>(runtime, info[0].As<v8::Object>(),
                                                StdString(info.GetIsolate(), info[1]));
  ChannelHandle* raw = handle.get();
  const uint64_t id = ChannelRegistry::For(runtime).Add(std::move(handle));
  raw->MakeWeak();
  raw->Open();
  info.GetReturnValue().Set(static_cast<double>(id));
}

// broadcastPost(id, message): serializes (a DataCloneError is thrown here),
// then queues a copy for every other open channel of the name.
void BroadcastPost(const v8::FunctionCallbackInfo<v8::Value>& info) {
  ChannelHandle* handle = HandleOf(info);
  if (handle == nullptr || info.Length() < 2) return;
  Runtime* runtime = RuntimeOf(info);
  std::unique_ptr<SerializedMessage> message =
      Serialize(runtime, info[1], v8::Undefined(info.GetIsolate()));
  if (!message) return;
  std::vector<std::shared_ptr<Subscription>> destinations = Hub::Get().Destinations(*handle->subscription());
  for (std::size_t i = 0; i < destinations.size(); ++i) {
    std::shared_ptr<loop::EventLoop> loop = destinations[i]->loop.lock();
    if (!loop) continue;
    // The last destination takes the original.
    std::unique_ptr<SerializedMessage> copy =
        i + 1 == destinations.size() ? std::move(message) : CopyMessage(*message);
    loop->PostInternal([subscription = destinations[i], copy = std::move(copy)] {
      // Closed since (or its runtime is stopping): dropped, as HTML's task
      // checks the close flag.
      ChannelHandle* target = subscription->handle;
      if (target == nullptr || subscription->closed.load()) return;
      v8::HandleScope scope(target->runtime()->isolate());
      DispatchMessageEvent(target->runtime(), target->object(), *copy);
    });
  }
}

// broadcastClose(id)
void BroadcastClose(const v8::FunctionCallbackInfo<v8::Value>& info) {
  if (ChannelHandle* handle = HandleOf(info)) handle->Close();
}

// broadcastListening(id, listening): whether a message or messageerror
// listener is registered.
void BroadcastListening(const v8::FunctionCallbackInfo<v8::Value>& info) {
  ChannelHandle* handle = HandleOf(info);
  if (handle == nullptr || info.Length() < 2) return;
  handle->set_listening(info[1]->BooleanValue(info.GetIsolate()));
}

}  // namespace

void NoteRuntimeStarted() { Hub::Get().RuntimeStarted(); }
void NoteRuntimeEnded() { Hub::Get().RuntimeEnded(); }

std::span<const HostFunction> BroadcastChannelFunctions() {
  static const HostFunction kFunctions[] = {
      {"broadcastOpen", BroadcastOpen},
      {"broadcastPost", BroadcastPost},
      {"broadcastClose", BroadcastClose},
      {"broadcastListening", BroadcastListening},
  };
  return kFunctions;
}

}  // namespace hostloop::runtime
