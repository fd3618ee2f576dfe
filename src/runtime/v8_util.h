// Small helpers at the C++/V8 boundary: strings, exceptions, functions.
#pragma once

#include <v8.h>

#include <string>
#include <string_view>

namespace hostloop::runtime {

// `text` as a V8 string, or empty when it is longer than V8's longest
// string (for text from outside: sources, files).
inline v8::MaybeLocal<v8::String> MaybeV8String(v8::Isolate* isolate, std::string_view text) {
  if (text.size() > static_cast<std::size_t>(v8::String::kMaxLength)) return {};
  return v8::String::NewFromUtf8(isolate, text.data(), v8::NewStringType::kNormal,
                                 static_cast<int>(text.size()));
}

inline v8::Local<v8::String> V8String(v8::Isolate* isolate, std::string_view text) {
  return v8::String::NewFromUtf8(isolate, text.data(), v8::NewStringType::kNormal,
                                 static_cast<int>(text.size()))
      .ToLocalChecked();
}

// Internalized: for property names used again and again.
inline v8::Local<v8::String> V8Symbol(v8::Isolate* isolate, std::string_view text) {
  return v8::String::NewFromUtf8(isolate, text.data(), v8::NewStringType::kInternalized,
                                 static_cast<int>(text.size()))
      .ToLocalChecked();
}

// UTF-8 as the Encoding standard writes it: a lone surrogate becomes U+FFFD
// (never the 3-byte "WTF-8" form, which is not UTF-8). Non-strings are
// converted with ToString; an exception there gives "".
inline std::string StdString(v8::Isolate* isolate, v8::Local<v8::Value> value) {
  v8::Local<v8::String> string;
  if (value->IsString()) {
    string = value.As<v8::String>();
  } else if (!value->ToString(isolate->GetCurrentContext()).ToLocal(&string)) {
    return std::string();
  }
  // ASCII (most paths, names, keys) is its own UTF-8: copied as one-byte
  // data, without V8's UTF-8 encoder (a third of the main thread's work per
  // hostloop:fs call went to measuring and encoding the path).
  if (string->IsOneByte()) {
    std::string out(static_cast<std::size_t>(string->Length()), '\0');
    string->WriteOneByte(isolate, reinterpret_cast<uint8_t*>(out.data()), 0,
                         static_cast<int>(out.size()), v8::String::NO_NULL_TERMINATION);
    bool ascii = true;
    for (char c : out) ascii &= static_cast<unsigned char>(c) < 0x80;
    if (ascii) return out;
  }
  std::string out(static_cast<std::size_t>(string->Utf8Length(isolate)), '\0');
  string->WriteUtf8(isolate, out.data(), static_cast<int>(out.size()), nullptr,
                    v8::String::NO_NULL_TERMINATION | v8::String::REPLACE_INVALID_UTF8);
  return out;
}

inline void ThrowTypeError(v8::Isolate* isolate, std::string_view message) {
  isolate->ThrowException(v8::Exception::TypeError(V8String(isolate, message)));
}

// Throws a DOMException named `name` ("DataCloneError", "SyntaxError", ...)
// through the realm's DOMException, or a plain Error if script removed it.
inline void ThrowDOMException(v8::Isolate* isolate, v8::Local<v8::String> message,
                              const char* name) {
  v8::Local<v8::Context> context = isolate->GetCurrentContext();
  v8::Local<v8::Value> constructor;
  v8::Local<v8::Value> error;
  v8::Local<v8::Value> argv[] = {message, V8Symbol(isolate, name)};
  if (context->Global()->Get(context, V8Symbol(isolate, "DOMException")).ToLocal(&constructor) &&
      constructor->IsFunction() &&
      constructor.As<v8::Function>()->NewInstance(context, 2, argv).ToLocal(&error)) {
    isolate->ThrowException(error);
    return;
  }
  isolate->ThrowException(v8::Exception::Error(message));
}

inline void ThrowError(v8::Isolate* isolate, std::string_view message) {
  isolate->ThrowException(v8::Exception::Error(V8String(isolate, message)));
}

inline void ThrowRangeError(v8::Isolate* isolate, std::string_view message) {
  isolate->ThrowException(v8::Exception::RangeError(V8String(isolate, message)));
}


// [message, filename, lineno, colno]: what an ErrorEvent needs.
inline v8::Local<v8::Array> LocationArray(v8::Local<v8::Context> context,
                                          v8::Local<v8::Value> message,
                                          v8::Local<v8::Value> filename, int lineno, int colno) {
  v8::Isolate* isolate = context->GetIsolate();
  v8::Local<v8::Array> parts = v8::Array::New(isolate, 4);
  v8::Local<v8::Value> values[] = {message, filename, v8::Integer::New(isolate, lineno),
                                   v8::Integer::New(isolate, colno)};
  for (uint32_t i = 0; i < 4; ++i) parts->Set(context, i, values[i]).FromMaybe(false);
  return parts;
}

// The LocationArray of a V8 message (columns 1-based, as HTML reports them),
// with `text` for its message.
inline v8::Local<v8::Array> MessageLocation(v8::Local<v8::Context> context,
                                            v8::Local<v8::Message> message,
                                            v8::Local<v8::String> text) {
  v8::Isolate* isolate = context->GetIsolate();
  v8::Local<v8::Value> resource = message->GetScriptResourceName();
  return LocationArray(context, text,
                       resource->IsString() ? resource : V8String(isolate, "").As<v8::Value>(),
                       message->GetLineNumber(context).FromMaybe(0),
                       message->GetStartColumn(context).FromMaybe(-1) + 1);
}

// Adds `callback` as method `name` of `target`.
inline void SetMethod(v8::Local<v8::Context> context, v8::Local<v8::Object> target,
                      std::string_view name, v8::FunctionCallback callback,
                      v8::Local<v8::Value> data = v8::Local<v8::Value>()) {
  v8::Isolate* isolate = context->GetIsolate();
  v8::Local<v8::Function> function =
      v8::Function::New(context, callback, data, 0, v8::ConstructorBehavior::kThrow)
          .ToLocalChecked();
  v8::Local<v8::String> key = V8Symbol(isolate, name);
  function->SetName(key);
  // A data property, as an object literal would make it: API `Set` counts as a
  // keyed store, and V8 turns an object to dictionary mode after 16 of those,
  // so every host.* call from JS was a hash lookup.
  target->CreateDataProperty(context, key, function).Check();
}

// SetMethod() for a function with a V8 fast API call `fast` beside the
// regular `callback` (see HostFunction::fast).
inline void SetFastMethod(v8::Local<v8::Context> context, v8::Local<v8::Object> target,
                          std::string_view name, v8::FunctionCallback callback,
                          const v8::CFunction* fast) {
  v8::Isolate* isolate = context->GetIsolate();
  v8::Local<v8::Function> function =
      v8::FunctionTemplate::New(isolate, callback, v8::Local<v8::Value>(),
                                v8::Local<v8::Signature>(), 0, v8::ConstructorBehavior::kThrow,
                                v8::SideEffectType::kHasSideEffect, fast)
          ->GetFunction(context)
          .ToLocalChecked();
  v8::Local<v8::String> key = V8Symbol(isolate, name);
  function->SetName(key);
  target->CreateDataProperty(context, key, function).Check();
}

// A handle made strong or weak as its owner's state changes: Set(strong)
// clears or sets the weak callback (`callback(parameter)` when the object is
// collected) only when that changes; nothing once the handle is empty.
template <typename T>
class StrongWhile {
 public:
  using Callback = typename v8::WeakCallbackInfo<T>::Callback;
  StrongWhile(v8::Global<v8::Object>* handle, T* parameter, Callback callback)
      : handle_(handle), parameter_(parameter), callback_(callback) {}
  // The handle's initial state: weak.
  void MakeWeak() {
    strong_ = false;
    handle_->SetWeak(parameter_, callback_, v8::WeakCallbackType::kParameter);
  }
  void Set(bool strong) {
    if (strong == strong_ || handle_->IsEmpty()) return;
    strong_ = strong;
    if (strong) {
      handle_->ClearWeak();
    } else {
      handle_->SetWeak(parameter_, callback_, v8::WeakCallbackType::kParameter);
    }
  }

 private:
  v8::Global<v8::Object>* const handle_;
  T* const parameter_;
  const Callback callback_;
  bool strong_ = false;
};

}  // namespace hostloop::runtime
