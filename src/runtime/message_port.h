// MessagePort and MessageChannel (HTML "channel messaging", J6, W2).
// https://html.spec.whatwg.org/multipage/web-messaging.html#message-ports
//
// Two layers:
//  - PortCore: the thread-safe state of one end of a channel: its port
//    message queue, whether it is enabled (started), its entangled peer, and
//    which runtime owns it now. Cores outlive the JS objects and move
//    between runtimes when a port is transferred.
//  - MessagePortHandle: the owning runtime's side, tied to the JS MessagePort
//    object (an API object, so structured clone sees it as a host object).
//
// Delivery: every message is a task of its own. Posted from the owner's home
// thread (both ends in one runtime) it is an ordered-lane entry, so it keeps
// its place among timers and other macrotasks (L3); posted from another
// thread it is an internal-lane entry (messages crossing threads, L4).
#pragma once

#include <v8.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <chrono>
#include <memory>
#include <new>
#include <span>
#include <thread>
#include <utility>
#include <vector>

#include "base/ring_queue.h"
#include "base/thread_annotations.h"
#include "loop/event_loop.h"
#include "runtime/host_bindings.h"
#include "runtime/serializer.h"
#include "runtime/v8_util.h"

namespace hostloop::runtime {

class MessagePortHandle;
class Runtime;

// Whoever owns an attached PortCore and turns its messages into events: a
// MessagePort, a Worker object (parent side), a worker's global.
// The Meta::chain_tag of a MessagePort's ordered-lane deliveries: a script
// dispatching one message goes on with the next one the loop would run
// (EventLoop::TakeChainedOrdered, js/messaging.js deliverChainedPortMessage).
inline constexpr uint8_t kPortDeliveryChainTag = 1;

class PortReceiver {
 public:
  virtual ~PortReceiver() = default;
  // Owner's home thread. One message, one task. The caller keeps the
  // message (to recycle it).
  virtual void Deliver(SerializedMessage& message) = 0;
  // Owner's home thread. Deliver() for a message whose task is an
  // ordered-lane entry of its own (posted with kPortDeliveryChainTag).
  virtual void DeliverOrdered(SerializedMessage& message) { Deliver(message); }
  // Owner's home thread, right after a Deliver from the same thread: the
  // message, recycled, for the receiver's runtime to reuse on its next post
  // (the sender is on this thread too). Dropped by default.
  virtual void KeepSpare(std::unique_ptr<SerializedMessage> /*spare*/) {}
  // Owner's home thread. The entangled end moved to another owner, was
  // closed, or arrived (liveness may change, J3).
  virtual void OnPeerChanged() {}
  // Owner's home thread. Whether ordered-lane deliveries to this end are
  // pending: from the post that schedules the first one until one of them
  // finds none left after it (HTML: a port is not collected while a task
  // that dispatches an event on it is queued).
  virtual void OnDeliveriesPending(bool /*pending*/) {}
  // Owner's home thread. The JS MessagePort this receiver is, or empty.
  virtual v8::Local<v8::Object> PortObject(v8::Isolate* /*isolate*/) { return {}; }
};

class PortCore : public std::enable_shared_from_this<PortCore> {
 public:
  static std::pair<std::shared_ptr<PortCore>, std::shared_ptr<PortCore>> CreatePair();
  // An end that goes away without Close() (its JS object was collected, or
  // it was lost inside a message nobody will deliver) tells its peer, whose
  // runtime may then stop being kept alive (J3).
  ~PortCore();

