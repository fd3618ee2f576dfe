// The entry point of hostloop's internal script url.js: the WHATWG URL
// Standard's `URL` and `URLSearchParams` (https://url.spec.whatwg.org/), from
// the whatwg-url package (the reference implementation used by jsdom),
// bundled by esbuild at build time (js_deps/build_url.sh).
//
// The bundle runs inside the realm, at build time, before the realm is
// captured in the startup snapshot: nothing from node exists there, and the
// realm has no TextEncoder/TextDecoder at this point. whatwg-url needs them
// for UTF-8 (lib/encoding.js makes one of each when it is loaded), so this
// file also exports a small UTF-8-only TextEncoder and TextDecoder that
// build_url.sh hands to esbuild as `inject`: every free `TextEncoder` /
// `TextDecoder` in the bundled packages is bound to these, and they are never
// exposed on the global object.
//
// whatwg-url is required lazily, from install(), so that its modules run
// after the classes below are initialized.
//
// tr46 (UTS #46 domain processing, with its 9,000-entry mapping table) is
// bundled but loaded on first use: build_url.sh aliases the package `tr46`
// to this file, whose toASCII/toUnicode load the real module when first
// needed. Kept eager, its table would be ~1.1 MB of the startup snapshot that
// every hostloop process deserializes; lazy, only a program that parses a URL
// whose host is not plain ASCII (or has an "xn--" label) pays for it (about
// 10 ms, once): see toASCII below.

// https://encoding.spec.whatwg.org/#utf-8-encoder: lone surrogates become
// U+FFFD, as TextEncoder's USVString conversion does.
export class TextEncoder {
  get encoding() {
    return 'utf-8';
  }

  encode(input = '') {
    const string = `${input}`;
    const length = string.length;
    // whatwg-url encodes each code point of a path, query or fragment on its
    // own, and only reads the bytes it gets: one shared array per ASCII
    // character saves an allocation and a copy per character.
    if (length === 1) {
      const c = string.charCodeAt(0);
      if (c < 0x80) return asciiBytes[c];
    }
    // V8 keeps a typed array's bytes on its heap only from 1 to 64 bytes:
    // an empty one, or a larger one, is a malloc'd, zeroed backing store,
    // ~250 ns at least (the empty query of every new URL paid it twice, with
    // the copy below). An empty string gets one shared empty array, and an
    // ASCII string an array of its exact length, filled without a copy.
    if (length === 0) return emptyBytes;
    let ascii = true;
    for (let i = 0; i < length; i++) {
      if (string.charCodeAt(i) >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii) {
      const bytes = new Uint8Array(length);
      for (let i = 0; i < length; i++) bytes[i] = string.charCodeAt(i);
      return bytes;
    }
    const bytes = new Uint8Array(length * 3);
    let n = 0;
    for (let i = 0; i < length; i++) {
      let c = string.charCodeAt(i);
      if (c < 0x80) {
        bytes[n++] = c;
        continue;
      }
      if (c >= 0xd800 && c <= 0xdfff) {
        const next = i + 1 < length ? string.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          i++;
        } else {
          c = 0xfffd;
        }
      }
      if (c < 0x800) {
        bytes[n++] = 0xc0 | (c >> 6);
      } else if (c < 0x10000) {
        bytes[n++] = 0xe0 | (c >> 12);
        bytes[n++] = 0x80 | ((c >> 6) & 0x3f);
      } else {
        bytes[n++] = 0xf0 | (c >> 18);
        bytes[n++] = 0x80 | ((c >> 12) & 0x3f);
        bytes[n++] = 0x80 | ((c >> 6) & 0x3f);
      }
      bytes[n++] = 0x80 | (c & 0x3f);
    }
    return bytes.slice(0, n);
  }
}

const asciiBytes = Array.from({ length: 0x80 }, (_, c) => Uint8Array.of(c));
// (Nobody writes to what encode() returns: whatwg-url only reads it.)
const emptyBytes = new Uint8Array(0);

