// Structured clone (W2) on V8's ValueSerializer/ValueDeserializer: the
// format postMessage and structuredClone use, within a thread or across.
//
// https://html.spec.whatwg.org/multipage/structured-data.html#structuredserializewithtransfer
//
// A SerializedMessage owns everything a message carries: the bytes, the
// contents of transferred ArrayBuffers (their sources are detached), the
// shared memory of SharedArrayBuffers (shared, not copied), and the cores of
// transferred MessagePorts. It may cross threads; it is deserialized once.
#pragma once

#include <v8.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hostloop::runtime {

class PortCore;
class Runtime;

struct SerializedMessage {
  struct FreeDeleter {
    void operator()(uint8_t* data) const { std::free(data); }
  };
  std::unique_ptr<uint8_t, FreeDeleter> data;
  std::size_t size = 0;
  // Bytes allocated at `data` (a recycled message's buffer is reused).
  std::size_t capacity = 0;
  // What a message carries besides its bytes. Most messages carry nothing
  // (a number, a small object), so it is allocated only for those that do:
  // a flood of 200k small messages in flight held 160 bytes each, and
  // faulting in that memory (~10 us a 4 KB page here) was a tenth of the
  // flood's time.
  struct Attachments {
    std::vector<std::shared_ptr<v8::BackingStore>> array_buffers;
    std::vector<std::shared_ptr<v8::BackingStore>> shared_array_buffers;
    std::vector<std::shared_ptr<PortCore>> ports;
    std::vector<v8::CompiledWasmModule> wasm_modules;
    // Not a message but a notice that rides the same queue, so it arrives
    // in order with the messages posted before it (a worker's uncaught
    // error after its last postMessage). Only its sender and receiver know
    // what `notice` holds; a receiver that expects none ignores it.
    std::shared_ptr<const void> notice;
  };
  std::unique_ptr<Attachments> attachments;
  // The attachments, made on first use.
  Attachments& attach() {
    if (!attachments) attachments = std::make_unique<Attachments>();
    return *attachments;
  }
  bool has_ports() const { return attachments && !attachments->ports.empty(); }
  bool is_notice() const { return attachments && attachments->notice; }
  // Set by PortCore::Enqueue: delivered through the internal lane.
  bool cross_thread = false;
  // Primitives other than strings skip V8's serializer (a message that is a
  // number is common, and the serializer's set-up dominated it).
  enum class Inline : uint8_t { kNone, kUndefined, kNull, kTrue, kFalse, kNumber };
  Inline inline_value = Inline::kNone;
  double number = 0;
  // After delivery: releases what the message still carries (buffers,
  // ports, modules) and makes it empty, keeping the allocation and a small
  // byte buffer for the next Serialize (a message from another thread would
  // otherwise be freed into that thread's malloc arena, message by message,
  // contending with its allocations).
  void Recycle();
  void DropBuffer() {
    data.reset();
    capacity = 0;
  }
};

// Serializes `value`, moving what `transfer` lists (ArrayBuffers, MessagePorts;
// a JS iterable or undefined). `source_port` is the port posting the message,
// which may not be transferred through itself. On failure a DataCloneError
// (or the exception a getter threw) is pending and the result is null; nothing
// was detached.
std::unique_ptr<SerializedMessage> Serialize(Runtime* runtime, v8::Local<v8::Value> value,
                                             v8::Local<v8::Value> transfer,
                                             v8::Local<v8::Object> source_port = {});

// A number as Serialize() carries it (inline, no serializer): what
// postMessage(number) sends. Touches no JS heap (a fast API call may use it).
std::unique_ptr<SerializedMessage> SerializeNumber(Runtime* runtime, double number);

// Rebuilds the value in `runtime`; transferred ports become MessagePorts of
// this runtime, appended to `ports` (MessageEvent.ports).
v8::MaybeLocal<v8::Value> Deserialize(Runtime* runtime, SerializedMessage& message,
                                      std::vector<v8::Local<v8::Object>>* ports);

// Throws a DOMException named DataCloneError with `message`.
void ThrowDataCloneError(v8::Isolate* isolate, v8::Local<v8::String> message);

// A [Serializable] platform object implemented in JS, as an API object V8's
// serializer hands to the host: internal fields [kind, name, message, -].
// kSerializableDOMException is the only kind so far.
inline constexpr int kSerializableFieldCount = 4;
inline constexpr int kSerializableKindField = 0;
inline constexpr int kSerializableNameField = 1;
inline constexpr int kSerializableMessageField = 2;
inline constexpr int32_t kSerializableDOMException = 1;
// Whether `object` is such an object, of `kind`.
bool IsSerializableKind(v8::Local<v8::Object> object, int32_t kind);
// Whether `value` is a DOMException (its API object, of any prototype).
bool IsDOMException(v8::Local<v8::Value> value);
// If `value` is a DOMException, sets `name` and `message` to its name and
// message, read from its internal fields, and returns true. No script runs:
// its `name` and `message` getters are not called, and a user's getters or
// own properties on it are not consulted.
bool ReadDOMException(v8::Isolate* isolate, v8::Local<v8::Value> value, std::string* name,
                      std::string* message);
v8::MaybeLocal<v8::Object> NewSerializableObject(Runtime* runtime, int32_t kind,
                                            v8::Local<v8::Value> name,
                                            v8::Local<v8::Value> message);

}  // namespace hostloop::runtime
