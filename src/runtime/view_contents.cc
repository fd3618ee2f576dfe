#include "runtime/view_contents.h"

#include <algorithm>

#include "runtime/runtime.h"

namespace hostloop::runtime {
namespace {

// internals.resizableRange's kinds.
enum class RangeKind { kTypedArray = 0, kDataView = 1, kBuffer = 2 };

// Asks internals.resizableRange about `value`: false with an exception
// pending; else `contents` gets the range when the buffer is resizable.
bool AskResizableRange(Runtime* runtime, v8::Local<v8::Value> value, RangeKind kind, bool shared,
                       ViewContents* contents) {
  v8::Isolate* isolate = runtime->isolate();
  v8::Local<v8::Context> context = runtime->context();
  v8::Local<v8::Function> resizable_range;
  if (!runtime->InternalFunction("resizableRange").ToLocal(&resizable_range)) return true;
  v8::Local<v8::Value> argv[] = {value, v8::Integer::New(isolate, static_cast<int>(kind)),
                                 v8::Boolean::New(isolate, shared)};
  v8::Local<v8::Value> range;
  if (!resizable_range->Call(context, v8::Undefined(isolate), 3, argv).ToLocal(&range)) {
    return false;
  }
  if (!range->IsArray()) return true;
  v8::Local<v8::Value> offset;
  v8::Local<v8::Value> length;
  if (!range.As<v8::Array>()->Get(context, 0).ToLocal(&offset) ||
      !range.As<v8::Array>()->Get(context, 1).ToLocal(&length)) {
    return false;
  }
  contents->resizable = true;
  // (Clamped to the store, which only V8 resizes: a getter's answer must
  // never reach past the bytes there are.)
  const std::size_t size = contents->store->ByteLength();
  contents->offset = std::min(static_cast<std::size_t>(offset.As<v8::Number>()->Value()), size);
  contents->length =
      std::min(static_cast<std::size_t>(length.As<v8::Number>()->Value()), size - contents->offset);
  return true;
}

}  // namespace

v8::Maybe<bool> GetViewContents(Runtime* runtime, v8::Local<v8::Value> value,
                                ViewContents* contents) {
  *contents = ViewContents();
  RangeKind kind;
  bool shared;
  if (value->IsArrayBufferView()) {
    v8::Local<v8::ArrayBufferView> view = value.As<v8::ArrayBufferView>();
    // (A view's Buffer() is typed ArrayBuffer even over shared memory.)
    v8::Local<v8::ArrayBuffer> buffer = view->Buffer();
    contents->store = buffer->GetBackingStore();
    contents->offset = view->ByteOffset();
    contents->length = view->ByteLength();
    kind = value->IsDataView() ? RangeKind::kDataView : RangeKind::kTypedArray;
    shared = buffer->IsSharedArrayBuffer();
  } else if (value->IsArrayBuffer()) {
    contents->store = value.As<v8::ArrayBuffer>()->GetBackingStore();
    contents->length = contents->store->ByteLength();
    kind = RangeKind::kBuffer;
    shared = false;
  } else if (value->IsSharedArrayBuffer()) {
    contents->store = value.As<v8::SharedArrayBuffer>()->GetBackingStore();
    contents->length = contents->store->ByteLength();
    kind = RangeKind::kBuffer;
    shared = true;
  } else {
    return v8::Just(false);
  }
  // Without resizable buffers in the realm (no V8 flag made them), the
  // API's answer is the answer, at no extra cost.
  if (runtime->resizable_buffers() && !AskResizableRange(runtime, value, kind, shared, contents)) {
    return v8::Nothing<bool>();
  }
  return v8::Just(true);
}

}  // namespace hostloop::runtime
