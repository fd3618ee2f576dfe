// timeout: 60
//
// TextEncoder/TextDecoder edge cases from an adversarial pass, and atob/btoa
// (https://encoding.spec.whatwg.org/, https://html.spec.whatwg.org/#atob):
//  - buffers and views are read through their internal slots: redefined
//    byteOffset/byteLength, null prototypes and detached DataViews do not
//    change or break what is decoded;
//  - UTF-16LE: a lead surrogate and an odd last byte are one error;
//  - TextEncoder's operations check their receiver;
//  - inputs beyond V8's string length limit throw RangeError (a length of
//    2^31 or more was cast to a negative int: V8 then read up to the first
//    NUL, truncating silently or reading past the buffer), and encodeInto
//    into a destination of 2 GiB or more writes (it wrote nothing);
//  - atob/btoa exist and follow forgiving-base64.

import { test, assert, assertEquals, assertThrows } from './lib/assert.mjs';

await test('views are read through their internal slots', () => {
  const view = new Uint8Array([104, 105, 106]);
  Object.defineProperty(view, 'byteOffset', { value: 1 });
  Object.defineProperty(view, 'byteLength', { value: 1 });
  Object.defineProperty(view, 'buffer', { get() { throw new Error('buffer getter ran'); } });
  assertEquals(new TextDecoder().decode(view), 'hij');
  const buffer = new ArrayBuffer(2);
  new Uint8Array(buffer).set([0x41, 0x42]);
  Object.defineProperty(buffer, 'byteLength', { value: 0 });
  assertEquals(new TextDecoder().decode(buffer), 'AB');
  const orphan = new ArrayBuffer(2);
  new Uint8Array(orphan).set([0x43, 0x44]);
  Object.setPrototypeOf(orphan, null);
  assertEquals(new TextDecoder().decode(orphan), 'CD');
  const destination = new Uint8Array(4);
  Object.setPrototypeOf(destination, null);
  assertEquals(new TextEncoder().encodeInto('hi', destination), { read: 2, written: 2 });
  assertThrows(() => new TextEncoder().encodeInto('hi', new Uint16Array(4)), TypeError);
  const shared = new Uint8Array(new SharedArrayBuffer(8), 2, 3);
  shared.set([0x45, 0x46, 0x47]);
  assertEquals(new TextDecoder().decode(shared), 'EFG');
});

await test('a detached buffer decodes as empty, whatever the view', () => {
  const buffer = new ArrayBuffer(4);
  const dataView = new DataView(buffer);
  const bytes = new Uint8Array(buffer, 1);
  structuredClone(buffer, { transfer: [buffer] });
  assertEquals(new TextDecoder().decode(dataView), '');
  assertEquals(new TextDecoder().decode(bytes), '');
  assertEquals(new TextDecoder().decode(buffer), '');
  assertEquals(new TextDecoder('utf-16le').decode(dataView), '');
});

await test('UTF-16LE: a lead surrogate and an odd last byte are one error', () => {
  const decoded = new TextDecoder('utf-16le').decode(new Uint8Array([0x00, 0xD8, 0x41]));
  assertEquals([...decoded].map((c) => c.codePointAt(0)), [0xFFFD]);
  const streaming = new TextDecoder('utf-16le');
  const text = streaming.decode(new Uint8Array([0x00, 0xD8]), { stream: true }) +
    streaming.decode(new Uint8Array([0x41]), { stream: true }) + streaming.decode();
  assertEquals([...text].map((c) => c.codePointAt(0)), [0xFFFD]);
  assertThrows(() => new TextDecoder('utf-16le', { fatal: true }).decode(new Uint8Array([0x00, 0xD8, 0x41])), TypeError);
});

await test('TextEncoder checks its receiver', () => {
  const encode = TextEncoder.prototype.encode;
  const encodeInto = TextEncoder.prototype.encodeInto;
  const encoding = Object.getOwnPropertyDescriptor(TextEncoder.prototype, 'encoding').get;
  assertThrows(() => encode.call({}, 'a'), TypeError);
  assertThrows(() => encodeInto.call(null, 'a', new Uint8Array(1)), TypeError);
  assertThrows(() => encoding.call(42), TypeError);
  assertEquals(encode.call(new TextEncoder(), 'a'), new Uint8Array([97]));
});

await test('beyond the string length limit: RangeError, never a truncated string', () => {
  // Zero bytes are valid UTF-8 (NUL characters); calloc'd pages stay untouched.
  const tooLong = new Uint8Array(2 ** 29 + 16);
  assertThrows(() => new TextDecoder().decode(tooLong), RangeError);
  const over2GiB = new Uint8Array(2 ** 31 + 16);
  assertThrows(() => new TextDecoder().decode(over2GiB), RangeError);
  assertEquals(new TextEncoder().encodeInto('hello', over2GiB), { read: 5, written: 5 });
  assertEquals(over2GiB[0], 104);
});

