'use strict';
// TextEncoder and TextDecoder (UTF-8, plus UTF-16LE decoding).
// https://encoding.spec.whatwg.org/#interface-textencoder
// https://encoding.spec.whatwg.org/#interface-textdecoder

const TypeError = global.TypeError;
const RangeError = global.RangeError;
const ObjectDefineProperty = Object.defineProperty;
const Uint8ArrayCtor = Uint8Array;
const StringFromCharCode = String.fromCharCode;

// https://encoding.spec.whatwg.org/#names-and-labels (the supported subset)
const kLabels = new Map([
  ['unicode-1-1-utf-8', 'utf-8'], ['unicode11utf8', 'utf-8'], ['unicode20utf8', 'utf-8'],
  ['utf-8', 'utf-8'], ['utf8', 'utf-8'], ['x-unicode20utf8', 'utf-8'],
  ['csunicode', 'utf-16le'], ['iso-10646-ucs-2', 'utf-16le'], ['ucs-2', 'utf-16le'],
  ['unicode', 'utf-16le'], ['unicodefeff', 'utf-16le'], ['utf-16', 'utf-16le'], ['utf-16le', 'utf-16le'],
]);

// WebIDL "get a copy of the bytes held by the buffer source": a detached
// buffer (or a view on one) holds no bytes, which decode as "" (making a
// view on it threw).
function bytesOf(input) {
  if (ArrayBuffer.isView(input)) {
    if (input.byteLength === 0) return new Uint8ArrayCtor(0);
    return new Uint8ArrayCtor(input.buffer, input.byteOffset, input.byteLength);
  }
  if (input instanceof ArrayBuffer || (typeof SharedArrayBuffer === 'function' && input instanceof SharedArrayBuffer)) {
    if (input.byteLength === 0) return new Uint8ArrayCtor(0);
    return new Uint8ArrayCtor(input);
  }
  throw new TypeError("Failed to execute 'decode' on 'TextDecoder': The provided value is not of type '(ArrayBuffer or ArrayBufferView)'.");
}

class TextEncoder {
  get encoding() { return 'utf-8'; }
  encode(input = '') {
    return host.utf8Encode(`${input}`);
  }
  encodeInto(source, destination) {
    if (!(destination instanceof Uint8ArrayCtor)) {
      throw new TypeError("Failed to execute 'encodeInto' on 'TextEncoder': parameter 2 is not of type 'Uint8Array'.");
    }
    const [read, written] = host.utf8EncodeInto(`${source}`, destination);
    return { read, written };
  }
}

class TextDecoder {
  #encoding;
  #fatal;
  #ignoreBOM;
  #pending = null;      // bytes of an incomplete sequence (streaming)
  #bomSeen = false;
  constructor(label = 'utf-8', options = undefined) {
    const name = kLabels.get(`${label}`.trim().toLowerCase());
    if (name === undefined) {
      throw new RangeError(`Failed to construct 'TextDecoder': The encoding label provided ('${label}') is invalid.`);
    }
    this.#encoding = name;
    this.#fatal = Boolean(options?.fatal);
    this.#ignoreBOM = Boolean(options?.ignoreBOM);
  }
  get encoding() { return this.#encoding; }
  get fatal() { return this.#fatal; }
  get ignoreBOM() { return this.#ignoreBOM; }
  decode(input = undefined, options = undefined) {
    const stream = Boolean(options?.stream);
    let bytes = input === undefined ? new Uint8ArrayCtor(0) : bytesOf(input);
    if (this.#pending !== null) {
      const joined = new Uint8ArrayCtor(this.#pending.length + bytes.length);
      joined.set(this.#pending);
      joined.set(bytes, this.#pending.length);
      bytes = joined;
      this.#pending = null;
    }
    let text;
    let consumed;
    if (this.#encoding === 'utf-8') {
      try {
        [text, consumed] = host.utf8Decode(bytes, this.#fatal, stream);
      } catch (error) {
        this.#bomSeen = false;
        throw error;
      }
    } else {
      [text, consumed] = decodeUtf16le(bytes, this.#fatal, stream);
    }
    if (consumed < bytes.length) this.#pending = bytes.slice(consumed);
    // https://encoding.spec.whatwg.org/#concept-td-serialize: the BOM goes
    // once per stream unless ignoreBOM.
    if (!this.#ignoreBOM && !this.#bomSeen && text.length > 0) {
      this.#bomSeen = true;
      if (text.charCodeAt(0) === 0xFEFF) text = text.slice(1);
    }
    if (!stream) {
      this.#bomSeen = false;
      if (this.#pending !== null) {
        this.#pending = null;
        if (this.#fatal) throw new TypeError("Failed to execute 'decode' on 'TextDecoder': The encoded data was not valid.");
        text += '\uFFFD';
      }
    }
    return text;
  }
}

// https://encoding.spec.whatwg.org/#shared-utf-16-decoder (little-endian):
// a surrogate pair is one code point, a lone surrogate is an error (U+FFFD,
// or a TypeError when fatal). While streaming, an odd last byte and a lead
// surrogate at the end wait for the next chunk. Returns [text, bytes used].
function decodeUtf16le(bytes, fatal, stream) {
  const invalid = () => {
    if (fatal) throw new TypeError("Failed to execute 'decode' on 'TextDecoder': The encoded data was not valid.");
    return '\uFFFD';
  };
  const pairs = bytes.length & ~1;
  let out = '';
  let i = 0;
  while (i < pairs) {
    const unit = bytes[i] | (bytes[i + 1] << 8);
    if (unit < 0xD800 || unit > 0xDFFF) {
      out += StringFromCharCode(unit);
      i += 2;
      continue;
    }
    if (unit >= 0xDC00) {  // a trail surrogate with no lead
      out += invalid();
      i += 2;
      continue;
    }
    // A lead surrogate: its trail is the next unit.
    if (i + 3 >= bytes.length) {
      if (stream) break;  // wait for the rest
      out += invalid();
      i += 2;
      continue;
    }
    const next = bytes[i + 2] | (bytes[i + 3] << 8);
    if (next >= 0xDC00 && next <= 0xDFFF) {
      out += StringFromCharCode(unit, next);
      i += 4;
    } else {
      out += invalid();  // the next unit is decoded on its own
      i += 2;
    }
  }
  if (!stream && i < bytes.length) {
    out += invalid();  // an odd last byte
    i = bytes.length;
  }
  return [out, i];
}

for (const [ctor, getters] of [[TextEncoder, ['encoding']], [TextDecoder, ['encoding', 'fatal', 'ignoreBOM']]]) {
  ObjectDefineProperty(ctor.prototype, Symbol.toStringTag, { value: ctor.name, configurable: true });
  for (const name of getters) {
    const descriptor = Object.getOwnPropertyDescriptor(ctor.prototype, name);
    descriptor.enumerable = true;
    ObjectDefineProperty(ctor.prototype, name, descriptor);
  }
  ObjectDefineProperty(global, ctor.name, { value: ctor, writable: true, configurable: true, enumerable: false });
}