// https://encoding.spec.whatwg.org/#utf-8-decoder, non-fatal: each maximal
// ill-formed subsequence becomes one U+FFFD. whatwg-url always asks for
// { ignoreBOM: true }; without it a leading BOM is dropped, as in the spec.
export class TextDecoder {
  #ignoreBOM;

  constructor(label = 'utf-8', options = {}) {
    const name = `${label}`.trim().toLowerCase();
    if (name !== 'utf-8' && name !== 'utf8' && name !== 'unicode-1-1-utf-8') {
      throw new RangeError(`The encoding label provided ('${label}') is not supported here.`);
    }
    this.#ignoreBOM = Boolean(options && options.ignoreBOM);
  }

  get encoding() {
    return 'utf-8';
  }

  decode(input = new Uint8Array(0)) {
    // A Uint8Array (what whatwg-url always passes) is read as it is: asking
    // a small array for its .buffer makes V8 move it off the heap, a malloc.
    const bytes = input instanceof Uint8Array ? input
      : ArrayBuffer.isView(input) ? new Uint8Array(input.buffer, input.byteOffset, input.byteLength)
        : new Uint8Array(input);
    let out = '';
    const units = [];
    const emit = (cp) => {
      if (cp < 0x10000) {
        units.push(cp);
      } else {
        cp -= 0x10000;
        units.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
      }
      if (units.length >= 8192) {
        out += String.fromCharCode.apply(null, units);
        units.length = 0;
      }
    };
    let codePoint = 0;
    let bytesSeen = 0;
    let bytesNeeded = 0;
    let lower = 0x80;
    let upper = 0xbf;
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i];
      if (bytesNeeded === 0) {
        if (byte <= 0x7f) {
          emit(byte);
        } else if (byte >= 0xc2 && byte <= 0xdf) {
          bytesNeeded = 1;
          codePoint = byte & 0x1f;
        } else if (byte >= 0xe0 && byte <= 0xef) {
          if (byte === 0xe0) lower = 0xa0;
          if (byte === 0xed) upper = 0x9f;
          bytesNeeded = 2;
          codePoint = byte & 0xf;
        } else if (byte >= 0xf0 && byte <= 0xf4) {
          if (byte === 0xf0) lower = 0x90;
          if (byte === 0xf4) upper = 0x8f;
          bytesNeeded = 3;
          codePoint = byte & 0x7;
        } else {
          emit(0xfffd);
        }
        continue;
      }
      if (byte < lower || byte > upper) {
        // The byte is not consumed: it starts the next sequence.
        codePoint = bytesNeeded = bytesSeen = 0;
        lower = 0x80;
        upper = 0xbf;
        emit(0xfffd);
        i--;
        continue;
      }
      lower = 0x80;
      upper = 0xbf;
      codePoint = (codePoint << 6) | (byte & 0x3f);
      if (++bytesSeen === bytesNeeded) {
        emit(codePoint);
        codePoint = bytesNeeded = bytesSeen = 0;
      }
    }
    if (bytesNeeded !== 0) emit(0xfffd);
    out += String.fromCharCode.apply(null, units);
    if (!this.#ignoreBOM && out.charCodeAt(0) === 0xfeff) out = out.slice(1);
    return out;
  }
}

let tr46;
function loadTR46() {
  // A relative path: the alias maps only the bare package name `tr46`.
  // eslint-disable-next-line no-undef -- esbuild bundles this require.
  tr46 ??= require('./node_modules/tr46/index.js');
  return tr46;
}

// https://url.spec.whatwg.org/#concept-domain-to-ascii, step 1's note: when
// beStrict is false, an ASCII domain none of whose labels starts with "xn--"
// (ASCII case-insensitively) comes out of Unicode ToASCII ASCII-lowercased.
// Such a domain (nearly every URL's) then neither loads tr46 nor walks its
// mapping table; tests/js/url_ascii_domain.mjs compares both paths.
export function toASCII(domainName, options) {
  if (isPlainASCIIDomain(domainName, options)) return asciiLowercase(domainName);
  return loadTR46().toASCII(domainName, options);
}

