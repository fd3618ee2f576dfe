#include "runtime/serializer.h"

#include <algorithm>
#include <cstring>
#include <cstdlib>

#include "runtime/message_port.h"
#include "runtime/runtime.h"
#include "runtime/v8_util.h"

namespace hostloop::runtime {

void ThrowDataCloneError(v8::Isolate* isolate, v8::Local<v8::String> message) {
  ThrowDOMException(isolate, message, "DataCloneError");
}

namespace {

// The first word of a host object in a message: what follows.
constexpr uint32_t kHostPort = 0;          // a transferred port's index
constexpr uint32_t kHostDOMException = 1;  // name and message, UTF-8

class SerializerDelegate final : public v8::ValueSerializer::Delegate {
 public:
  SerializerDelegate(v8::Isolate* isolate, SerializedMessage* message,
                     const std::vector<v8::Local<v8::Object>>& transferred_ports)
      : isolate_(isolate), message_(message), transferred_ports_(transferred_ports) {}

  void set_serializer(v8::ValueSerializer* serializer) { serializer_ = serializer; }

  void ThrowDataCloneError(v8::Local<v8::String> text) override {
    runtime::ThrowDataCloneError(isolate_, text);
  }

  // Host objects: MessagePorts that are listed in the transfer list, and
  // JS-implemented [Serializable] objects (DOMException: its name and
  // message, as WebIDL's serialization steps say).
  v8::Maybe<bool> WriteHostObject(v8::Isolate* isolate, v8::Local<v8::Object> object) override {
    if (IsSerializableKind(object, kSerializableDOMException)) {
      serializer_->WriteUint32(kHostDOMException);
      WriteString(object->GetInternalField(kSerializableNameField));
      WriteString(object->GetInternalField(kSerializableMessageField));
      return v8::Just(true);
    }
    auto it = std::find(transferred_ports_.begin(), transferred_ports_.end(), object);
    serializer_->WriteUint32(kHostPort);
    if (it == transferred_ports_.end()) {
      const char* text = MessagePortHandle::FromObject(object) != nullptr
                             ? "A MessagePort could not be cloned because it was not transferred."
                             : "An object could not be cloned.";
      ThrowDataCloneError(V8String(isolate, text));
      return v8::Nothing<bool>();
    }
    serializer_->WriteUint32(static_cast<uint32_t>(it - transferred_ports_.begin()));
    return v8::Just(true);
  }

  // As UTF-16 code units (not UTF-8: a lone surrogate in a DOMException's
  // name or message must survive the copy, as WebIDL's serialization steps
  // copy the strings as they are).
  void WriteString(v8::Local<v8::Value> value) {
    std::u16string text;
    if (value->IsString()) {
      v8::Local<v8::String> string = value.As<v8::String>();
      text.resize(static_cast<std::size_t>(string->Length()));
      string->Write(isolate_, reinterpret_cast<uint16_t*>(text.data()), 0, string->Length(),
                    v8::String::NO_NULL_TERMINATION);
    }
    serializer_->WriteUint32(static_cast<uint32_t>(text.size()));
    serializer_->WriteRawBytes(text.data(), text.size() * sizeof(char16_t));
  }

  v8::Maybe<uint32_t> GetSharedArrayBufferId(v8::Isolate* isolate,
                                             v8::Local<v8::SharedArrayBuffer> buffer) override {
    for (std::size_t i = 0; i < shared_buffers_.size(); ++i) {
      if (shared_buffers_[i] == buffer) return v8::Just(static_cast<uint32_t>(i));
    }
    shared_buffers_.push_back(buffer);
    message_->attach().shared_array_buffers.push_back(buffer->GetBackingStore());
    return v8::Just(static_cast<uint32_t>(shared_buffers_.size() - 1));
  }

  // The byte buffer: a recycled message's buffer is used first when it is
  // large enough; the capacity is remembered for the next reuse.
  void* ReallocateBufferMemory(void* old_buffer, size_t size, size_t* actual_size) override {
    if (old_buffer == nullptr && message_->data && message_->capacity >= size) {
      *actual_size = capacity_ = message_->capacity;
      message_->capacity = 0;
      return message_->data.release();
    }
    void* buffer = std::realloc(old_buffer, size);
    *actual_size = capacity_ = size;
    return buffer;
  }
  void FreeBufferMemory(void* buffer) override { std::free(buffer); }
  std::size_t capacity() const { return capacity_; }