  // Thread-safe. Queues `message` for this end; dropped when it is closed.
  // A message posted from another thread than the owner's (or before the
  // core has an owner) is delivered through the internal lane. Returns a
  // spent message this end delivered, if one is kept, for the caller's
  // Runtime::KeepSpareMessage: messages go back to the thread that
  // allocated them instead of being freed across threads. `self`, if
  // given, is a reference to this core that the caller gives away (a
  // delivery entry keeps it: one reference count change less than taking
  // one).
  [[nodiscard]] std::unique_ptr<SerializedMessage> Enqueue(
      std::unique_ptr<SerializedMessage> message, std::shared_ptr<PortCore> self = nullptr);
  // Thread-safe. The entangled end, or null once disentangled.
  std::shared_ptr<PortCore> peer();
  // `sender`'s home thread: enqueues `message` on the entangled end (gone if
  // there is none) and keeps the spare it hands back in `sender`.
  void PostToPeer(Runtime* sender, std::unique_ptr<SerializedMessage> message);
  // `sender`'s home thread: enqueues `message` on `target` (none: dropped)
  // and keeps the spare it hands back in `sender`.
  static void PostTo(Runtime* sender, std::shared_ptr<PortCore> target,
                     std::unique_ptr<SerializedMessage> message);
  // Thread-safe. Disentangles both ends; this end's queue is dropped, as
  // Blink and WebKit do. (HTML's text would still deliver what was queued
  // before the close, as Gecko and node do; whatwg/html#5765 is open on
  // it, and tests/js/j6_port_random_moves.mjs allows both.)
  void Close();
  bool closed();
  // Thread-safe. Whether messages wait in this end's queue.
  bool has_queued();

  // Owner's home thread: binds the core to `receiver` in `loop`'s runtime.
  // `notify_peer` false: the peer is being attached in the same call (a new
  // MessageChannel) and needs no news of this end.
  void Attach(PortReceiver* receiver, std::shared_ptr<loop::EventLoop> loop, bool notify_peer = true);
  // Owner's home thread: unbinds (transfer or GC). Queued messages stay.
  void Detach();
  // Owner's home thread: start(): enables the queue and schedules delivery.
  void Enable();
  bool enabled();
  // Owner's home thread. Ordered deliveries scheduled and not yet run.
  std::size_t scheduled_deliveries() const { return scheduled_.load(std::memory_order_relaxed); }
  // Thread-safe. Whether the entangled end is owned by another runtime (or
  // is in transit between owners), i.e. messages may come from elsewhere.
  bool PeerIsRemote();
  // Owner's home thread: the entangled end's receiver when it is owned by
  // this same runtime (`loop`), else null.
  PortReceiver* LocalPeerReceiver(const std::shared_ptr<loop::EventLoop>& loop);

 private:
  PortCore() = default;
  // Runs one delivery on the owner's home thread.
  void DeliverOne(uint64_t attachment);
  // Delivers messages from other threads in bounded batches (L4). The batch
  // leaves the queue under one lock (a lock per message contended with the
  // sending thread's Enqueue); what the batch did not deliver goes back to
  // the front of the queue.
  void DrainBatch(uint64_t attachment);
  static constexpr std::size_t kDrainCount = 256;
  static constexpr loop::Duration kDrainTime = std::chrono::microseconds(500);
  void ChangeOwner(PortReceiver* receiver, std::shared_ptr<loop::EventLoop> loop, bool notify_peer = true);
  // Tells the peer's owner (if any) that this end changed hands.
  void NotifyPeer();
  // Posts PeerChanged to `core`'s owner, if it has one; with `disentangle`,
  // `core` first forgets its peer, in the same critical section.
  static void NotifyOwner(std::shared_ptr<PortCore> core, bool disentangle);
  void PeerChanged(uint64_t attachment);
  // Posts `ordered` ordered-lane deliveries and, if `drain`, one drain of
  // the messages from other threads; called without the lock.
  // `self` is a reference to this core for the entries.
  void ScheduleDeliveries(loop::EventLoop& loop, std::size_t ordered, bool drain,
                          uint64_t attachment, std::shared_ptr<PortCore> self);

