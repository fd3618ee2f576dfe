// TextEncoder/TextDecoder natives (js/encoding.js): UTF-8 through V8's own
// WHATWG-conformant UTF-8 codec, plus a validator for `fatal` decoders and
// the boundary of an incomplete sequence for streaming.
// https://encoding.spec.whatwg.org/
#include "runtime/encoding.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <optional>

#include "runtime/v8_util.h"

namespace hostloop::runtime {
namespace {

// Bytes of `view` (an ArrayBuffer, SharedArrayBuffer or view).
bool BytesOf(v8::Local<v8::Value> value, const uint8_t** data, std::size_t* size) {
  if (value->IsArrayBufferView()) {
    v8::Local<v8::ArrayBufferView> view = value.As<v8::ArrayBufferView>();
    std::shared_ptr<v8::BackingStore> store = view->Buffer()->GetBackingStore();
    *data = static_cast<const uint8_t*>(store->Data()) + view->ByteOffset();
    *size = view->ByteLength();
    return true;
  }
  if (value->IsArrayBuffer()) {
    std::shared_ptr<v8::BackingStore> store = value.As<v8::ArrayBuffer>()->GetBackingStore();
    *data = static_cast<const uint8_t*>(store->Data());
    *size = store->ByteLength();
    return true;
  }
  if (value->IsSharedArrayBuffer()) {
    std::shared_ptr<v8::BackingStore> store = value.As<v8::SharedArrayBuffer>()->GetBackingStore();
    *data = static_cast<const uint8_t*>(store->Data());
    *size = store->ByteLength();
    return true;
  }
  return false;
}

// Length of the longest prefix of `data` that ends on a sequence boundary:
// a trailing lead byte followed by fewer continuation bytes than it needs is
// held back for the next streaming call, but only while what follows it is
// a valid start of its sequence (E0 needs A0-BF next, ED 80-9F, F0 90-BF,
// F4 80-8F): an invalid one is an error now, as the Encoding standard's
// decoder reports it, not one call later.
// A UTF-8 lead byte (the Encoding standard's decoder): how many
// continuation bytes follow it, and the range of the first of them.
struct Utf8Lead {
  std::size_t continuations;
  uint8_t lower = 0x80;
  uint8_t upper = 0xBF;
};
std::optional<Utf8Lead> LeadOf(uint8_t c) {
  if (c >= 0xC2 && c <= 0xDF) return Utf8Lead{1};
  if (c >= 0xE0 && c <= 0xEF) {
    return Utf8Lead{2, static_cast<uint8_t>(c == 0xE0 ? 0xA0 : 0x80),
                    static_cast<uint8_t>(c == 0xED ? 0x9F : 0xBF)};
  }
  if (c >= 0xF0 && c <= 0xF4) {
    return Utf8Lead{3, static_cast<uint8_t>(c == 0xF0 ? 0x90 : 0x80),
                    static_cast<uint8_t>(c == 0xF4 ? 0x8F : 0xBF)};
  }
  return std::nullopt;  // ASCII, a continuation byte, or never valid
}

std::size_t CompletePrefix(const uint8_t* data, std::size_t size) {
  std::size_t back = 0;
  while (back < 3 && back < size && (data[size - 1 - back] & 0xC0) == 0x80) ++back;
  if (back == size) return size;
  const std::optional<Utf8Lead> lead = LeadOf(data[size - 1 - back]);
  if (!lead || back >= lead->continuations) return size;  // no lead, or complete
  if (back > 0) {
    const uint8_t second = data[size - back];
    if (second < lead->lower || second > lead->upper) return size;
  }
  return size - 1 - back;
}

// Strict UTF-8 (the Encoding standard's decoder without replacement).
bool IsValidUtf8(const uint8_t* data, std::size_t size) {
  std::size_t i = 0;
  while (i < size) {
    uint8_t c = data[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    const std::optional<Utf8Lead> lead = LeadOf(c);
    if (!lead) return false;
    const std::size_t need = lead->continuations;
    // The continuation bytes are at i+1 .. i+need.
    if (i + need >= size) return false;
    if (data[i + 1] < lead->lower || data[i + 1] > lead->upper) return false;
    for (std::size_t k = 2; k <= need; ++k) {
      if ((data[i + k] & 0xC0) != 0x80) return false;
    }
    i += need + 1;
  }
  return true;
}

// utf8Encode(string) -> Uint8Array
void Utf8Encode(const v8::FunctionCallbackInfo<v8::Value>& info) {
  v8::Isolate* isolate = info.GetIsolate();
  v8::Local<v8::String> text;
  if (info.Length() < 1 || !info[0]->ToString(isolate->GetCurrentContext()).ToLocal(&text)) return;
  int length = text->Utf8Length(isolate);
  v8::Local<v8::ArrayBuffer> buffer =
      v8::ArrayBuffer::New(isolate, static_cast<std::size_t>(length));
  text->WriteUtf8(isolate, static_cast<char*>(buffer->GetBackingStore()->Data()), length, nullptr,
                  v8::String::NO_NULL_TERMINATION | v8::String::REPLACE_INVALID_UTF8);
  info.GetReturnValue().Set(v8::Uint8Array::New(buffer, 0, static_cast<std::size_t>(length)));
}

// utf8EncodeInto(string, Uint8Array) -> [read, written]
void Utf8EncodeInto(const v8::FunctionCallbackInfo<v8::Value>& info) {
  v8::Isolate* isolate = info.GetIsolate();
  v8::Local<v8::Context> context = isolate->GetCurrentContext();
  if (info.Length() < 2 || !info[0]->IsString() || !info[1]->IsUint8Array()) return;
  v8::Local<v8::Uint8Array> destination = info[1].As<v8::Uint8Array>();
  char* data = static_cast<char*>(destination->Buffer()->GetBackingStore()->Data()) +
               destination->ByteOffset();
  int read = 0;
  // WriteUtf8 takes an int capacity; no string's UTF-8 form is longer than
  // INT_MAX bytes, so a larger destination is as good as INT_MAX.
  const std::size_t capacity = std::min<std::size_t>(destination->ByteLength(), INT_MAX);
  int written = info[0].As<v8::String>()->WriteUtf8(
      isolate, data, static_cast<int>(capacity), &read,
      v8::String::NO_NULL_TERMINATION | v8::String::REPLACE_INVALID_UTF8);
  v8::Local<v8::Array> result = v8::Array::New(isolate, 2);
  result->Set(context, 0, v8::Integer::New(isolate, read)).FromMaybe(false);
  result->Set(context, 1, v8::Integer::New(isolate, written)).FromMaybe(false);
  info.GetReturnValue().Set(result);
}

// utf8Decode(bytes, fatal, stream) -> [string, consumedBytes]; throws a
// TypeError for invalid input when `fatal`.
void Utf8Decode(const v8::FunctionCallbackInfo<v8::Value>& info) {
  v8::Isolate* isolate = info.GetIsolate();
  v8::Local<v8::Context> context = isolate->GetCurrentContext();
  const uint8_t* data = nullptr;
  std::size_t size = 0;
  if (info.Length() < 1 || !BytesOf(info[0], &data, &size)) {
    ThrowTypeError(isolate, "The provided value is not of type '(ArrayBuffer or ArrayBufferView)'");
    return;
  }
  bool fatal = info.Length() > 1 && info[1]->IsTrue();
  bool stream = info.Length() > 2 && info[2]->IsTrue();
  std::size_t usable = stream ? CompletePrefix(data, size) : size;
  if (fatal && !IsValidUtf8(data, usable)) {
    ThrowTypeError(isolate, "The encoded data was not valid for encoding utf-8");
    return;
  }
  // Longer than any string V8 can make (and than NewFromUtf8's int length,
  // which a negative value turns into strlen): the JS error for it.
  v8::Local<v8::String> text;
  if (usable > static_cast<std::size_t>(v8::String::kMaxLength) * 4 ||
      !v8::String::NewFromUtf8(isolate, reinterpret_cast<const char*>(data),
                               v8::NewStringType::kNormal, static_cast<int>(usable))
           .ToLocal(&text)) {
    isolate->ThrowException(v8::Exception::RangeError(V8String(isolate, "Invalid string length")));
    return;
  }
  v8::Local<v8::Array> result = v8::Array::New(isolate, 2);
  result->Set(context, 0, text).FromMaybe(false);
  result->Set(context, 1, v8::Number::New(isolate, static_cast<double>(usable))).FromMaybe(false);
  info.GetReturnValue().Set(result);
}

// viewBytes(value) -> Uint8Array | undefined: a Uint8Array over the bytes of
// an ArrayBuffer, SharedArrayBuffer or view, read from their internal slots
// (not from properties a program may have redefined); empty when detached.
void ViewBytes(const v8::FunctionCallbackInfo<v8::Value>& info) {
  v8::Isolate* isolate = info.GetIsolate();
  if (info.Length() < 1) return;
  v8::Local<v8::Value> value = info[0];
  v8::Local<v8::Uint8Array> bytes;
  if (value->IsArrayBufferView()) {
    v8::Local<v8::ArrayBufferView> view = value.As<v8::ArrayBufferView>();
    const std::size_t length = view->ByteLength();
    if (length == 0) {
      bytes = v8::Uint8Array::New(v8::ArrayBuffer::New(isolate, 0), 0, 0);
    } else if (view->Buffer()->IsSharedArrayBuffer()) {
      // (A view's Buffer() is typed ArrayBuffer even over shared memory.)
      v8::Local<v8::Value> buffer = view->Buffer();
      bytes = v8::Uint8Array::New(buffer.As<v8::SharedArrayBuffer>(), view->ByteOffset(), length);
    } else {
      bytes = v8::Uint8Array::New(view->Buffer(), view->ByteOffset(), length);
    }
  } else if (value->IsArrayBuffer()) {
    v8::Local<v8::ArrayBuffer> buffer = value.As<v8::ArrayBuffer>();
    bytes = v8::Uint8Array::New(buffer, 0, buffer->ByteLength());
  } else if (value->IsSharedArrayBuffer()) {
    v8::Local<v8::SharedArrayBuffer> buffer = value.As<v8::SharedArrayBuffer>();
    bytes = v8::Uint8Array::New(buffer, 0, buffer->ByteLength());
  } else {
    return;
  }
  info.GetReturnValue().Set(bytes);
}

}  // namespace

std::span<const HostFunction> EncodingFunctions() {
  static const HostFunction kFunctions[] = {
      {"viewBytes", ViewBytes},
      {"utf8Encode", Utf8Encode},
      {"utf8EncodeInto", Utf8EncodeInto},
      {"utf8Decode", Utf8Decode},
  };
  return kFunctions;
}

}  // namespace hostloop::runtime