  v8::Maybe<uint32_t> GetWasmModuleTransferId(v8::Isolate* isolate,
                                              v8::Local<v8::WasmModuleObject> module) override {
    std::vector<v8::CompiledWasmModule>& modules = message_->attach().wasm_modules;
    modules.push_back(module->GetCompiledModule());
    return v8::Just(static_cast<uint32_t>(modules.size() - 1));
  }

 private:
  v8::Isolate* const isolate_;
  SerializedMessage* const message_;
  const std::vector<v8::Local<v8::Object>>& transferred_ports_;
  std::vector<v8::Local<v8::SharedArrayBuffer>> shared_buffers_;
  v8::ValueSerializer* serializer_ = nullptr;
  std::size_t capacity_ = 0;
};

class DeserializerDelegate final : public v8::ValueDeserializer::Delegate {
 public:
  DeserializerDelegate(Runtime* runtime, SerializedMessage* message,
                       std::vector<v8::Local<v8::Object>>* ports)
      : runtime_(runtime), message_(message), ports_(ports) {}

  void set_deserializer(v8::ValueDeserializer* deserializer) { deserializer_ = deserializer; }

  v8::MaybeLocal<v8::Object> ReadHostObject(v8::Isolate* isolate) override {
    uint32_t kind;
    if (!deserializer_->ReadUint32(&kind)) {
      ThrowDataCloneError(isolate, V8String(isolate, "Invalid message: unknown host object"));
      return {};
    }
    if (kind == kHostDOMException) return ReadDOMException(isolate);
    uint32_t index;
    if (kind != kHostPort || !deserializer_->ReadUint32(&index) || index >= port_objects_.size()) {
      ThrowDataCloneError(isolate, V8String(isolate, "Invalid message: unknown host object"));
      return {};
    }
    return port_objects_[index];
  }

  // A new DOMException of this realm with the serialized name and message.
  v8::MaybeLocal<v8::Object> ReadDOMException(v8::Isolate* isolate) {
    // (No JS may run while deserializing: the object is made here, and
    // events.js reads its name and message from it on first use.)
    v8::Local<v8::String> name;
    v8::Local<v8::String> message;
    if (!ReadString(isolate).ToLocal(&name) || !ReadString(isolate).ToLocal(&message) ||
        runtime_->dom_exception_prototype().IsEmpty()) {
      ThrowDataCloneError(isolate, V8String(isolate, "Invalid message: a DOMException"));
      return {};
    }
    v8::Local<v8::Object> object;
    if (!NewSerializableObject(runtime_, kSerializableDOMException, name, message)
             .ToLocal(&object) ||
        !object->SetPrototype(runtime_->context(), runtime_->dom_exception_prototype().Get(isolate))
             .FromMaybe(false)) {
      return {};
    }
    return object;
  }

  v8::MaybeLocal<v8::String> ReadString(v8::Isolate* isolate) {
    uint32_t length;
    const void* bytes;
    if (!deserializer_->ReadUint32(&length) ||
        length > static_cast<uint32_t>(v8::String::kMaxLength) ||
        !deserializer_->ReadRawBytes(std::size_t{length} * sizeof(uint16_t), &bytes)) {
      return {};
    }
    // (The bytes may sit at an odd offset in the message: copied out.)
    std::u16string text(length, u'\0');
    std::memcpy(text.data(), bytes, std::size_t{length} * sizeof(uint16_t));
    return v8::String::NewFromTwoByte(isolate, reinterpret_cast<const uint16_t*>(text.data()),
                                      v8::NewStringType::kNormal, static_cast<int>(length));
  }

  v8::MaybeLocal<v8::SharedArrayBuffer> GetSharedArrayBufferFromId(v8::Isolate* isolate,
                                                                   uint32_t id) override {
    if (!message_->attachments || id >= message_->attachments->shared_array_buffers.size()) {
      return {};
    }
    return v8::SharedArrayBuffer::New(isolate, message_->attachments->shared_array_buffers[id]);
  }