function isPlainASCIIDomain(domainName, options) {
  return !options.useSTD3ASCIIRules && !options.verifyDNSLength && !options.checkHyphens &&
    !options.transitionalProcessing && /^[\x00-\x7f]*$/.test(domainName) &&
    !/(?:^|\.)xn--/i.test(domainName);
}

// (For an ASCII string, toLowerCase() is ASCII lowercase.)
function asciiLowercase(string) {
  return string.toLowerCase();
}


export function toUnicode(domainName, options) {
  return loadTR46().toUnicode(domainName, options);
}

// hostloop's console (runtime/js/inspect.js) honors this symbol, as node's
// util.inspect does.
const inspectCustom = Symbol.for('nodejs.util.inspect.custom');

function defineHidden(object, key, value) {
  Object.defineProperty(object, key, { value, writable: true, enumerable: false, configurable: true });
}

// console.log(url) shows the URL's parts, and console.log(params) its
// entries, as node does.
function addInspectHooks(URL, URLSearchParams) {
  const urlKeys = ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname',
    'port', 'pathname', 'search', 'searchParams', 'hash'];
  defineHidden(URL.prototype, inspectCustom, function inspectURL(depth, options, inspect) {
    if (typeof depth === 'number' && depth < 0) return '[URL]';
    const parts = {};
    try {
      for (const key of urlKeys) parts[key] = this[key];
    } catch {
      // Not a URL (Object.create(URL.prototype)): its getters throw.
      return 'URL {}';
    }
    return `URL ${inspect(parts, options)}`;
  });
  defineHidden(URLSearchParams.prototype, inspectCustom, function inspectParams(depth, options, inspect) {
    if (typeof depth === 'number' && depth < 0) return '[URLSearchParams]';
    const entries = [];
    let pairs;
    try {
      pairs = [...this];
    } catch {
      return 'URLSearchParams {}';  // not a URLSearchParams: its iterator throws
    }
    for (const [name, value] of pairs) entries.push(`${inspect(name, options)} => ${inspect(value, options)}`);
    if (entries.length === 0) return 'URLSearchParams {}';
    const oneLine = `URLSearchParams { ${entries.join(', ')} }`;
    if (oneLine.length <= 80) return oneLine;
    return `URLSearchParams {\n  ${entries.join(',\n  ')} }`;
  });
}

// https://url.spec.whatwg.org/#dom-url-parse. whatwg-url 14.2.0's URL.parse
// returns its internal implementation object, not a URL (fixed upstream in
// 16.0.1, "Fix URL.parse() instanceof URL", whose dependencies need a newer
// V8). This one converts the arguments as the generated code does (ToString:
// a symbol throws), then constructs a real URL; only a parse failure gives
// null. The property keeps its WebIDL attributes; only the value changes.
function fixURLParse(URL) {
  const { parse } = {
    parse(url, base = undefined) {
      if (arguments.length < 1) {
        throw new TypeError("Failed to execute 'parse' on 'URL': 1 argument required, but only 0 present.");
      }
      const input = `${url}`;
      const baseInput = base === undefined ? undefined : `${base}`;
      try {
        return new URL(input, baseInput);
      } catch (error) {
        if (error instanceof TypeError) return null;
        throw error;
      }
    },
  };
  Object.defineProperty(URL, 'parse', { value: parse });
}

// Defines `URL` and `URLSearchParams` on `global` like WebIDL interface
// objects: writable, configurable, not enumerable.
export function install(global) {
  // eslint-disable-next-line no-undef -- esbuild bundles this require.
  const { URL, URLSearchParams } = require('whatwg-url/webidl2js-wrapper');
  // whatwg-url's generated code takes what it needs (TypeError for its
  // errors, Object.prototype, the iterator prototypes) from the object it is
  // installed on. This file runs in the realm, so these are the realm's own
  // intrinsics; a private object keeps whatwg-url's constructor registry
  // (a symbol-keyed property) off the real global.
  const interfaces = { Array, Object, Promise, String, TypeError };
  URL.install(interfaces, ['Worker']);
  URLSearchParams.install(interfaces, ['Worker']);
  fixURLParse(interfaces.URL);
  addInspectHooks(interfaces.URL, interfaces.URLSearchParams);
  defineHidden(global, 'URL', interfaces.URL);
  defineHidden(global, 'URLSearchParams', interfaces.URLSearchParams);
  warmUp(interfaces.URL);
}