await test('atob and btoa (forgiving-base64)', () => {
  assertEquals(btoa(''), '');
  assertEquals(btoa('f'), 'Zg==');
  assertEquals(btoa('fo'), 'Zm8=');
  assertEquals(btoa('foo'), 'Zm9v');
  assertEquals(btoa('\xff\xfe\x00'), '//4A');
  assertEquals(btoa(null), 'bnVsbA==');
  assertThrows(() => btoa('\u0100'), DOMException, /InvalidCharacter|Latin1/);
  assertEquals(atob('Zm9vYmFy'), 'foobar');
  assertEquals(atob(' Zm9v\tYm\nFy\f\r'), 'foobar');
  assertEquals(atob('Zg'), 'f');
  assertEquals(atob('Zg=='), 'f');
  assertEquals(atob('Zm8'), 'fo');
  assertEquals(atob('YR=='), 'a');
  for (const bad of ['Z', 'Zg=', 'Zm9vYg= =x', '=Zm9v', 'Zm9v=', 'Zg===', 'Zm\u00e99v', 'Zm-9']) {
    let error = null;
    try {
      atob(bad);
    } catch (e) {
      error = e;
    }
    assert(error instanceof DOMException && error.name === 'InvalidCharacterError', `atob(${JSON.stringify(bad)}): ${error}`);
  }
  assertThrows(() => atob(), TypeError);
  let binary = '';
  for (let i = 0; i < 70000; i++) binary += String.fromCharCode(i % 256);
  assertEquals(atob(btoa(binary)), binary);
  assert(Object.getOwnPropertyDescriptor(globalThis, 'atob').enumerable, 'atob is enumerable');
});

await test('streaming UTF-8: an invalid sequence start is an error at once, not held back', () => {
  const codes = (text) => [...text].map((c) => c.codePointAt(0));
  for (const [bytes, now] of [
    [[0x61, 0xE0, 0x80], [0x61, 0xFFFD, 0xFFFD]],  // E0 needs A0-BF next
    [[0x61, 0xED, 0xA0], [0x61, 0xFFFD, 0xFFFD]],  // ED needs 80-9F
    [[0x61, 0xF0, 0x80], [0x61, 0xFFFD, 0xFFFD]],  // F0 needs 90-BF
    [[0x61, 0xF4, 0x90], [0x61, 0xFFFD, 0xFFFD]],  // F4 needs 80-8F
    [[0x61, 0xFF], [0x61, 0xFFFD]],
    [[0x61, 0xE0, 0xA0], [0x61]],                  // a valid start waits
  ]) {
    const decoder = new TextDecoder();
    assertEquals(codes(decoder.decode(new Uint8Array(bytes), { stream: true })), now, bytes.join(','));
  }
  const decoder = new TextDecoder();
  decoder.decode(new Uint8Array([0xE0, 0xA0]), { stream: true });
  assertEquals(decoder.decode(new Uint8Array([0x80])), '\u0800');
});

await test('TextDecoder labels trim ASCII whitespace only; options are dictionaries', () => {
  assertEquals(new TextDecoder(' \t\n\f\rUTF-8 ').encoding, 'utf-8');
  assertThrows(() => new TextDecoder('utf-8\u00a0'), RangeError);
  assertThrows(() => new TextDecoder('\u2028utf-8'), RangeError);
  assertThrows(() => new TextDecoder('utf-8', 5), TypeError);
  assertEquals(new TextDecoder('utf-8', null).fatal, false);
  assertEquals(new TextDecoder('utf-8', { fatal: 1, ignoreBOM: 'yes' }).ignoreBOM, true);
  assertThrows(() => new TextDecoder().decode(new Uint8Array(1), 5), TypeError);
});

await test('after a decode() that threw, the BOM state follows the stream flag of that call', () => {
  // decode() steps 1-2: only a call after one without `stream` starts a new
  // stream (the BOM is stripped again); a throwing stream: true call leaves
  // the stream going. (The UTF-8 path started a new stream after any throw,
  // the UTF-16 path after none.)
  const codes = (text) => [...text].map((c) => c.charCodeAt(0));
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  utf8.decode(new Uint8Array([0x41]), { stream: true });
  assertThrows(() => utf8.decode(new Uint8Array([0xff]), { stream: true }), TypeError);
  assertEquals(codes(utf8.decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x42]))), [0xfeff, 0x42], 'UTF-8, the stream goes on');
  assertThrows(() => utf8.decode(new Uint8Array([0xff])), TypeError);
  assertEquals(codes(utf8.decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x42]))), [0x42], 'UTF-8, a new stream');
  const utf16 = new TextDecoder('utf-16le', { fatal: true });
  utf16.decode(new Uint8Array([0x41, 0x00]), { stream: true });
  assertThrows(() => utf16.decode(new Uint8Array([0x00, 0xd8])), TypeError);
  assertEquals(codes(utf16.decode(new Uint8Array([0xff, 0xfe, 0x42, 0x00]))), [0x42], 'UTF-16LE, a new stream');
  utf16.decode(new Uint8Array([0x41, 0x00]), { stream: true });
  assertThrows(() => utf16.decode(new Uint8Array([0x00, 0xd8, 0x41, 0x00]), { stream: true }), TypeError);
  assertEquals(codes(utf16.decode(new Uint8Array([0xff, 0xfe, 0x42, 0x00]))), [0xfeff, 0x42], 'UTF-16LE, the stream goes on');
});