  v8::MaybeLocal<v8::WasmModuleObject> GetWasmModuleFromId(v8::Isolate* isolate,
                                                           uint32_t id) override {
    if (!message_->attachments || id >= message_->attachments->wasm_modules.size()) return {};
    return v8::WasmModuleObject::FromCompiledModule(isolate,
                                                    message_->attachments->wasm_modules[id]);
  }

  // Creates this runtime's MessagePorts for the transferred cores, in order,
  // before the value is read (it may reference them more than once). False
  // when one could not be made (the runtime's JS is being terminated); the
  // cores left are closed.
  bool AdoptPorts() {
    bool made = true;
    if (!message_->has_ports()) return true;
    for (std::shared_ptr<PortCore>& core : message_->attachments->ports) {
      v8::Local<v8::Object> port;
      if (!made) {
        core->Close();
      } else if (MessagePortHandle::NewPort(runtime_, std::move(core)).ToLocal(&port)) {
        port_objects_.push_back(port);
        ports_->push_back(port);
      } else {
        made = false;
      }
    }
    message_->attachments->ports.clear();
    return made;
  }

 private:
  Runtime* const runtime_;
  SerializedMessage* const message_;
  std::vector<v8::Local<v8::Object>>* const ports_;
  std::vector<v8::Local<v8::Object>> port_objects_;
  v8::ValueDeserializer* deserializer_ = nullptr;
};

// Reads `transfer` (undefined, or the array of objects messaging.js made of
// the transfer list) into ArrayBuffers and MessagePorts. Throws
// DataCloneError for anything else, duplicates, detached buffers,
// SharedArrayBuffers and the source port itself.
bool CollectTransfer(Runtime* runtime, v8::Local<v8::Value> transfer,
                     v8::Local<v8::Object> source_port,
                     std::vector<v8::Local<v8::ArrayBuffer>>* buffers,
                     std::vector<v8::Local<v8::Object>>* ports) {
  v8::Isolate* isolate = runtime->isolate();
  v8::Local<v8::Context> context = runtime->context();
  if (transfer.IsEmpty() || transfer->IsUndefined() || transfer->IsNull()) return true;
  if (!transfer->IsArray()) {
    ThrowTypeError(isolate, "The transfer list must be an array of objects.");
    return false;
  }
  v8::Local<v8::Array> list = transfer.As<v8::Array>();
  for (uint32_t i = 0; i < list->Length(); ++i) {
    v8::Local<v8::Value> item;
    if (!list->Get(context, i).ToLocal(&item)) return false;
    if (item->IsArrayBuffer()) {
      v8::Local<v8::ArrayBuffer> buffer = item.As<v8::ArrayBuffer>();
      if (std::find(buffers->begin(), buffers->end(), buffer) != buffers->end()) {
        ThrowDataCloneError(
            isolate,
            V8String(isolate, "An ArrayBuffer is listed more than once in the transfer list."));
        return false;
      }
      if (buffer->WasDetached()) {
        ThrowDataCloneError(
            isolate, V8String(isolate, "An ArrayBuffer is detached and could not be transferred."));
        return false;
      }
      buffers->push_back(buffer);
    } else if (MessagePortHandle* handle = MessagePortHandle::FromObject(item)) {
      v8::Local<v8::Object> port = item.As<v8::Object>();
      if (!source_port.IsEmpty() && port == source_port) {
        ThrowDataCloneError(isolate,
                            V8String(isolate, "A port cannot be transferred through itself."));
        return false;
      }
      if (std::find(ports->begin(), ports->end(), port) != ports->end()) {
        ThrowDataCloneError(
            isolate,
            V8String(isolate, "A MessagePort is listed more than once in the transfer list."));
        return false;
      }
      if (!handle->core()) {
        ThrowDataCloneError(isolate, V8String(isolate, "A MessagePort was already transferred."));
        return false;
      }
      // HTML: close() detaches the port, and a detached port is not
      // transferable (it would arrive dead, its messages lost).
      if (handle->core()->closed()) {
        ThrowDataCloneError(
            isolate, V8String(isolate, "A MessagePort is closed and could not be transferred."));
        return false;
      }
      ports->push_back(port);
    } else if (item->IsSharedArrayBuffer()) {
      ThrowDataCloneError(
          isolate, V8String(isolate, "A SharedArrayBuffer cannot be transferred; it is shared."));
      return false;
    } else {
      ThrowDataCloneError(isolate,
                          V8String(isolate, "Value in the transfer list is not transferable."));
      return false;
    }
  }
  return true;
}

}  // namespace

bool IsSerializableKind(v8::Local<v8::Object> object, int32_t kind) {
  if (object->InternalFieldCount() != kSerializableFieldCount) return false;
  v8::Local<v8::Value> field = object->GetInternalField(kSerializableKindField);
  return field->IsInt32() && field.As<v8::Int32>()->Value() == kind;
}

bool IsDOMException(v8::Local<v8::Value> value) {
  return value->IsObject() && !value->IsProxy() &&
         IsSerializableKind(value.As<v8::Object>(), kSerializableDOMException);
}

bool ReadDOMException(v8::Isolate* isolate, v8::Local<v8::Value> value, std::string* name,
                      std::string* message) {
  if (!IsDOMException(value)) return false;
  v8::Local<v8::Object> object = value.As<v8::Object>();
  v8::Local<v8::Value> name_field = object->GetInternalField(kSerializableNameField);
  v8::Local<v8::Value> message_field = object->GetInternalField(kSerializableMessageField);
  *name = name_field->IsString() ? StdString(isolate, name_field) : std::string();
  *message = message_field->IsString() ? StdString(isolate, message_field) : std::string();
  return true;
}

v8::MaybeLocal<v8::Object> NewSerializableObject(Runtime* runtime, int32_t kind,
                                                 v8::Local<v8::Value> name,
                                                 v8::Local<v8::Value> message) {
  v8::Isolate* isolate = runtime->isolate();
  v8::Global<v8::ObjectTemplate>& cached = runtime->serializable_template();
  if (cached.IsEmpty()) {
    v8::Local<v8::ObjectTemplate> tmpl = v8::ObjectTemplate::New(isolate);
    tmpl->SetInternalFieldCount(kSerializableFieldCount);
    cached.Reset(isolate, tmpl);
  }
  v8::Local<v8::Object> object;
  if (!cached.Get(isolate)->NewInstance(runtime->context()).ToLocal(&object)) return {};
  object->SetInternalField(kSerializableKindField, v8::Integer::New(isolate, kind));
  object->SetInternalField(kSerializableNameField, name);
  object->SetInternalField(kSerializableMessageField, message);
  object->SetInternalField(3, v8::Undefined(isolate));
  return object;
}

std::unique_ptr<SerializedMessage> SerializeNumber(Runtime* runtime, double number) {
  std::unique_ptr<SerializedMessage> message = runtime->TakeSpareMessage();
  message->inline_value = SerializedMessage::Inline::kNumber;
  message->number = number;
  return message;
}

std::unique_ptr<SerializedMessage> Serialize(Runtime* runtime, v8::Local<v8::Value> value,
                                             v8::Local<v8::Value> transfer,
                                             v8::Local<v8::Object> source_port) {
  v8::Isolate* isolate = runtime->isolate();
  v8::Local<v8::Context> context = runtime->context();
  std::vector<v8::Local<v8::ArrayBuffer>> buffers;
  std::vector<v8::Local<v8::Object>> ports;
  if (!CollectTransfer(runtime, transfer, source_port, &buffers, &ports)) return nullptr;

  if (buffers.empty() && ports.empty() && value->IsNumber()) {
    return SerializeNumber(runtime, value.As<v8::Number>()->Value());
  }
  std::unique_ptr<SerializedMessage> message = runtime->TakeSpareMessage();
  if (buffers.empty() && ports.empty()) {
    using Inline = SerializedMessage::Inline;
    if (value->IsUndefined() || value->IsNull() || value->IsBoolean()) {
      message->inline_value = value->IsUndefined() ? Inline::kUndefined
                              : value->IsNull()    ? Inline::kNull
                              : value->IsTrue()    ? Inline::kTrue
                                                   : Inline::kFalse;
      return message;
    }
  }
  SerializerDelegate delegate(isolate, message.get(), ports);
  v8::ValueSerializer serializer(isolate, &delegate);
  delegate.set_serializer(&serializer);
  serializer.WriteHeader();
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    serializer.TransferArrayBuffer(static_cast<uint32_t>(i), buffers[i]);
  }
  if (serializer.WriteValue(context, value).IsNothing()) return nullptr;
  // HTML StructuredSerializeWithTransfer: what serialization ran (a getter)
  // may have transferred a listed object away meanwhile.
  for (v8::Local<v8::ArrayBuffer> buffer : buffers) {
    if (buffer->WasDetached()) {
      ThrowDataCloneError(
          isolate,
          V8String(isolate,
                   "An ArrayBuffer in the transfer list was detached during serialization."));
      return nullptr;
    }
  }
  for (v8::Local<v8::Object> port : ports) {
    const std::shared_ptr<PortCore>& core = MessagePortHandle::FromObject(port)->core();
    if (!core) {
      ThrowDataCloneError(
          isolate,
          V8String(isolate,
                   "A MessagePort in the transfer list was transferred during serialization."));
      return nullptr;
    }
    // Closed (detached, as HTML's close() says) by a getter: refused as a
    // port closed before the call is, not delivered dead.
    if (core->closed()) {
      ThrowDataCloneError(
          isolate,
          V8String(isolate, "A MessagePort in the transfer list was closed during serialization."));
      return nullptr;
    }
  }
  auto [data, size] = serializer.Release();
  message->data.reset(data);
  message->size = size;
  message->capacity = delegate.capacity();