// install() runs while the startup snapshot is made, which keeps the bytecode
// of every function compiled by then: parsing a few URLs here compiles the
// parser's common paths once, at build time, instead of in the first
// `new URL(...)` of every program (a few ms of lazy compilation). Nothing
// else of these calls stays behind. They go through whatwg-url's parser,
// then through the fast path (below), which afterwards asks again, at run
// time, whether Ada is there.
function warmUp(URL) {
  adaAvailable = false;
  warmUpWith(URL);
  adaAvailable = undefined;
  warmUpWith(URL);
  adaAvailable = undefined;
  adaOffsets = null;
}

function warmUpWith(URL) {
  const base = new URL('file:///home/user/project/main.mjs');
  for (const input of ['./worker.mjs', 'https://user:pw@www.Example.com:8080/a/../b/c.html?q=1&r=%20#frag',
    'http://127.0.0.1/', 'data:text/plain,x', 'blob:null/x']) {
    const url = new URL(input, base);
    for (const key of ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port',
      'pathname', 'search', 'hash']) {
      void url[key];  // eslint-disable-line no-void
    }
    void [...url.searchParams];  // eslint-disable-line no-void
  }
}

// ---------------------------------------------------------------------------
// The URL constructor's fast path: Ada's parser (native, the one node uses;
// src/runtime/url_parser.cc) instead of whatwg-url's state machine, which
// walks the input a code point at a time in JS (~1.3 us for
// "http://a/b", ~5 us for a 60-character URL). Ada returns the serialized URL
// and the offsets of its parts; buildURLRecord builds from them, when the
// URL's record is first read, the record whatwg-url's own parser would have
// made, and the rest of whatwg-url (getters, setters, searchParams) works on
// it as on any other.
//
// Only inputs made of URL-safe ASCII characters, without "xn--", take it
// (the native side checks: FastPathAllows in src/runtime/url_parser.h):
// they leave out what the URL Standard changed since libnode108's Ada was
// released (spaces before a query or fragment of an opaque path, "^" in a
// path, ...), whatever needs percent-encoding or IDNA, and "xn--" labels
// (punycode validation). Everything else, and every input Ada rejects
// (whatwg-url then throws its own error), goes through whatwg-url.
// tests/js/url_fast_path.mjs compares the two parsers' records over WPT's
// inputs.
const kAbsent = 0xffffffff;
let adaOffsets = null;  // made on first use: the snapshot holds none
let adaAvailable;  // undefined: not asked yet

// (A switch, not a Set: Set.has would hash each freshly sliced scheme.)
function isSpecialScheme(scheme) {
  switch (scheme) {
    case 'http': case 'https': case 'ws': case 'wss': case 'ftp': case 'file':
      return true;
    default:
      return false;
  }
}
const dottedQuad = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/;
const isDigit = (code) => code >= 0x30 && code <= 0x39;

// The segments of a path that starts with "/" (what "/a/b".slice(1).split('/')
// gives, without split()'s runtime call).
function pathSegments(pathname) {
  const segments = [];
  let start = 1;
  for (;;) {
    const end = pathname.indexOf('/', start);
    if (end === -1) {
      segments.push(pathname.slice(start));
      return segments;
    }
    segments.push(pathname.slice(start, end));
    start = end + 1;
  }
}

