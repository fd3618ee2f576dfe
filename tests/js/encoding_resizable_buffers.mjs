// hostloop-flags: --v8-flags=--harmony-rab-gsab
// timeout: 30
//
// Resizable ArrayBuffers and growable SharedArrayBuffers (an experimental V8
// flag in V8 10.2) reach the natives that read a view's bytes. V8 10.2's
// C++ API predates them: TextDecoder.decode of a view on one made a
// Uint8Array over it through the API, which stopped the process inside V8
// (a trap, or "Check failed: byte_length <= buffer->byte_length()" after a
// shrink), and hostloop:fs wrote as many bytes as the view had before a
// resize. The bytes a view sees now are read instead (node 20 is the
// reference for every value below). encodeInto and getRandomValues refused
// a Uint8Array on one ("not of type 'Uint8Array'", "of type 'DataView'"):
// V8 10.2's %TypedArray%.prototype[@@toStringTag], their type check, does
// not know typed arrays on resizable buffers. (Found by review.)

import { readFile, writeFile, mkdir, rm } from 'hostloop:fs';
import { test, assert, assertEquals, assertThrows } from './lib/assert.mjs';

const decode = (input, options) => new TextDecoder(undefined, options).decode(input);

// A resizable buffer of `length` (at most 16) bytes holding `bytes`.
function resizable(bytes, length = bytes.length) {
  const buffer = new ArrayBuffer(length, { maxByteLength: 16 });
  new Uint8Array(buffer).set(bytes);
  return buffer;
}
const hi = [104, 105, 33, 33, 33, 33, 33, 33];  // "hi!!!!!!"

await test('decode reads views on resizable buffers', () => {
  assertEquals(decode(new Uint8Array(resizable(hi), 0, 4)), 'hi!!');
  assertEquals(decode(new Uint8Array(resizable(hi), 1, 2)), 'i!');
  assertEquals(decode(new Uint8Array(resizable(hi))), 'hi!!!!!!');
  assertEquals(decode(new DataView(resizable(hi))), 'hi!!!!!!');
  assertEquals(decode(new DataView(resizable(hi), 6)), '!!');
  assertEquals(decode(resizable(hi)), 'hi!!!!!!');
  assertEquals(decode(new Uint16Array(resizable([104, 0, 105, 0])), { fatal: true }), 'h\0i\0');
  assertEquals(new TextDecoder('utf-16le').decode(new Uint8Array(resizable([104, 0, 105, 0]))),
               'hi');
  assertEquals(decode(new Uint8Array(resizable([0xE2, 0x82, 0xAC, 0xE2]))), '\u20AC\uFFFD');
});

await test('decode sees the bytes after a resize', () => {
  const shrunk = resizable(hi);
  const tracking = new Uint8Array(shrunk);
  const fixed = new Uint8Array(shrunk, 0, 4);
  const outOfBounds = new Uint8Array(shrunk, 4, 4);
  const dataView = new DataView(shrunk, 4, 2);
  shrunk.resize(3);
  assertEquals(decode(tracking), 'hi!');
  assertEquals(decode(fixed), '');
  assertEquals(decode(outOfBounds), '');
  assertEquals(decode(dataView), '');
  assertEquals(decode(shrunk), 'hi!');

  const grown = resizable([104, 105]);
  const growing = new Uint8Array(grown);
  grown.resize(4);
  assertEquals(decode(growing), 'hi\0\0');
  assertEquals(decode(grown), 'hi\0\0');
});

await test('decode streams from a resizable buffer', () => {
  const decoder = new TextDecoder();
  const euro = resizable([0xE2, 0x82, 0xAC]);
  assertEquals(decoder.decode(new Uint8Array(euro, 0, 2), { stream: true }), '');
  assertEquals(decoder.decode(new Uint8Array(euro, 2, 1)), '\u20AC');
});

await test('decode reads growable SharedArrayBuffers', () => {
  const shared = new SharedArrayBuffer(2, { maxByteLength: 16 });
  new Uint8Array(shared).set([104, 105]);
  const tracking = new Uint8Array(shared);
  assertEquals(decode(tracking), 'hi');
  shared.grow(3);
  new Uint8Array(shared)[2] = 33;
  assertEquals(decode(tracking), 'hi!');
  assertEquals(decode(shared), 'hi!');
  assertEquals(decode(new DataView(shared, 1)), 'i!');
});

await test('hostloop:fs writes the bytes a resized view sees', async () => {
  const root = `/tmp/hostloop-rab-test-${performance.timeOrigin}-${Math.random()}`;
  await mkdir(root);
  try {
    const buffer = resizable(hi);
    const tracking = new Uint8Array(buffer);
    buffer.resize(3);
    await writeFile(`${root}/tracking`, tracking);
    assertEquals(await readFile(`${root}/tracking`, 'utf8'), 'hi!');
    await writeFile(`${root}/buffer`, buffer);
    assertEquals(await readFile(`${root}/buffer`, 'utf8'), 'hi!');
    buffer.resize(5);
    await writeFile(`${root}/grown`, new DataView(buffer, 1));
    assertEquals(await readFile(`${root}/grown`, 'utf8'), 'i!\0\0');
  } finally {
    await rm(root, { recursive: true });
  }
});

await test('encodeInto and getRandomValues write the bytes a view sees now', () => {
  const buffer = resizable(hi);
  const tracking = new Uint8Array(buffer);
  const fixed = new Uint8Array(buffer, 0, 8);
  buffer.resize(2);
  const result = new TextEncoder().encodeInto('hey', tracking);
  assertEquals([result.read, result.written], [2, 2]);
  assertEquals(new TextEncoder().encodeInto('hey', fixed).written, 0);
  assertEquals(crypto.getRandomValues(fixed), fixed);
  // Nothing was written past the end: bytes a buffer grows by are zeros.
  buffer.resize(8);
  assertEquals([...new Uint8Array(buffer)], [104, 101, 0, 0, 0, 0, 0, 0]);
  const random = crypto.getRandomValues(new Uint32Array(buffer, 4));
  assertEquals(random.length, 1);
  assertThrows(() => crypto.getRandomValues(new Float32Array(buffer)), DOMException,
               "of type 'Float32Array'");
  assertThrows(() => new TextEncoder().encodeInto('x', new Int8Array(buffer)), TypeError);
});

await test("a program's Array iterator is not used", () => {
  const iterator = Array.prototype[Symbol.iterator];
  Array.prototype[Symbol.iterator] = () => { throw new Error('program code ran'); };
  try {
    assertEquals(decode(new Uint8Array(resizable(hi), 0, 2)), 'hi');
  } finally {
    Array.prototype[Symbol.iterator] = iterator;
  }
});

await test('views on fixed-length buffers are unchanged', () => {
  assertEquals(decode(new Uint8Array(hi).subarray(1, 3)), 'i!');
  const target = new Uint8Array(4);
  assertEquals(new TextEncoder().encodeInto('hey', target).written, 3);
  assert(crypto.getRandomValues(new Uint8Array(8)).length === 8);
});