  // Only now that serialization succeeded does anything move. A buffer
  // that cannot be detached (a WebAssembly.Memory's, whose detach key is
  // not undefined) fails HTML's "? DetachArrayBuffer": a TypeError, before
  // anything moved.
  for (v8::Local<v8::ArrayBuffer> buffer : buffers) {
    if (!buffer->IsDetachable()) {
      isolate->ThrowException(v8::Exception::TypeError(V8String(
          isolate,
          "An ArrayBuffer that cannot be detached (a WebAssembly.Memory's buffer) could not be "
          "transferred.")));
      return nullptr;
    }
  }
  for (v8::Local<v8::ArrayBuffer> buffer : buffers) {
    message->attach().array_buffers.push_back(buffer->GetBackingStore());
    buffer->Detach();
  }
  for (v8::Local<v8::Object> port : ports) {
    message->attach().ports.push_back(MessagePortHandle::FromObject(port)->Disentangle());
  }
  return message;
}

void SerializedMessage::Recycle() {
  // Large buffers go back to malloc; a typical message's stays.
  constexpr std::size_t kKeptCapacity = 4096;
  if (capacity > kKeptCapacity) DropBuffer();
  size = 0;
  attachments.reset();
  cross_thread = false;
  inline_value = Inline::kNone;
  number = 0;
}