// A serialized host as whatwg-url keeps it: an IPv4 address as a number, an
// IPv6 address as its eight pieces, anything else as the string.
function hostRecord(host, special) {
  if (host.charCodeAt(0) === 0x5b /* [ */) {
    const pieces = [0, 0, 0, 0, 0, 0, 0, 0];
    const text = host.slice(1, -1);
    const compressed = text.indexOf('::');
    const head = compressed === -1 ? text : text.slice(0, compressed);
    const tail = compressed === -1 ? '' : text.slice(compressed + 2);
    const headParts = head === '' ? [] : head.split(':');
    const tailParts = tail === '' ? [] : tail.split(':');
    for (let i = 0; i < headParts.length; i++) pieces[i] = parseInt(headParts[i], 16);
    for (let i = 0; i < tailParts.length; i++) pieces[8 - tailParts.length + i] = parseInt(tailParts[i], 16);
    return pieces;
  }
  // Ada writes an IPv4 address in dotted decimal: a host that does not start
  // and end with a digit is a domain (no regular expression to run).
  if (special && isDigit(host.charCodeAt(0)) && isDigit(host.charCodeAt(host.length - 1))) {
    const quad = dottedQuad.exec(host);
    if (quad !== null) return ((+quad[1] * 256 + +quad[2]) * 256 + +quad[3]) * 256 + +quad[4];
  }
  return host;
}

// Ada's href of `input` parsed against `base` (a string or undefined), or
// null when the fast path does not take it; adaComponents() then gives the
// offsets of its parts (until the next call). The URL record is built from
// them only when first needed (buildURLRecord): `new URL(x)` whose record
// nobody reads (its href is Ada's, the same string) skips that work.
export function adaParse(input, base) {
  if (adaAvailable === undefined) adaAvailable = host.urlParserAvailable() === true;
  if (!adaAvailable) return null;
  adaOffsets ??= new Uint32Array(8);
  const href = host.urlParse(input, base, adaOffsets);
  return href === undefined ? null : href;
}

// The eight offsets of the last adaParse, copied.
export function adaComponents() {
  const c = adaOffsets;
  return [c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]];
}

// The URL record whatwg-url's parser would have made, from adaParse's href
// and adaComponents' offsets.
export function buildURLRecord(href, c) {
  const protocolEnd = c[0];
  const usernameEnd = c[1];
  const hostStart = c[2];
  const hostEnd = c[3];
  const port = c[4];
  const pathnameStart = c[5];
  const searchStart = c[6];
  const hashStart = c[7];
  const scheme = href.slice(0, protocolEnd - 1);
  let username = '';
  let password = '';
  let hostValue = null;
  const hasAuthority = href.charCodeAt(protocolEnd) === 0x2f && href.charCodeAt(protocolEnd + 1) === 0x2f;
  if (hasAuthority) {
    let hostBegin = hostStart;
    if (href.charCodeAt(hostStart) === 0x40 /* @ */) {
      username = href.slice(protocolEnd + 2, usernameEnd);
      if (usernameEnd < hostStart) password = href.slice(usernameEnd + 1, hostStart);
      hostBegin = hostStart + 1;
    }
    hostValue = hostRecord(href.slice(hostBegin, hostEnd), isSpecialScheme(scheme));
  }
  const queryEnd = hashStart !== kAbsent ? hashStart : href.length;
  const pathEnd = searchStart !== kAbsent ? searchStart : queryEnd;
  const pathname = href.slice(pathnameStart, pathEnd);
  let path;
  if (!hasAuthority && pathname.charCodeAt(0) !== 0x2f) {
    path = pathname;  // an opaque path
  } else {
    path = pathname === '' ? [] : pathSegments(pathname);
  }
  return {
    scheme,
    username,
    password,
    host: hostValue,
    port: port === kAbsent ? null : port,
    path,
    query: searchStart === kAbsent ? null : href.slice(searchStart + 1, queryEnd),
    fragment: hashStart === kAbsent ? null : href.slice(hashStart + 1),
  };
}

// The impl behind a URL or URLSearchParams wrapper, in a private slot
// (js_deps/bundle_url.mjs patches webidl2js's wrappers to use these).
// events.js, which makes slots, runs before url.js.
// eslint-disable-next-line no-undef -- the internal scripts' `internals`
const implSlot = internals.newPrivateSlot();
export function setImpl(wrapper, impl) {
  implSlot.set(wrapper, impl);
}
export function implOf(wrapper) {
  return implSlot.peek(wrapper);
}
export function hasImpl(value) {
  return implSlot.peek(value) !== undefined;
}
