// The bytes of an ArrayBuffer, a SharedArrayBuffer or a view on one, as the
// natives that read or fill them (TextDecoder, encodeInto, getRandomValues,
// hostloop:fs writes) must see them: also for resizable ArrayBuffers and
// growable SharedArrayBuffers (--v8-flags=--harmony-rab-gsab), which V8
// 10.2's C++ API predates (js/bootstrap.js, internals.resizableRange).
#pragma once

#include <v8.h>

#include <cstddef>
#include <cstdint>
#include <memory>

namespace hostloop::runtime {

class Runtime;

struct ViewContents {
  // Keeps the bytes alive (a write pending on the thread pool holds it).
  std::shared_ptr<v8::BackingStore> store;
  std::size_t offset = 0;
  std::size_t length = 0;
  // The buffer can change its length: a Uint8Array made over it through the
  // API would break V8's invariants.
  bool resizable = false;

  uint8_t* data() const { return static_cast<uint8_t*>(store->Data()) + offset; }
};

// Fills `contents` for `value` (an ArrayBuffer, SharedArrayBuffer or
// ArrayBufferView): Just(true). Just(false) when `value` is none of them;
// Nothing with an exception pending (a stack overflow, a termination).
v8::Maybe<bool> GetViewContents(Runtime* runtime, v8::Local<v8::Value> value,
                                ViewContents* contents);

}  // namespace hostloop::runtime
