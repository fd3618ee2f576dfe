// TextDecoder for windows-1252 (what the web means by "latin1", "ascii" and
// "iso-8859-1") and UTF-16BE. https://encoding.spec.whatwg.org/
// (node 20 decodes 0x80-0x9F as Latin-1; deno and browsers use the index
// below, as hostloop does.)
import { test, assert, assertEquals, assertThrows } from './lib/assert.mjs';

const codes = (text) => [...text].map((c) => c.codePointAt(0));

await test('every windows-1252 label names windows-1252', () => {
  const labels = ['ansi_x3.4-1968', 'ascii', 'cp1252', 'cp819', 'csisolatin1', 'ibm819', 'iso-8859-1',
    'iso-ir-100', 'iso8859-1', 'iso88591', 'iso_8859-1', 'iso_8859-1:1987', 'l1', 'latin1', 'us-ascii',
    'windows-1252', 'x-cp1252'];
  for (const label of labels) {
    assertEquals(new TextDecoder(label).encoding, 'windows-1252', label);
  }
  assertEquals(new TextDecoder(' \tLATIN1\n').encoding, 'windows-1252', 'trimmed, case-insensitive');
  assertEquals(new TextDecoder('utf-16be').encoding, 'utf-16be');
  assertEquals(new TextDecoder('unicodeFFFE').encoding, 'utf-16be');
  assertThrows(() => new TextDecoder('latin-1'), RangeError, 'is invalid');
});

await test('windows-1252 decodes each byte to one code point by the index', () => {
  const all = new TextDecoder('windows-1252').decode(Uint8Array.from({ length: 256 }, (_, i) => i));
  assertEquals(all.length, 256);
  const expectedHigh = [0x20AC, 0x81, 0x201A, 0x192, 0x201E, 0x2026, 0x2020, 0x2021, 0x2C6, 0x2030, 0x160,
    0x2039, 0x152, 0x8D, 0x17D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x2DC,
    0x2122, 0x161, 0x203A, 0x153, 0x9D, 0x17E, 0x178];
  assertEquals(codes(all.slice(0x80, 0xA0)), expectedHigh, '0x80-0x9F');
  const identity = codes(all).filter((code, byte) => byte < 0x80 || byte >= 0xA0);
  assertEquals(identity, Array.from({ length: 224 }, (_, i) => (i < 0x80 ? i : i + 0x20)), 'the other bytes');
  // Never an error, never a pending byte, and no BOM handling: EF BB BF stays.
  const decoder = new TextDecoder('latin1', { fatal: true });
  assertEquals(decoder.decode(new Uint8Array([0xEF, 0xBB, 0xBF, 0x41]), { stream: true }), '\u00EF\u00BB\u00BFA');
  assertEquals(decoder.decode(new Uint8Array([0x80])), '\u20AC');
  // Long input goes through in chunks.
  const long = new Uint8Array(100000).fill(0x93);
  assertEquals(new TextDecoder('ascii').decode(long), '\u201C'.repeat(100000));
});

await test('UTF-16BE: pairs, BOM, lone surrogates, fatal and streaming', () => {
  const be = (...bytes) => new Uint8Array(bytes);
  assertEquals(new TextDecoder('utf-16be').decode(be(0x00, 0x41, 0xD8, 0x3D, 0xDE, 0x00)), 'A\u{1F600}');
  assertEquals(new TextDecoder('utf-16be').decode(be(0xFE, 0xFF, 0x00, 0x42)), 'B', 'the BOM goes');
  assertEquals(new TextDecoder('utf-16be', { ignoreBOM: true }).decode(be(0xFE, 0xFF, 0x00, 0x42)), '\uFEFFB');
  assertEquals(new TextDecoder('utf-16be').decode(be(0xDC, 0x00, 0x00, 0x43)), '\uFFFDC', 'a lone trail');
  assertEquals(new TextDecoder('utf-16be').decode(be(0x00, 0x41, 0x00)), 'A\uFFFD', 'an odd last byte');
  assertThrows(() => new TextDecoder('utf-16be', { fatal: true }).decode(be(0xD8, 0x00)), TypeError, 'not valid');
  const stream = new TextDecoder('utf-16be');
  let out = '';
  for (const byte of [0x00, 0x41, 0xD8, 0x3D, 0xDE, 0x00, 0x00]) out += stream.decode(be(byte), { stream: true });
  out += stream.decode(be(0x44));
  assertEquals(out, 'A\u{1F600}D', 'one byte at a time');
  // The little-endian decoder is unchanged.
  assertEquals(new TextDecoder('utf-16le').decode(be(0x41, 0x00, 0x3D, 0xD8, 0x00, 0xDE)), 'A\u{1F600}');
  assert(true);
});