  base::Mutex mutex_;
  // (A RingQueue: a flood from another thread does not allocate a block on
  // the sender every 64 messages for the receiver to free.)
  base::RingQueue<std::unique_ptr<SerializedMessage>> queue_ GUARDED_BY(mutex_);
  std::weak_ptr<PortCore> peer_ GUARDED_BY(mutex_);
  bool enabled_ GUARDED_BY(mutex_) = false;
  bool closed_ GUARDED_BY(mutex_) = false;
  std::shared_ptr<loop::EventLoop> loop_ GUARDED_BY(mutex_);
  std::thread::id owner_thread_ GUARDED_BY(mutex_);
  // Bumped on every Attach, so entries scheduled for a former owner are
  // recognised and do nothing.
  uint64_t attachment_ GUARDED_BY(mutex_) = 0;
  // Ordered delivery entries posted for the current attachment, not yet run.
  // (Written under mutex_, by the owner's home thread only: that thread
  // reads it without the lock after a delivery. Changed by a load and a
  // store, which the lock makes safe: a fetch_add is a locked instruction,
  // ~7 ns a message here.)
  std::atomic<std::size_t> scheduled_{0};
  // Adds `n` to scheduled_ (under mutex_); returns the count before.
  std::size_t AddScheduled(std::size_t n) REQUIRES(mutex_) {
    std::size_t before = scheduled_.load(std::memory_order_relaxed);
    scheduled_.store(before + n, std::memory_order_relaxed);
    return before;
  }
  // Whether a drain entry for cross-thread messages is pending.
  bool drain_scheduled_ GUARDED_BY(mutex_) = false;
  // Messages DrainBatch delivered, recycled, for Enqueue to hand back: at
  // most kMaxSpares, whose byte buffers total at most kMaxSpareBytes
  // (spare_bytes_); beyond that a spare keeps no buffer.
  std::vector<std::unique_ptr<SerializedMessage>> spares_ GUARDED_BY(mutex_);
  std::size_t spare_bytes_ GUARDED_BY(mutex_) = 0;
  static constexpr std::size_t kMaxSpares = kDrainCount;
  static constexpr std::size_t kMaxSpareBytes = 64 * 1024;
  // Bumped (under mutex_) whenever this end closes or changes owner, so a
  // drain in progress sees it without taking the lock between messages.
  std::atomic<uint64_t> changes_{0};
  // Owner's home thread only.
  PortReceiver* receiver_ = nullptr;
  // The batch DrainBatch is delivering and the index of its first message
  // not yet handed to the receiver: a handler that moves this end
  // (ChangeOwner) puts the rest back at the front of the queue before the
  // new owner can see it, and clears this. Changed under mutex_; DrainBatch
  // checks between messages, without the lock, that it still points at its
  // batch (atomic: by then a new owner on another thread may have set it).
  // in_flight_next_ is written only by the drain that owns the batch.
  struct Batch {
    // Only items [0, size) are constructed: a drain of one message (a
    // ping-pong) must not zero and destroy 256 pointers.
    Batch() {}  // NOLINT(modernize-use-equals-default): leaves `items` unconstructed
    ~Batch() { Truncate(0); }
    Batch(const Batch&) = delete;
    Batch& operator=(const Batch&) = delete;
    // Constructs items[size] from `message`.
    void Append(std::unique_ptr<SerializedMessage> message) {
      ::new (static_cast<void*>(&items[size])) std::unique_ptr<SerializedMessage>(std::move(message));
      ++size;
    }
    // Destroys items [n, size) (moved from, or dropped).
    void Truncate(std::size_t n) {
      while (size > n) items[--size].~unique_ptr();
    }
    union {
      std::array<std::unique_ptr<SerializedMessage>, kDrainCount> items;
    };
    std::size_t size = 0;
  };
  std::atomic<Batch*> in_flight_{nullptr};
  std::size_t in_flight_next_ = 0;
};

class MessagePortHandle final : public PortReceiver {
 public:
  // Creates the JS MessagePort of `runtime` for `core`.
  // `settle` false: the caller calls UpdateLiveness() once the partner is
  // attached too (a MessageChannel's first port would otherwise see its
  // partner "in transit" and be held strongly until told otherwise).
  // Empty (and `core` closed) when V8 cannot make the object: the runtime's
  // JS is being terminated (a worker's terminate()), or memory ran out.
  static v8::MaybeLocal<v8::Object> NewPort(Runtime* runtime, std::shared_ptr<PortCore> core,
                                            bool settle = true);
  // The handle behind a JS MessagePort, or null for anything else.
  static MessagePortHandle* FromObject(v8::Local<v8::Value> value);
  // MessagePort's FunctionTemplate (one per isolate, kept by the Runtime).
  static v8::Local<v8::FunctionTemplate> CreateTemplate(v8::Isolate* isolate);
  static v8::Local<v8::FunctionTemplate> Template(Runtime* runtime);
  // The MessagePort/MessageChannel/structuredClone natives for `host`.
  static std::span<const HostFunction> Functions();
  static v8::FunctionCallback ConstructorCallback();

