// TextDecoder's UTF-8 decoding of valid input (encoding.cc decodes valid
// non-ASCII text itself, eight ASCII bytes at a time, and leaves ASCII and
// invalid input to V8): every well-formed string comes back unchanged from
// TextEncoder's bytes, with fatal and non-fatal decoders, whole and streamed
// in chunks cut anywhere; and invalid bytes after a long valid stretch are
// still replaced (non-fatal) or refused (fatal) as the standard says.
import { test, assertEquals, assertThrows } from './lib/assert.mjs';

let seed = 12345;
function random(n) {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return (seed >>> 8) % n;
}
// Characters of every UTF-8 length, ASCII runs of lengths around 8, and
// the edges of each range.
const samples = ['a', 'Z', '\0', '\x7f', '\x80', '\xe9', '\u07ff', '\u0800', '\u20ac', '\ud7ff', '\ue000', '\uffff',
  '\u{10000}', '\u{1F600}', '\u{10FFFF}', 'abcdefg', 'abcdefgh', 'abcdefghi', 'x'.repeat(17)];
function randomText() {
  let text = '';
  const parts = random(40);
  for (let i = 0; i < parts; i++) text += samples[random(samples.length)];
  return text;
}

const encoder = new TextEncoder();

await test('valid UTF-8 decodes to the string that was encoded', () => {
  const lenient = new TextDecoder();
  const fatal = new TextDecoder('utf-8', { fatal: true });
  for (let round = 0; round < 5000; round++) {
    const text = randomText();
    const bytes = encoder.encode(text);
    assertEquals(lenient.decode(bytes), text);
    assertEquals(fatal.decode(bytes), text);
  }
  const long = `${'ascii '.repeat(100_000)}\u00e9\u20ac\u{1F600}${'tail'.repeat(1000)}`;
  assertEquals(lenient.decode(encoder.encode(long)), long);
});

await test('streamed in chunks cut anywhere, valid UTF-8 decodes the same', () => {
  for (let round = 0; round < 500; round++) {
    const text = randomText();
    const bytes = encoder.encode(text);
    const decoder = new TextDecoder('utf-8', { fatal: true });
    let out = '';
    let at = 0;
    while (at < bytes.length) {
      const next = Math.min(bytes.length, at + 1 + random(9));
      out += decoder.decode(bytes.subarray(at, next), { stream: true });
      at = next;
    }
    out += decoder.decode();
    assertEquals(out, text);
  }
});

await test('invalid bytes after a long valid stretch are replaced or refused', () => {
  const prefix = encoder.encode(`${'x'.repeat(1000)}\u00e9`);
  for (const [bad, replaced] of [[[0xff], '\ufffd'], [[0xc3], '\ufffd'], [[0xe2, 0x82], '\ufffd'],
    [[0xed, 0xa0, 0x80], '\ufffd\ufffd\ufffd'], [[0xc0, 0xaf], '\ufffd\ufffd'], [[0xf4, 0x90, 0x80, 0x80], '\ufffd\ufffd\ufffd\ufffd']]) {
    const bytes = new Uint8Array([...prefix, ...bad, 0x41]);
    assertEquals(new TextDecoder().decode(bytes), `${'x'.repeat(1000)}\u00e9${replaced}A`, `bytes ${bad}`);
    assertThrows(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes), TypeError);
  }
});
