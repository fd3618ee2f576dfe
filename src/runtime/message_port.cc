#include "runtime/message_port.h"

#include <algorithm>
#include <vector>

#include "base/check.h"
#include "loop/run_guarded.h"
#include "runtime/runtime.h"
#include "runtime/v8_util.h"

namespace hostloop::runtime {

// ---- PortCore ----------------------------------------------------------------

std::pair<std::shared_ptr<PortCore>, std::shared_ptr<PortCore>> PortCore::CreatePair() {
  std::shared_ptr<PortCore> a(new PortCore());
  std::shared_ptr<PortCore> b(new PortCore());
  {
    base::MutexLock lock(a->mutex_);
    a->peer_ = b;
  }
  {
    base::MutexLock lock(b->mutex_);
    b->peer_ = a;
  }
  return {std::move(a), std::move(b)};
}

PortCore::~PortCore() { NotifyPeer(); }

std::shared_ptr<PortCore> PortCore::peer() {
  base::MutexLock lock(mutex_);
  return peer_.lock();
}

void PortCore::PostToPeer(Runtime* sender, std::unique_ptr<SerializedMessage> message) {
  PostTo(sender, peer(), std::move(message));
}

void PortCore::PostTo(Runtime* sender, std::shared_ptr<PortCore> target,
                      std::unique_ptr<SerializedMessage> message) {
  if (!target) return;
  PortCore& core = *target;
  if (std::unique_ptr<SerializedMessage> spare =
          core.Enqueue(std::move(message), std::move(target))) {
    sender->KeepSpareMessage(std::move(spare));
  }
}

bool PortCore::closed() {
  base::MutexLock lock(mutex_);
  return closed_;
}

bool PortCore::has_queued() {
  base::MutexLock lock(mutex_);
  return !queue_.empty();
}

std::unique_ptr<SerializedMessage> PortCore::Enqueue(std::unique_ptr<SerializedMessage> message,
                                                     std::shared_ptr<PortCore> self) {
  // A post from the owner's home thread uses the owner's loop without a
  // reference of its own (two atomic operations less per message): only
  // that thread changes the owner, and a loop of this thread outlives the
  // call. One from elsewhere holds the loop while it posts.
  loop::EventLoop* owner_loop = nullptr;
  std::shared_ptr<loop::EventLoop> remote_loop;  // holds `owner_loop` for a post from elsewhere
  PortReceiver* now_pending = nullptr;           // told that deliveries are pending
  uint64_t attachment = 0;
  bool cross_thread;
  std::unique_ptr<SerializedMessage> spare;
  {
    base::MutexLock lock(mutex_);
    if (closed_) return nullptr;  // `message` is destroyed after the lock is released
    message->cross_thread = !loop_ || owner_thread_ != std::this_thread::get_id();
    cross_thread = message->cross_thread;
    queue_.push_back(std::move(message));
    if (!spares_.empty()) {
      spare = std::move(spares_.back());
      spares_.pop_back();
      spare_bytes_ -= spare->capacity;
    }
    if (!enabled_ || !loop_) return spare;
    if (cross_thread) {
      // One drain entry at a time carries every message from other threads.
      if (drain_scheduled_) return spare;
      drain_scheduled_ = true;
      remote_loop = loop_;
      owner_loop = remote_loop.get();
    } else {
      if (AddScheduled(1) == 0) now_pending = receiver_;
      owner_loop = loop_.get();
    }
    attachment = attachment_;
  }
  ScheduleDeliveries(*owner_loop, cross_thread ? 0 : 1, cross_thread, attachment,
                     self ? std::move(self) : shared_from_this());
  // (On the owner's home thread: its receiver stays while this runs.)
  if (now_pending != nullptr) now_pending->OnDeliveriesPending(true);
  return spare;
}

void PortCore::ScheduleDeliveries(loop::EventLoop& loop, std::size_t ordered, bool drain,
                                  uint64_t attachment, std::shared_ptr<PortCore> self) {
  // Within one runtime a message keeps its place among the other macrotasks
  // (L3): an ordered-lane entry of its own.
  for (std::size_t i = 0; i < ordered; ++i) {
    // (The last entry takes `self`: one reference count change less.)
    std::shared_ptr<PortCore> core = i + 1 == ordered && !drain ? std::move(self) : self;
    loop.PostOrderedChained([core = std::move(core), attachment] { core->DeliverOne(attachment); },
                            kPortDeliveryChainTag);
  }
  // From other threads: an internal-lane entry that delivers a bounded batch
  // (L4), reposting itself while messages remain.
  if (drain) {
    loop.PostInternal([core = std::move(self), attachment] { core->DrainBatch(attachment); });
  }
}

void PortCore::DrainBatch(uint64_t attachment) {
  std::shared_ptr<loop::EventLoop> loop;
  PortReceiver* receiver;
  uint64_t changes;
  // Local (on the stack: no allocation per drain): once a handler moves this
  // end to another thread, its new owner may drain it while this call is
  // still unwinding. What is left in it at the end is released on return,
  // outside the lock.
  Batch batch;
  {
    base::MutexLock lock(mutex_);
    if (attachment != attachment_) return;  // scheduled for a former owner
    if (!loop_ || closed_ || queue_.empty() || receiver_ == nullptr || !enabled_) {
      drain_scheduled_ = false;
      return;
    }
    loop = loop_;
    receiver = receiver_;
    changes = changes_.load(std::memory_order_relaxed);
    in_flight_.store(&batch, std::memory_order_relaxed);
    in_flight_next_ = 0;
    const std::size_t count = std::min(queue_.size(), kDrainCount);
    while (batch.size < count) {
      batch.Append(std::move(queue_.front()));
      queue_.pop_front();
    }
  }
  loop::Looper* looper = loop->looper();
  const loop::TimePoint budget_end = looper->Now() + kDrainTime;
  std::size_t delivered = 0;
  while (delivered < batch.size) {
    if (delivered > 0) {
      if (looper->quit_requested() || (delivered % 8 == 0 && looper->Now() >= budget_end)) break;
      // Each message is a task of its own: a microtask checkpoint between
      // them (the lane adds the last one after this entry).
      looper->NotifyEntryRan();
      // The last task moved this end (the rest is back in the queue), or it
      // (or another thread) closed it.
      if (in_flight_.load(std::memory_order_relaxed) != &batch ||
          changes_.load(std::memory_order_acquire) != changes) {
        break;
      }
    }
    in_flight_next_ = delivered + 1;
    receiver->Deliver(*batch.items[delivered++]);
  }
  // Spent messages are emptied here, on the home thread (what they carried
  // belongs to this runtime now), and kept for the senders to reuse.
  for (std::size_t i = 0; i < delivered; ++i) batch.items[i]->Recycle();

  bool repost = false;
  {
    base::MutexLock lock(mutex_);
    // (A handler that moved this end cleared it; a new owner may have set it
    // since.)
    if (in_flight_.load(std::memory_order_relaxed) == &batch) in_flight_.store(nullptr, std::memory_order_relaxed);
    if (!closed_) {
      // Undelivered messages go back in front (a closed end drops them).
      for (std::size_t i = batch.size; i-- > delivered;) queue_.push_front(std::move(batch.items[i]));
      for (std::size_t i = 0; i < delivered && spares_.size() < kMaxSpares; ++i) {
        SerializedMessage& spare = *batch.items[i];
        // Over the byte budget a spare keeps no buffer (rare: a small
        // message's buffer fits, a primitive has none).
        if (spare_bytes_ + spare.capacity > kMaxSpareBytes) spare.DropBuffer();
        spare_bytes_ += spare.capacity;
        spares_.push_back(std::move(batch.items[i]));
      }
    }
    // After a move, the new owner schedules its own deliveries.
    if (attachment == attachment_) {
      repost = !closed_ && !queue_.empty() && receiver_ != nullptr && enabled_;
      if (!repost) drain_scheduled_ = false;
    }
  }
  if (repost) {
    // The rest waits behind whatever else the lane holds (a later pass).
    loop->PostInternal([core = shared_from_this(), attachment] { core->DrainBatch(attachment); });
  }
}

void PortCore::DeliverOne(uint64_t attachment) {
  std::unique_ptr<SerializedMessage> message;
  PortReceiver* receiver;
  uint64_t changes;
  {
    base::MutexLock lock(mutex_);
    if (attachment != attachment_) return;  // scheduled for a former owner
    if (std::size_t scheduled = scheduled_.load(std::memory_order_relaxed)) {
      scheduled_.store(scheduled - 1, std::memory_order_relaxed);
    }
    if (closed_ || queue_.empty() || receiver_ == nullptr) return;
    message = std::move(queue_.front());
    queue_.pop_front();
    receiver = receiver_;
    changes = changes_.load(std::memory_order_relaxed);
  }
  receiver->DeliverOrdered(*message);
  // Unless the handler closed or moved this end (after which `receiver` may
  // be gone), the spent message goes back to the runtime for its next post:
  // an allocation and a free per message otherwise. And with no delivery
  // left (the handler posted none to this end), the port may be collected
  // again. (Closed or moved, it was told already.)
  if (changes_.load(std::memory_order_acquire) == changes) {
    message->Recycle();
    receiver->KeepSpare(std::move(message));
    if (scheduled_.load(std::memory_order_relaxed) == 0) receiver->OnDeliveriesPending(false);
  }
}

void PortCore::Attach(PortReceiver* receiver, std::shared_ptr<loop::EventLoop> loop, bool notify_peer) {
  ChangeOwner(receiver, std::move(loop), notify_peer);
}

void PortCore::Detach() { ChangeOwner(nullptr, nullptr); }

void PortCore::ChangeOwner(PortReceiver* receiver, std::shared_ptr<loop::EventLoop> loop,
                           bool notify_peer) {
  {
    base::MutexLock lock(mutex_);
    receiver_ = receiver;
    loop_ = std::move(loop);
    owner_thread_ = std::this_thread::get_id();
    // A handler moving this end in the middle of a batch: the rest of the
    // batch goes back in front before the new owner can take it.
    // (A closed end drops them: DrainBatch releases them outside the lock.)
    if (Batch* batch = in_flight_.load(std::memory_order_relaxed)) {
      if (!closed_) {
        for (std::size_t i = batch->size; i-- > in_flight_next_;) queue_.push_front(std::move(batch->items[i]));
        batch->Truncate(in_flight_next_);
      }
      in_flight_.store(nullptr, std::memory_order_relaxed);
    }
    // Entries scheduled for the former owner become no-ops.
    ++attachment_;
    changes_.fetch_add(1, std::memory_order_release);
    scheduled_.store(0, std::memory_order_relaxed);
    drain_scheduled_ = false;
    // A transferred port arrives started only once its new owner starts it.
    enabled_ = false;
  }
  if (notify_peer) NotifyPeer();
}

bool PortCore::enabled() {
  base::MutexLock lock(mutex_);
  return enabled_;
}

bool PortCore::PeerIsRemote() {
  std::shared_ptr<loop::EventLoop> mine;
  std::shared_ptr<PortCore> other;
  {
    base::MutexLock lock(mutex_);
    mine = loop_;
    other = peer_.lock();
  }
  if (!other) return false;  // disentangled: nothing can arrive
  base::MutexLock lock(other->mutex_);
  return other->loop_ != mine;
}

PortReceiver* PortCore::LocalPeerReceiver(const std::shared_ptr<loop::EventLoop>& loop) {
  std::shared_ptr<PortCore> other = peer();
  if (!other) return nullptr;
  base::MutexLock lock(other->mutex_);
  // Owned by `loop`'s runtime, so its receiver is used on this thread only.
  return other->loop_ == loop ? other->receiver_ : nullptr;
}

void PortCore::NotifyPeer() {
  if (std::shared_ptr<PortCore> other = peer()) NotifyOwner(std::move(other), /*disentangle=*/false);
}

void PortCore::NotifyOwner(std::shared_ptr<PortCore> core, bool disentangle) {
  std::shared_ptr<loop::EventLoop> loop;
  uint64_t attachment;
  {
    base::MutexLock lock(core->mutex_);
    if (disentangle) core->peer_.reset();
    loop = core->loop_;
    attachment = core->attachment_;
  }
  // An end in transit has no owner to tell; whoever attaches it next looks
  // at it then.
  if (loop) loop->PostInternal([core, attachment] { core->PeerChanged(attachment); });
}

void PortCore::PeerChanged(uint64_t attachment) {
  PortReceiver* receiver;
  {
    base::MutexLock lock(mutex_);
    if (attachment != attachment_ || receiver_ == nullptr) return;
    receiver = receiver_;
  }
  receiver->OnPeerChanged();
}

void PortCore::Enable() {
  std::shared_ptr<loop::EventLoop> loop;
  PortReceiver* now_pending = nullptr;
  std::size_t ordered = 0;
  bool drain = false;
  uint64_t attachment;
  {
    base::MutexLock lock(mutex_);
    if (enabled_ || closed_ || !loop_) return;
    enabled_ = true;
    // Queued messages get their deliveries: an ordered entry each for this
    // runtime's own, one drain for those from other threads. (The lanes are
    // separate, so the order between the two posts does not matter.)
    for (std::size_t i = 0; i < queue_.size(); ++i) {
      if (!queue_[i]->cross_thread) {
        ++ordered;
      } else if (!drain_scheduled_) {
        drain_scheduled_ = true;
        drain = true;
      }
    }
    loop = loop_;
    attachment = attachment_;
    if (ordered > 0 && AddScheduled(ordered) == 0) {
      now_pending = receiver_;
    }
  }
  ScheduleDeliveries(*loop, ordered, drain, attachment, shared_from_this());
  if (now_pending != nullptr) now_pending->OnDeliveriesPending(true);
}

void PortCore::Close() {
  std::shared_ptr<PortCore> other;
  base::RingQueue<std::unique_ptr<SerializedMessage>> dropped;
  {
    base::MutexLock lock(mutex_);
    closed_ = true;
    changes_.fetch_add(1, std::memory_order_release);
    other = peer_.lock();
    peer_.reset();
    dropped.swap(queue_);
  }
  // The other end learns it is alone (its runtime may stop being kept
  // alive): told after it is disentangled, and its owner read in the same
  // critical section. (Told first, its owner could look at its liveness in
  // between, still see a remote partner, and never be told again: a port
  // received from a worker then held the main runtime forever.)
  if (other) NotifyOwner(std::move(other), /*disentangle=*/true);
  // `dropped` messages (and any ports they carried) are released here.
}

// ---- MessagePortHandle -------------------------------------------------------

namespace {

constexpr int kHandleField = 0;
// Field 1 of every MessagePort object holds the address of kPortTag: the
// brand check of the port natives (cheaper than FunctionTemplate::HasInstance).
// No script-made object has internal fields, and three sets ports apart from
// V8's own objects with embedder fields (ArrayBuffers and views have two).
// V8 stores aligned pointers only: the tag is 8-byte aligned.
constexpr int kTagField = 1;
constexpr int kFieldCount = 3;
alignas(8) const char kPortTag = 0;

Runtime* RuntimeOf(const v8::FunctionCallbackInfo<v8::Value>& info) {
  return Runtime::From(info.GetIsolate());
}

// new MessagePort() from script is an illegal constructor; the runtime
// creates ports through NewPort().
void PortConstructor(const v8::FunctionCallbackInfo<v8::Value>& info) {
  if (!info.IsConstructCall() || !RuntimeOf(info)->constructing_port()) {
    ThrowTypeError(info.GetIsolate(), "Illegal constructor");
  }
}

MessagePortHandle* ThisPort(const v8::FunctionCallbackInfo<v8::Value>& info) {
  MessagePortHandle* handle = MessagePortHandle::FromObject(info[0]);
  if (handle == nullptr) ThrowTypeError(info.GetIsolate(), "Illegal invocation");
  return handle;
}

// createMessageChannel() -> [port1, port2]
void CreateMessageChannel(const v8::FunctionCallbackInfo<v8::Value>& info) {
  Runtime* runtime = RuntimeOf(info);
  v8::Isolate* isolate = info.GetIsolate();
  v8::Local<v8::Context> context = isolate->GetCurrentContext();
  auto [a, b] = PortCore::CreatePair();
  v8::Local<v8::Object> port1;
  v8::Local<v8::Object> port2;
  if (!MessagePortHandle::NewPort(runtime, a, false).ToLocal(&port1)) {
    b->Close();
    return;
  }
  if (!MessagePortHandle::NewPort(runtime, std::move(b), false).ToLocal(&port2)) return;
  // Both ends live here now: neither is held strongly (a channel created
  // and dropped in a loop is garbage at once).
  MessagePortHandle::FromObject(port1)->UpdateLiveness();
  MessagePortHandle::FromObject(port2)->UpdateLiveness();
  v8::Local<v8::Array> ports = v8::Array::New(isolate, 2);
  ports->Set(context, 0, port1).FromMaybe(false);
  ports->Set(context, 1, port2).FromMaybe(false);
  info.GetReturnValue().Set(ports);
}

// portPostMessage(port, message, transfer)
// https://html.spec.whatwg.org/multipage/web-messaging.html#message-port-post-message-steps
void PortPostMessage(const v8::FunctionCallbackInfo<v8::Value>& info) {
  MessagePortHandle* handle = ThisPort(info);
  if (handle == nullptr) return;
  Runtime* runtime = RuntimeOf(info);
  v8::Local<v8::Object> port = info[0].As<v8::Object>();
  // Step 1: the target is the port this one is entangled with before the
  // message is serialized (a getter the serialization runs may close or
  // move this end; the message still goes to that target).
  std::shared_ptr<PortCore> target = handle->peer();
  // Step 4: serialize (transfer included) even when nobody will receive it,
  // so DataCloneError is thrown at the call.
  std::unique_ptr<SerializedMessage> message = Serialize(runtime, info[1], info[2], port);
  if (!message) return;
  // Step 6: no entangled port: the message (and what it moved) is gone.
  if (!target) return;
  // Steps 3-4, 6: the target port itself in the transfer list dooms the
  // message, and the channel is lost: the target went into the message,
  // which is dropped here (its core tells this end it is gone).
  if (message->has_ports()) {
    const std::vector<std::shared_ptr<PortCore>>& ports = message->attachments->ports;
    if (std::find(ports.begin(), ports.end(), target) != ports.end()) {
      runtime->Print("Warning: the target port was posted to itself, and the communication channel was lost\n", 2);
      return;
    }
  }
  PortCore::PostTo(runtime, std::move(target), std::move(message));
}

// portPostNumber(port, number) -> boolean: postMessage(number) without a
// transfer list. A number needs no serializer, so the post touches no JS
// heap and optimized code calls the fast version directly (a V8 fast API
// call). It is also the brand check: false, with nothing done, when `port`
// is not a MessagePort (messaging.js then throws its TypeError). The
// MessagePort's internal fields are checked here in a few instructions,
// where a private-field brand check in JS is a megamorphic inline cache.
void PostNumber(MessagePortHandle& handle, double number) {
  // As PortPostMessage: no entangled port, and the message is gone.
  // (Checked before SerializeNumber: a message made for no one would take
  // one of the runtime's spares and free it.)
  std::shared_ptr<PortCore> target = handle.peer();
  if (target) {
    PortCore::PostTo(handle.runtime(), std::move(target),
                     SerializeNumber(handle.runtime(), number));
  }
}

void PortPostNumber(const v8::FunctionCallbackInfo<v8::Value>& info) {
  MessagePortHandle* handle = MessagePortHandle::FromObject(info[0]);
  const bool posted = handle != nullptr && info[1]->IsNumber();
  if (posted) PostNumber(*handle, info[1].As<v8::Number>()->Value());
  info.GetReturnValue().Set(posted);
}

bool FastPortPostNumber(v8::Local<v8::Object> /*receiver*/, v8::Local<v8::Value> port,
                        double number) {
  MessagePortHandle* handle = MessagePortHandle::FromObject(port);
  if (handle == nullptr) return false;
  PostNumber(*handle, number);
  return true;
}
const v8::CFunction kFastPortPostNumber = v8::CFunction::Make(FastPortPostNumber);

void PortStart(const v8::FunctionCallbackInfo<v8::Value>& info) {
  MessagePortHandle* handle = ThisPort(info);
  if (handle == nullptr || !handle->core()) return;
  handle->core()->Enable();
  handle->UpdateLiveness();
}

void PortClose(const v8::FunctionCallbackInfo<v8::Value>& info) {
  MessagePortHandle* handle = ThisPort(info);
  if (handle != nullptr) handle->Close();
}

// portSetListening(port, bool): whether the port has a `message` listener.
void PortSetListening(const v8::FunctionCallbackInfo<v8::Value>& info) {
  MessagePortHandle* handle = ThisPort(info);
  if (handle != nullptr) handle->set_listening(info.Length() > 1 && info[1]->IsTrue());
}

// structuredClone(value, transfer)
void StructuredClone(const v8::FunctionCallbackInfo<v8::Value>& info) {
  Runtime* runtime = RuntimeOf(info);
  std::unique_ptr<SerializedMessage> message = Serialize(runtime, info[0], info[1]);
  if (!message) return;
  std::vector<v8::Local<v8::Object>> ports;
  v8::Local<v8::Value> result;
  if (Deserialize(runtime, *message, &ports).ToLocal(&result)) info.GetReturnValue().Set(result);
}

}  // namespace

// What a port costs outside V8's heap (handle, core, queue, registry), told
// to V8 so that it weighs unreferenced ports when deciding to collect.
constexpr int64_t kPortExternalBytes = 1024;

MessagePortHandle::MessagePortHandle(Runtime* runtime, std::shared_ptr<PortCore> core)
    : runtime_(runtime), core_(std::move(core)), peer_(core_->peer()) {
  runtime_->port_handles().insert(this);
  runtime_->isolate()->AdjustAmountOfExternalAllocatedMemory(kPortExternalBytes);
}

MessagePortHandle::~MessagePortHandle() {
  runtime_->isolate()->AdjustAmountOfExternalAllocatedMemory(-kPortExternalBytes);
  runtime_->port_handles().erase(this);
  if (runtime_->undispatched_port() == this) runtime_->set_undispatched_port(nullptr);
  loop_ref_.Set(runtime_->event_loop(), false);
  if (core_) {
    core_->Detach();
    // A collected port can never be used again: disentangle it (HTML).
    core_->Close();
  }
}

v8::Local<v8::FunctionTemplate> MessagePortHandle::CreateTemplate(v8::Isolate* isolate) {
  v8::Local<v8::FunctionTemplate> tmpl = v8::FunctionTemplate::New(isolate, PortConstructor);
  tmpl->SetClassName(V8Symbol(isolate, "MessagePort"));
  tmpl->InstanceTemplate()->SetInternalFieldCount(kFieldCount);
  return tmpl;
}

v8::Local<v8::FunctionTemplate> MessagePortHandle::Template(Runtime* runtime) {
  return runtime->message_port_template().Get(runtime->isolate());
}

v8::MaybeLocal<v8::Object> MessagePortHandle::NewPort(Runtime* runtime,
                                                      std::shared_ptr<PortCore> core, bool settle) {
  v8::Isolate* isolate = runtime->isolate();
  v8::EscapableHandleScope scope(isolate);
  v8::Local<v8::Context> context = runtime->context();
  v8::Local<v8::Function> constructor;
  v8::Local<v8::Object> object;
  runtime->constructing_port() = true;
  const bool made = Template(runtime)->GetFunction(context).ToLocal(&constructor) &&
                    constructor->NewInstance(context).ToLocal(&object);
  runtime->constructing_port() = false;
  if (!made) {
    // No port will ever own it: its partner learns it is alone.
    core->Close();
    return {};
  }
  auto* handle = new MessagePortHandle(runtime, std::move(core));
  object->SetAlignedPointerInInternalField(kHandleField, handle);
  object->SetAlignedPointerInInternalField(kTagField, const_cast<char*>(&kPortTag));
  handle->wrapper_.Reset(isolate, object);
  handle->strength_.MakeWeak();
  std::shared_ptr<loop::EventLoop> loop = runtime->event_loop().shared_from_this();
  // A new channel's ends are attached together: no news for each other.
  handle->core_->Attach(handle, loop, /*notify_peer=*/settle);
  // A port arriving where its partner already lives (a transfer within the
  // runtime, or back from a worker) is tied to the partner's object as a
  // MessageChannel's two ports are.
  v8::Local<v8::Value> partner = v8::Undefined(isolate);
  if (PortReceiver* peer = handle->core_->LocalPeerReceiver(loop)) {
    v8::Local<v8::Object> peer_object = peer->PortObject(isolate);
    if (!peer_object.IsEmpty()) partner = peer_object;
  }
  v8::Local<v8::Function> init;
  if (runtime->InternalFunction("initMessagePort").ToLocal(&init)) {
    v8::Local<v8::Value> argv[] = {object, partner};
    init->Call(context, v8::Undefined(isolate), 2, argv).FromMaybe(v8::Local<v8::Value>());
  }
  if (settle) handle->UpdateLiveness();
  return scope.Escape(object);
}

MessagePortHandle* MessagePortHandle::FromObject(v8::Local<v8::Value> value) {
  if (!value->IsObject()) return nullptr;
  v8::Local<v8::Object> object = value.As<v8::Object>();
  if (object->InternalFieldCount() != kFieldCount ||
      object->GetAlignedPointerFromInternalField(kTagField) != &kPortTag) {
    return nullptr;
  }
  return static_cast<MessagePortHandle*>(object->GetAlignedPointerFromInternalField(kHandleField));
}

void MessagePortHandle::OnCollected(const v8::WeakCallbackInfo<MessagePortHandle>& info) {
  Destroy(info.GetParameter());
}

void MessagePortHandle::Destroy(MessagePortHandle* handle) {
  handle->wrapper_.Reset();
  delete handle;
}

void MessagePortHandle::Close() {
  if (!core_) return;
  core_->Close();
  peer_.reset();
  UpdateLiveness();
}

std::shared_ptr<PortCore> MessagePortHandle::Disentangle() {
  std::shared_ptr<PortCore> core = std::move(core_);
  peer_.reset();
  // A partner this runtime owns was held weakly (the two ends of a local
  // channel keep each other); once this end is in transit it must hold its
  // JS object strongly at once, not when the notice Detach posts has run: a
  // garbage collection later in this task collected it, and the answers
  // sent to it were lost.
  PortReceiver* partner =
      core ? core->LocalPeerReceiver(runtime_->event_loop().shared_from_this()) : nullptr;
  if (core) core->Detach();
  UpdateLiveness();
  if (partner != nullptr) partner->OnPeerChanged();
  return core;
}

void MessagePortHandle::UpdateLiveness() {
  // Entangled with a port owned by another runtime (or in transit).
  const bool live = core_ && !core_->closed();
  const bool remote = live && core_->PeerIsRemote();
  loop_ref_.Set(runtime_->event_loop(), remote && listening_ && core_->enabled());
  remote_ = remote;
  // Deliveries scheduled for this end are void once it is closed or moved.
  if (!live) deliveries_pending_ = false;
  strength_.Set(remote || deliveries_pending_);
}

void MessagePortHandle::OnDeliveriesPending(bool pending) {
  if (!pending && runtime_->port_capture() != nullptr) {
    // Its event is not dispatched yet: NextPortMessage looks again once it
    // is, unless a post makes deliveries pending again first (a chain on one
    // port then never lets go in between).
    runtime_->set_undispatched_port(this);
    return;
  }
  if (runtime_->undispatched_port() == this) runtime_->set_undispatched_port(nullptr);
  deliveries_pending_ = pending;
  strength_.Set(remote_ || pending);
}

void MessagePortHandle::DeliveryDispatched() {
  if (deliveries_pending_ && core_ && core_->scheduled_deliveries() == 0) {
    deliveries_pending_ = false;
    strength_.Set(remote_);
  }
}

void MessagePortHandle::KeepSpare(std::unique_ptr<SerializedMessage> spare) {
  runtime_->KeepSpareMessage(std::move(spare));
}

void MessagePortHandle::Deliver(SerializedMessage& message) {
  v8::HandleScope scope(runtime_->isolate());
  DispatchMessageEvent(runtime_, wrapper_.Get(runtime_->isolate()), message);
}

void MessagePortHandle::DeliverOrdered(SerializedMessage& message) {
  // Captured, the handles go to the scope of the capture's owner.
  if (runtime_->port_capture() != nullptr) {
    DispatchMessageEvent(runtime_, wrapper_.Get(runtime_->isolate()), message, true);
    return;
  }
  v8::HandleScope scope(runtime_->isolate());
  DispatchMessageEvent(runtime_, wrapper_.Get(runtime_->isolate()), message, true);
}

void DispatchMessageEvent(Runtime* runtime, v8::Local<v8::Object> target,
                          SerializedMessage& message, bool chained) {
  if (runtime->stopping() || message.is_notice()) return;
  v8::Isolate* isolate = runtime->isolate();
  v8::Local<v8::Context> context = runtime->context();
  std::vector<v8::Local<v8::Object>> ports;
  v8::Local<v8::Value> data;
  if (message.inline_value != SerializedMessage::Inline::kNone) {
    // A primitive carried inline cannot fail to deserialize.
    if (!Deserialize(runtime, message, &ports).ToLocal(&data)) return;
  } else {
    v8::TryCatch try_catch(isolate);
    if (!Deserialize(runtime, message, &ports).ToLocal(&data)) {
      if (try_catch.HasTerminated()) return;
      data.Clear();
    }
  }
  v8::Local<v8::Function> deliver;
  Runtime::PortCapture* capture = chained ? runtime->port_capture() : nullptr;
  if (data.IsEmpty()) {
    // The message could not be deserialized here: `messageerror` (HTML).
    // (Captured or not: nothing to chain from, and the capture stays empty.)
    runtime->set_port_capture(nullptr);
    if (!runtime->InternalFunction("deliverPortMessageError").ToLocal(&deliver)) return;
    v8::Local<v8::Value> argv[] = {target};
    runtime->CallAndReport(deliver, v8::Undefined(isolate), 1, argv);
    return;
  }
  if (!runtime->InternalFunction(chained ? "deliverChainedPortMessage" : "deliverPortMessage")
           .ToLocal(&deliver)) {
    return;
  }
  v8::Local<v8::Value> port_array = v8::Undefined(isolate);
  if (!ports.empty()) {
    v8::Local<v8::Array> array = v8::Array::New(isolate, static_cast<int>(ports.size()));
    for (std::size_t i = 0; i < ports.size(); ++i) {
      array->Set(context, static_cast<uint32_t>(i), ports[i]).FromMaybe(false);
    }
    port_array = array;
  }
  if (capture != nullptr) {
    capture->target = target;
    capture->data = data;
    capture->ports = port_array;
    return;
  }
  // (The event's timeStamp is read by the JS side: host.now() is a fast API
  // call there, while a Number made here is a heap allocation per message.)
  v8::Local<v8::Value> argv[] = {target, data, port_array};
  runtime->CallAndReport(deliver, v8::Undefined(isolate), 3, argv);
}

namespace {

// nextPortMessage(target, end) -> data | [end, target, data, ports] | end,
// from the script of a chained message delivery (js/messaging.js
// deliverChainedPortMessage) once its event is dispatched: ends the
// delivery's task (the microtask checkpoint) and, when the loop would run
// another chained delivery of this runtime next, takes it
// (EventLoop::TakeChainedOrdered) and returns what its event is made of, for
// the script to dispatch: the task is that script's from then on. A message for `target` that carries
// no ports comes as its data alone (a chain's usual next message: nothing
// allocated here); any other as an array that starts with `end`. `end` (an
// object of the script's: a message's data is made by deserializing, so it
// is never an object that existed before) alone means that the script
// returns and the loop goes on. A taken delivery that dispatches nothing
// (its port closed meanwhile, say) is a task that ended at once: the next
// one is looked for.
void NextPortMessage(const v8::FunctionCallbackInfo<v8::Value>& info) {
  Runtime* runtime = RuntimeOf(info);
  info.GetReturnValue().Set(info[1]);
  if (runtime->port_capture() != nullptr) return;  // (not from inside a capture)
  // The last event it handed over is dispatched: its port may be collected
  // again if nothing else is queued for it.
  if (MessagePortHandle* dispatched = runtime->undispatched_port()) {
    runtime->set_undispatched_port(nullptr);
    dispatched->DeliveryDispatched();
  }
  Runtime::PortCapture capture;
  while (base::Task task = runtime->event_loop().TakeChainedOrdered(kPortDeliveryChainTag)) {
    runtime->set_port_capture(&capture);
    loop::RunGuarded(
        [&task] {
          task();
          task.Reset();
        },
        "a chained MessagePort delivery");
    runtime->set_port_capture(nullptr);
    if (capture.target.IsEmpty()) continue;
    if (capture.target == info[0] && capture.ports->IsUndefined()) {
      info.GetReturnValue().Set(capture.data);
    } else {
      v8::Local<v8::Value> parts[] = {info[1], capture.target, capture.data, capture.ports};
      info.GetReturnValue().Set(v8::Array::New(info.GetIsolate(), parts, 4));
    }
    return;
  }
}

}  // namespace

std::span<const HostFunction> MessagePortHandle::Functions() {
  static const HostFunction kFunctions[] = {
      {"createMessageChannel", CreateMessageChannel},
      {"portPostMessage", PortPostMessage},
      {"portPostNumber", PortPostNumber, &kFastPortPostNumber},
      {"portStart", PortStart},
      {"portClose", PortClose},
      {"portSetListening", PortSetListening},
      {"nextPortMessage", NextPortMessage},
      {"structuredClone", StructuredClone},
  };
  return kFunctions;
}

v8::FunctionCallback MessagePortHandle::ConstructorCallback() { return PortConstructor; }

}  // namespace hostloop::runtime
