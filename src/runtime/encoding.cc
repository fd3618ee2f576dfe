// TextEncoder/TextDecoder natives (js/encoding.js): UTF-8 encoding and the
// decoding of ASCII and of invalid input through V8's own WHATWG-conformant
// UTF-8 codec, a faster decoder of valid non-ASCII text that is also the
// check for `fatal` decoders, and the boundary of an incomplete sequence for
// streaming; and the base64 of btoa/atob.
// https://encoding.spec.whatwg.org/
#include "runtime/encoding.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/data_url.h"
#include "runtime/runtime.h"
#include "runtime/v8_util.h"
#include "runtime/view_contents.h"

namespace hostloop::runtime {
namespace {

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

// The index of the first byte above 0x7F in `data`, or `size`.
std::size_t FirstNonAscii(const uint8_t* data, std::size_t size) {
  std::size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    uint64_t word;
    std::memcpy(&word, data + i, 8);
    if ((word & 0x8080808080808080ULL) != 0) break;
  }
  while (i < size && data[i] < 0x80) ++i;
  return i;
}

// Strict UTF-8 (the Encoding standard's decoder, which then replaces
// nothing) as UTF-16 code units, in one pass with ASCII eight bytes at a
// time; false at the first byte that makes `data` invalid. `data[0, start)`
// is known to be ASCII. (V8 10.2's own decoder goes a byte at a time through
// a state machine after the first non-ASCII byte: 2-3x slower on text that
// is mostly ASCII.)
bool DecodeValidUtf8(const uint8_t* data, std::size_t size, std::size_t start, std::u16string* out) {
  out->resize(size);  // never more code units than bytes
  char16_t* o = std::copy(data, data + start, out->data());
  std::size_t i = start;
  while (i < size) {
    const std::size_t ascii = FirstNonAscii(data + i, size - i);
    o = std::copy(data + i, data + i + ascii, o);
    i += ascii;
    if (i >= size) break;
    const uint8_t c = data[i];
    const std::optional<Utf8Lead> lead = LeadOf(c);
    if (!lead) return false;
    const std::size_t need = lead->continuations;
    // The continuation bytes are at i+1 .. i+need; the first one's range
    // rules out overlong forms, surrogates and code points past U+10FFFF.
    if (i + need >= size) return false;
    if (data[i + 1] < lead->lower || data[i + 1] > lead->upper) return false;
    uint32_t code_point = c & (0x3FU >> need);
    for (std::size_t k = 1; k <= need; ++k) {
      if ((data[i + k] & 0xC0) != 0x80) return false;
      code_point = (code_point << 6) | (data[i + k] & 0x3FU);
    }
    if (code_point >= 0x10000) {
      code_point -= 0x10000;
      *o++ = static_cast<char16_t>(0xD800 + (code_point >> 10));
      *o++ = static_cast<char16_t>(0xDC00 + (code_point & 0x3FF));
    } else {
      *o++ = static_cast<char16_t>(code_point);
    }
    i += need + 1;
  }
  out->resize(static_cast<std::size_t>(o - out->data()));
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
  text->WriteUtf8(isolate, static_cast<char*>(buffer->Data()), length, nullptr,
                  v8::String::NO_NULL_TERMINATION | v8::String::REPLACE_INVALID_UTF8);
  info.GetReturnValue().Set(v8::Uint8Array::New(buffer, 0, static_cast<std::size_t>(length)));
}

// utf8EncodeInto(string, Uint8Array) -> [read, written]
void Utf8EncodeInto(const v8::FunctionCallbackInfo<v8::Value>& info) {
  v8::Isolate* isolate = info.GetIsolate();
  v8::Local<v8::Context> context = isolate->GetCurrentContext();
  if (info.Length() < 2 || !info[0]->IsString() || !info[1]->IsUint8Array()) return;
  ViewContents destination;
  if (!GetViewContents(Runtime::From(isolate), info[1], &destination).FromMaybe(false)) return;
  char* data = reinterpret_cast<char*>(destination.data());
  int read = 0;
  // WriteUtf8 takes an int capacity; no string's UTF-8 form is longer than
  // INT_MAX bytes, so a larger destination is as good as INT_MAX.
  const std::size_t capacity = std::min<std::size_t>(destination.length, INT_MAX);
  int written = info[0].As<v8::String>()->WriteUtf8(
      isolate, data, static_cast<int>(capacity), &read,
      v8::String::NO_NULL_TERMINATION | v8::String::REPLACE_INVALID_UTF8);
  v8::Local<v8::Array> result = v8::Array::New(isolate, 2);
  result->Set(context, 0, v8::Integer::New(isolate, read)).FromMaybe(false);
  result->Set(context, 1, v8::Integer::New(isolate, written)).FromMaybe(false);
  info.GetReturnValue().Set(result);
}

// utf8Decode(bytes, fatal, stream) -> the string when every byte was used,
// else [string, consumedBytes] (streaming, an incomplete sequence at the
// end); throws a TypeError for invalid input when `fatal`. (A plain string in
// the common case: making the array through the API cost more than decoding
// a short text.)
void Utf8Decode(const v8::FunctionCallbackInfo<v8::Value>& info) {
  v8::Isolate* isolate = info.GetIsolate();
  v8::Local<v8::Context> context = isolate->GetCurrentContext();
  ViewContents contents;
  bool is_buffer_source = false;
  if (info.Length() > 0 &&
      !GetViewContents(Runtime::From(isolate), info[0], &contents).To(&is_buffer_source)) {
    return;
  }
  if (!is_buffer_source) {
    ThrowTypeError(isolate, "The provided value is not of type '(ArrayBuffer or ArrayBufferView)'");
    return;
  }
  const uint8_t* data = contents.data();
  const std::size_t size = contents.length;
  // decode() works on "a copy of the bytes held by the buffer source": over
  // shared memory another thread may write meanwhile, and V8's UTF-8 decoder
  // reads its input twice (to size the string, then to fill it), so bytes
  // that change in between made it write past the string (a segfault).
  std::string copy;
  if (contents.store->IsShared()) {
    copy.assign(reinterpret_cast<const char*>(data), size);
    data = reinterpret_cast<const uint8_t*>(copy.data());
  }
  bool fatal = info.Length() > 1 && info[1]->IsTrue();
  bool stream = info.Length() > 2 && info[2]->IsTrue();
  std::size_t usable = stream ? CompletePrefix(data, size) : size;
  // Longer than any string V8 can make (and than NewFromUtf8's int length,
  // which a negative value turns into strlen): the JS error for it.
  auto too_long = [&] {
    isolate->ThrowException(v8::Exception::RangeError(V8String(isolate, "Invalid string length")));
  };
  if (usable > static_cast<std::size_t>(v8::String::kMaxLength) * 4) return too_long();
  v8::Local<v8::String> text;
  // ASCII (V8 copies it as it is), or invalid UTF-8 (V8's decoder replaces
  // each maximal bad subpart with U+FFFD, as the standard says): V8 decodes.
  // Valid text with other characters: DecodeValidUtf8.
  const std::size_t non_ascii = FirstNonAscii(data, usable);
  bool decoded = false;
  if (non_ascii < usable) {
    std::u16string units;
    if (DecodeValidUtf8(data, usable, non_ascii, &units)) {
      if (units.size() > static_cast<std::size_t>(v8::String::kMaxLength) ||
          !v8::String::NewFromTwoByte(isolate, reinterpret_cast<const uint16_t*>(units.data()),
                                      v8::NewStringType::kNormal, static_cast<int>(units.size()))
               .ToLocal(&text)) {
        return too_long();
      }
      decoded = true;
    } else if (fatal) {
      ThrowTypeError(isolate, "The encoded data was not valid for encoding utf-8");
      return;
    }
  }
  if (!decoded && !v8::String::NewFromUtf8(isolate, reinterpret_cast<const char*>(data),
                                           v8::NewStringType::kNormal, static_cast<int>(usable))
                       .ToLocal(&text)) {
    return too_long();
  }
  if (usable == size) {
    info.GetReturnValue().Set(text);
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
// Over a resizable buffer, a copy of the bytes it holds now (WebIDL's "get a
// copy of the bytes held by the buffer source").
void ViewBytes(const v8::FunctionCallbackInfo<v8::Value>& info) {
  v8::Isolate* isolate = info.GetIsolate();
  ViewContents contents;
  if (info.Length() < 1 ||
      !GetViewContents(Runtime::From(isolate), info[0], &contents).FromMaybe(false)) {
    return;
  }
  v8::Local<v8::Uint8Array> bytes;
  if (contents.length == 0) {
    bytes = v8::Uint8Array::New(v8::ArrayBuffer::New(isolate, 0), 0, 0);
  } else if (contents.resizable) {
    v8::Local<v8::ArrayBuffer> copy = v8::ArrayBuffer::New(isolate, contents.length);
    std::memcpy(copy->Data(), contents.data(), contents.length);
    bytes = v8::Uint8Array::New(copy, 0, contents.length);
  } else {
    v8::Local<v8::Value> buffer = info[0];
    // (A view's Buffer() is typed ArrayBuffer even over shared memory.)
    if (buffer->IsArrayBufferView()) buffer = buffer.As<v8::ArrayBufferView>()->Buffer();
    bytes = buffer->IsSharedArrayBuffer() ? v8::Uint8Array::New(buffer.As<v8::SharedArrayBuffer>(),
                                                                contents.offset, contents.length)
                                          : v8::Uint8Array::New(buffer.As<v8::ArrayBuffer>(),
                                                                contents.offset, contents.length);
  }
  info.GetReturnValue().Set(bytes);
}

constexpr char kBase64Alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// A string's code units, when every one is at most 0xFF (a "binary string").
std::optional<std::string> OneByteUnits(v8::Isolate* isolate, v8::Local<v8::String> text) {
  if (!text->ContainsOnlyOneByte()) return std::nullopt;
  std::string units(static_cast<std::size_t>(text->Length()), '\0');
  text->WriteOneByte(isolate, reinterpret_cast<uint8_t*>(units.data()), 0, text->Length(),
                     v8::String::NO_NULL_TERMINATION);
  return units;
}

// `bytes` as a string of one code unit per byte; throws RangeError (and
// sets nothing) past V8's longest string.
void ReturnOneByteString(const v8::FunctionCallbackInfo<v8::Value>& info, const std::string& bytes) {
  v8::Isolate* isolate = info.GetIsolate();
  v8::Local<v8::String> text;
  if (bytes.size() > static_cast<std::size_t>(v8::String::kMaxLength) ||
      !v8::String::NewFromOneByte(isolate, reinterpret_cast<const uint8_t*>(bytes.data()),
                                  v8::NewStringType::kNormal, static_cast<int>(bytes.size()))
           .ToLocal(&text)) {
    isolate->ThrowException(v8::Exception::RangeError(V8String(isolate, "Invalid string length")));
    return;
  }
  info.GetReturnValue().Set(text);
}

// base64Encode(string) -> its base64 (btoa), or undefined when a code unit
// is above 0xFF.
void Base64Encode(const v8::FunctionCallbackInfo<v8::Value>& info) {
  if (info.Length() < 1 || !info[0]->IsString()) return;
  std::optional<std::string> units = OneByteUnits(info.GetIsolate(), info[0].As<v8::String>());
  if (!units) return;
  const auto* in = reinterpret_cast<const uint8_t*>(units->data());
  const std::size_t n = units->size();
  // (Written through a pointer: std::string's push_back is an out-of-line
  // call per character with libstdc++.)
  std::string out((n + 2) / 3 * 4, '\0');
  char* o = out.data();
  std::size_t i = 0;
  for (; i + 2 < n; i += 3) {
    const uint32_t triple = (uint32_t{in[i]} << 16) | (uint32_t{in[i + 1]} << 8) | in[i + 2];
    *o++ = kBase64Alphabet[triple >> 18];
    *o++ = kBase64Alphabet[(triple >> 12) & 63];
    *o++ = kBase64Alphabet[(triple >> 6) & 63];
    *o++ = kBase64Alphabet[triple & 63];
  }
  if (i < n) {
    const uint32_t pair = (uint32_t{in[i]} << 16) | (i + 1 < n ? uint32_t{in[i + 1]} << 8 : 0);
    *o++ = kBase64Alphabet[pair >> 18];
    *o++ = kBase64Alphabet[(pair >> 12) & 63];
    *o++ = i + 1 < n ? kBase64Alphabet[(pair >> 6) & 63] : '=';
    *o++ = '=';
  }
  ReturnOneByteString(info, out);
}

// base64Decode(string) -> the bytes as a binary string (atob), or undefined
// when it is not forgiving-base64 (https://infra.spec.whatwg.org/#forgiving-base64-decode).
void Base64Decode(const v8::FunctionCallbackInfo<v8::Value>& info) {
  if (info.Length() < 1 || !info[0]->IsString()) return;
  std::optional<std::string> units = OneByteUnits(info.GetIsolate(), info[0].As<v8::String>());
  if (!units) return;  // a code point above 0xFF is no base64 character
  std::optional<std::string> bytes = ForgivingBase64Decode(std::move(*units));
  if (bytes) ReturnOneByteString(info, *bytes);
}

}  // namespace

std::span<const HostFunction> EncodingFunctions() {
  static const HostFunction kFunctions[] = {
      {"viewBytes", ViewBytes},
      {"utf8Encode", Utf8Encode},
      {"utf8EncodeInto", Utf8EncodeInto},
      {"utf8Decode", Utf8Decode},
      {"base64Encode", Base64Encode},
      {"base64Decode", Base64Decode},
  };
  return kFunctions;
}

}  // namespace hostloop::runtime
