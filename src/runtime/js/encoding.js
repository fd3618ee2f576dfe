'use strict';
// TextEncoder and TextDecoder (UTF-8, plus UTF-16LE, UTF-16BE and windows-1252
// decoding).
// https://encoding.spec.whatwg.org/#interface-textencoder
// https://encoding.spec.whatwg.org/#interface-textdecoder

const TypeError = global.TypeError;
const ReflectApply = Reflect.apply;
const RangeError = global.RangeError;
const ObjectDefineProperty = Object.defineProperty;
const Uint8ArrayCtor = Uint8Array;
const isUint8Array = (value) => internals.typedArrayName(value) === 'Uint8Array';
const StringFromCharCode = String.fromCharCode;

// https://encoding.spec.whatwg.org/#names-and-labels (the supported subset)
const kLabels = new Map([
  ['unicode-1-1-utf-8', 'utf-8'], ['unicode11utf8', 'utf-8'], ['unicode20utf8', 'utf-8'],
  ['utf-8', 'utf-8'], ['utf8', 'utf-8'], ['x-unicode20utf8', 'utf-8'],
  ['csunicode', 'utf-16le'], ['iso-10646-ucs-2', 'utf-16le'], ['ucs-2', 'utf-16le'],
  ['unicode', 'utf-16le'], ['unicodefeff', 'utf-16le'], ['utf-16', 'utf-16le'], ['utf-16le', 'utf-16le'],
  ['unicodefffe', 'utf-16be'], ['utf-16be', 'utf-16be'],
  // "latin1", "ascii" and friends all mean windows-1252 on the web.
  ['ansi_x3.4-1968', 'windows-1252'], ['ascii', 'windows-1252'], ['cp1252', 'windows-1252'],
  ['cp819', 'windows-1252'], ['csisolatin1', 'windows-1252'], ['ibm819', 'windows-1252'],
  ['iso-8859-1', 'windows-1252'], ['iso-ir-100', 'windows-1252'], ['iso8859-1', 'windows-1252'],
  ['iso88591', 'windows-1252'], ['iso_8859-1', 'windows-1252'], ['iso_8859-1:1987', 'windows-1252'],
  ['l1', 'windows-1252'], ['latin1', 'windows-1252'], ['us-ascii', 'windows-1252'],
  ['windows-1252', 'windows-1252'], ['x-cp1252', 'windows-1252'],
]);

// https://encoding.spec.whatwg.org/index-windows-1252.txt: bytes 0x80-0x9F
// (every other byte is the code point of the same value).
const kWindows1252High = [
  0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
  0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
];

const ArrayPrototypeJoin = Array.prototype.join;

// The first `length` code units of a typed array as a string, built in
// chunks: one fromCharCode per 8K units, not per unit.
function codeUnitsToString(units, length) {
  const chunks = [];
  for (let i = 0; i < length; i += 8192) {
    chunks[chunks.length] = ReflectApply(StringFromCharCode, null, units.subarray(i, Math.min(i + 8192, length)));
  }
  return ReflectApply(ArrayPrototypeJoin, chunks, ['']);
}

// https://encoding.spec.whatwg.org/#single-byte-decoder for windows-1252:
// every byte is one code point, so there is never an error or a pending byte.
function decodeWindows1252(bytes) {
  const units = new Uint16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    units[i] = byte >= 0x80 && byte < 0xA0 ? kWindows1252High[byte - 0x80] : byte;
  }
  return codeUnitsToString(units, units.length);
}