v8::MaybeLocal<v8::Value> Deserialize(Runtime* runtime, SerializedMessage& message,
                                      std::vector<v8::Local<v8::Object>>* ports) {
  // No handle scope of its own: the ports it creates belong to the caller's.
  v8::Isolate* isolate = runtime->isolate();
  v8::Local<v8::Context> context = runtime->context();
  switch (message.inline_value) {
    case SerializedMessage::Inline::kNone:
      break;
    case SerializedMessage::Inline::kUndefined:
      return v8::Undefined(isolate);
    case SerializedMessage::Inline::kNull:
      return v8::Null(isolate);
    case SerializedMessage::Inline::kTrue:
      return v8::True(isolate);
    case SerializedMessage::Inline::kFalse:
      return v8::False(isolate);
    case SerializedMessage::Inline::kNumber:
      return v8::Number::New(isolate, message.number);
  }
  DeserializerDelegate delegate(runtime, &message, ports);
  v8::ValueDeserializer deserializer(isolate, message.data.get(), message.size, &delegate);
  delegate.set_deserializer(&deserializer);
  if (!delegate.AdoptPorts() || deserializer.ReadHeader(context).IsNothing()) return {};
  if (message.attachments) {
    const auto& buffers = message.attachments->array_buffers;
    for (std::size_t i = 0; i < buffers.size(); ++i) {
      deserializer.TransferArrayBuffer(static_cast<uint32_t>(i),
                                       v8::ArrayBuffer::New(isolate, buffers[i]));
    }
  }
  v8::Local<v8::Value> value;
  if (!deserializer.ReadValue(context).ToLocal(&value)) return {};
  return value;
}

}  // namespace hostloop::runtime