  // Frees the handle (its JS object was collected, or the runtime is going
  // away).
  static void Destroy(MessagePortHandle* handle);

  // Transfers the port away: the JS object is left disentangled and inert.
  std::shared_ptr<PortCore> Disentangle();
  // close(): disentangles both ends.
  void Close();
  const std::shared_ptr<PortCore>& core() const { return core_; }
  // The end this port is entangled with, or null: core()->peer() without
  // taking the core's lock (a post from this port needs it every time).
  // peer_ is the core's link as the handle was made. That link only ever
  // goes away: when this end closes or moves (Close() and Disentangle()
  // forget peer_ too), or when the other end closes, and then the other
  // end drops what is posted to it (PortCore::Enqueue), as a message to no
  // peer is dropped.
  std::shared_ptr<PortCore> peer() const { return peer_.lock(); }
  Runtime* runtime() const { return runtime_; }

  // J3: a started port with a `message` listener whose entangled port lives
  // in another runtime keeps this runtime alive. And (HTML, "ports and
  // garbage collection") an entangled port lives as long as its partner
  // could post to it: its JS object is held strongly while the partner is
  // in another runtime or in transit (within one runtime, messaging.js ties
  // the two objects together). Called whenever one of those facts may have
  // changed.
  void UpdateLiveness();
  void set_listening(bool listening) {
    listening_ = listening;
    UpdateLiveness();
  }
  void OnPeerChanged() override { UpdateLiveness(); }
  // (A delivery taken by NextPortMessage has not dispatched its event yet
  // when it finds none left: NextPortMessage looks again once it has,
  // DeliveryDispatched. A chain on one port then never lets go in between.)
  void OnDeliveriesPending(bool pending) override;
  // The event of a delivery NextPortMessage took has been dispatched.
  void DeliveryDispatched();

  // Delivers `message` to the JS object as a `message` (or `messageerror`)
  // event.
  void Deliver(SerializedMessage& message) override;
  // Deliver(), for a delivery that may chain: the event's script then
  // dispatches the messages the loop would run next. Inside the script's
  // NextPortMessage (the runtime's port_capture() is set) it dispatches
  // nothing: it leaves the event's parts in the capture.
  void DeliverOrdered(SerializedMessage& message) override;
  void KeepSpare(std::unique_ptr<SerializedMessage> spare) override;
  v8::Local<v8::Object> PortObject(v8::Isolate* isolate) override { return wrapper_.Get(isolate); }

 private:
  MessagePortHandle(Runtime* runtime, std::shared_ptr<PortCore> core);
  ~MessagePortHandle() override;
  static void OnCollected(const v8::WeakCallbackInfo<MessagePortHandle>& info);

  Runtime* const runtime_;
  std::shared_ptr<PortCore> core_;
  std::weak_ptr<PortCore> peer_;
  v8::Global<v8::Object> wrapper_;
  bool listening_ = false;
  // UpdateLiveness's last finding, and OnDeliveriesPending's: either holds
  // the JS object strongly.
  bool remote_ = false;
  bool deliveries_pending_ = false;
  loop::LoopRef loop_ref_;
  StrongWhile<MessagePortHandle> strength_{&wrapper_, this, OnCollected};
};

}  // namespace hostloop::runtime

namespace hostloop::runtime {

// Turns a message into a `message` event on `target` (or `messageerror` when
// it cannot be deserialized): the shared last step of every receiver. The
// caller's HandleScope (every receiver has one around `target`) holds its
// handles: one scope less per message.
// `chained`: the delivery is an ordered-lane entry posted with
// kPortDeliveryChainTag, and its script goes on with the next such entry
// when the loop would run it next (js/messaging.js deliverChainedPortMessage). With
// the runtime's port_capture() set, a message is not dispatched but left in
// the capture (a `messageerror` is still dispatched).
void DispatchMessageEvent(Runtime* runtime, v8::Local<v8::Object> target,
                          SerializedMessage& message, bool chained = false);

}  // namespace hostloop::runtime