// WebIDL "get a copy of the bytes held by the buffer source": a detached
// buffer (or a view on one) holds no bytes, which decode as "" (making a
// view on it threw).
function trimAsciiWhitespace(text) {
  let start = 0;
  let end = text.length;
  const isSpace = (c) => c === 0x09 || c === 0x0A || c === 0x0C || c === 0x0D || c === 0x20;
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

function bytesOf(input) {
  // The bytes from the internal slots ([[ViewedArrayBuffer]], [[ByteOffset]],
  // [[ByteLength]]): redefined byteOffset/byteLength/buffer properties and
  // prototypes do not matter; a detached buffer has no bytes.
  const bytes = host.viewBytes(input);
  if (bytes === undefined) {
    throw new TypeError("Failed to execute 'decode' on 'TextDecoder': The provided value is not of type '(ArrayBuffer or ArrayBufferView)'.");
  }
  return bytes;
}

class TextEncoder {
  // The brand: TextEncoder's operations work on TextEncoder objects only.
  #encoder = true;
  static #check(value, what) {
    if (typeof value !== 'object' || value === null || !(#encoder in value)) {
      throw new TypeError(`Failed to execute '${what}' on 'TextEncoder': Illegal invocation`);
    }
  }
  get encoding() {
    TextEncoder.#check(this, 'encoding');
    return 'utf-8';
  }
  encode(input = '') {
    TextEncoder.#check(this, 'encode');
    return host.utf8Encode(`${input}`);
  }
  encodeInto(source, destination) {
    TextEncoder.#check(this, 'encodeInto');
    if (arguments.length < 2) {
      throw new TypeError(`Failed to execute 'encodeInto' on 'TextEncoder': 2 arguments required, but only ${arguments.length} present.`);
    }
    source = `${source}`;
    // [AllowShared] Uint8Array: the brand, not the prototype chain.
    if (!isUint8Array(destination)) {
      throw new TypeError("Failed to execute 'encodeInto' on 'TextEncoder': parameter 2 is not of type 'Uint8Array'.");
    }
    const [read, written] = host.utf8EncodeInto(source, destination);
    return { read, written };
  }
}

class TextDecoder {
  #encoding;
  #fatal;
  #ignoreBOM;
  #pending = null;      // bytes of an incomplete sequence (streaming)
  #bomSeen = false;
  #doNotFlush = false;  // the last decode() was a stream: true one
  constructor(label = 'utf-8', options = undefined) {
    // https://encoding.spec.whatwg.org/#concept-encoding-get: ASCII
    // whitespace around the label goes (not other Unicode spaces).
    const name = kLabels.get(trimAsciiWhitespace(`${label}`).toLowerCase());
    if (name === undefined) {
      throw new RangeError(`Failed to construct 'TextDecoder': The encoding label provided ('${label}') is invalid.`);
    }
    this.#encoding = name;
    // TextDecoderOptions, a WebIDL dictionary: members in order, converted
    // as read; a non-object is a TypeError.
    if (options !== undefined && options !== null && typeof options !== 'object' && typeof options !== 'function') {
      throw new TypeError("Failed to construct 'TextDecoder': The provided value is not of type 'TextDecoderOptions'.");
    }
    this.#fatal = options == null ? false : Boolean(options.fatal);
    this.#ignoreBOM = options == null ? false : Boolean(options.ignoreBOM);
  }
  get encoding() { return this.#encoding; }
  get fatal() { return this.#fatal; }
  get ignoreBOM() { return this.#ignoreBOM; }
  decode(input = undefined, options = undefined) {
    // The arguments convert in order: the buffer, then TextDecodeOptions.
    let bytes = input === undefined ? new Uint8ArrayCtor(0) : bytesOf(input);
    if (options !== undefined && options !== null && typeof options !== 'object' && typeof options !== 'function') {
      throw new TypeError("Failed to execute 'decode' on 'TextDecoder': The provided value is not of type 'TextDecodeOptions'.");
    }
    const stream = options == null ? false : Boolean(options.stream);
    // Steps 1-2 of decode(): a call after one without `stream` (even one
    // that threw) starts a new stream; after a stream: true one (even one
    // that threw) the BOM state goes on.
    if (!this.#doNotFlush) {
      this.#bomSeen = false;
      this.#pending = null;
    }
    this.#doNotFlush = stream;
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
      const decoded = host.utf8Decode(bytes, this.#fatal, stream);
      if (typeof decoded === 'string') {
        text = decoded;
        consumed = bytes.length;
      } else {
        text = decoded[0];
        consumed = decoded[1];
      }
    } else if (this.#encoding === 'windows-1252') {
      text = decodeWindows1252(bytes);
      consumed = bytes.length;
    } else {
      [text, consumed] = decodeUtf16(bytes, this.#fatal, stream, this.#encoding === 'utf-16be');
    }
    if (consumed < bytes.length) this.#pending = bytes.slice(consumed);
    // https://encoding.spec.whatwg.org/#concept-td-serialize: the BOM goes
    // once per stream unless ignoreBOM (UTF-8 and UTF-16 only).
    if (!this.#ignoreBOM && !this.#bomSeen && text.length > 0 && this.#encoding !== 'windows-1252') {
      this.#bomSeen = true;
      if (text.charCodeAt(0) === 0xFEFF) text = text.slice(1);
    }
    if (!stream) {
      if (this.#pending !== null) {
        this.#pending = null;
        if (this.#fatal) throw new TypeError("Failed to execute 'decode' on 'TextDecoder': The encoded data was not valid.");
        text += '\uFFFD';
      }
    }
    return text;
  }
}

// https://encoding.spec.whatwg.org/#shared-utf-16-decoder (little- or
// big-endian): a surrogate pair is one code point, a lone surrogate is an
// error (U+FFFD, or a TypeError when fatal). While streaming, an odd last
// byte and a lead surrogate at the end wait for the next chunk. Returns
// [text, bytes used].
function decodeUtf16(bytes, fatal, stream, bigEndian) {
  const invalid = () => {
    if (fatal) throw new TypeError("Failed to execute 'decode' on 'TextDecoder': The encoded data was not valid.");
    return '\uFFFD';
  };
  const unitAt = bigEndian
    ? (at) => (bytes[at] << 8) | bytes[at + 1]
    : (at) => bytes[at] | (bytes[at + 1] << 8);
  const pairs = bytes.length & ~1;
  let out = '';
  let i = 0;
  while (i < pairs) {
    const unit = unitAt(i);
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
      // The end of the input with a lead surrogate (and perhaps an odd
      // byte) pending: one error for both.
      out += invalid();
      i = bytes.length;
      break;
    }
    const next = unitAt(i + 2);
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
  internals.defineInspect(ctor, getters);
  ObjectDefineProperty(ctor.prototype, Symbol.toStringTag, { value: ctor.name, configurable: true });
  for (const name of getters) {
    const descriptor = Object.getOwnPropertyDescriptor(ctor.prototype, name);
    descriptor.enumerable = true;
    ObjectDefineProperty(ctor.prototype, name, descriptor);
  }
  ObjectDefineProperty(global, ctor.name, { value: ctor, writable: true, configurable: true, enumerable: false });
}

// ---------------------------------------------------------------------------
// atob and btoa: https://html.spec.whatwg.org/multipage/webappapis.html#atob
// (forgiving-base64, https://infra.spec.whatwg.org/#forgiving-base64)
// ---------------------------------------------------------------------------

function invalidCharacter(message) {
  return new global.DOMException(message, 'InvalidCharacterError');
}

// The base64 itself is native (encoding.cc): in JS, per character, it took
// 30-40x node's time.
function btoa(data) {
  if (arguments.length < 1) {
    throw new TypeError("Failed to execute 'btoa': 1 argument required, but only 0 present.");
  }
  const encoded = host.base64Encode(`${data}`);
  if (encoded === undefined) {
    throw invalidCharacter("Failed to execute 'btoa': The string to be encoded contains characters outside of the Latin1 range.");
  }
  return encoded;
}

function atob(data) {
  if (arguments.length < 1) {
    throw new TypeError("Failed to execute 'atob': 1 argument required, but only 0 present.");
  }
  const decoded = host.base64Decode(`${data}`);
  if (decoded === undefined) {
    throw invalidCharacter("Failed to execute 'atob': The string to be decoded is not correctly encoded.");
  }
  return decoded;
}

for (const [name, fn] of [['atob', atob], ['btoa', btoa]]) {
  ObjectDefineProperty(global, name, { value: fn, writable: true, configurable: true, enumerable: true });
}
