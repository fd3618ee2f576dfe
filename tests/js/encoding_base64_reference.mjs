// btoa and atob (native since they were 30-40x slower than node's in JS)
// against a plain reference written from the specs, on generated inputs:
// every length 0-40 of random binary strings, long ones, and for atob,
// strings made of base64 characters, '=', ASCII whitespace and a few
// invalid characters in random places (most invalid: each must throw an
// InvalidCharacterError exactly when the reference says failure).
// https://infra.spec.whatwg.org/#forgiving-base64
import { test, assert, assertEquals } from './lib/assert.mjs';

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

// https://infra.spec.whatwg.org/#forgiving-base64-encode (RFC 4648 section 4).
function referenceEncode(binary) {
  let bits = '';
  for (const ch of binary) bits += ch.charCodeAt(0).toString(2).padStart(8, '0');
  let out = '';
  for (let i = 0; i < bits.length; i += 6) out += alphabet[parseInt(bits.slice(i, i + 6).padEnd(6, '0'), 2)];
  while (out.length % 4 !== 0) out += '=';
  return out;
}

// https://infra.spec.whatwg.org/#forgiving-base64-decode, step by step;
// null for failure.
function referenceDecode(data) {
  data = data.replace(/[\t\n\f\r ]/g, '');                             // 1
  if (data.length % 4 === 0) data = data.replace(/==?$/, '');          // 2
  if (data.length % 4 === 1) return null;                              // 3
  if (/[^+/0-9A-Za-z]/.test(data)) return null;                        // 4
  let buffer = '';                                                      // 5-7
  for (const ch of data) buffer += alphabet.indexOf(ch).toString(2).padStart(6, '0');
  buffer = buffer.slice(0, buffer.length - (buffer.length % 8));        // 8: discard extra bits
  let out = '';
  for (let i = 0; i < buffer.length; i += 8) out += String.fromCharCode(parseInt(buffer.slice(i, i + 8), 2));
  return out;
}

let seed = 0x9e3779b9;
function random(n) {
  seed ^= seed << 13; seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5; seed >>>= 0;
  return seed % n;
}
function randomBinary(length) {
  let s = '';
  for (let i = 0; i < length; i++) s += String.fromCharCode(random(256));
  return s;
}

function atobOrNull(data) {
  try {
    return atob(data);
  } catch (error) {
    assert(error instanceof DOMException && error.name === 'InvalidCharacterError',
      `atob(${JSON.stringify(data)}) threw ${error}`);
    return null;
  }
}

await test('btoa matches the reference, and atob(btoa(x)) is x', () => {
  const inputs = [];
  for (let length = 0; length <= 40; length++) inputs.push(randomBinary(length));
  inputs.push(randomBinary(100_000), '\xff'.repeat(3001), '\0'.repeat(5));
  for (const binary of inputs) {
    const encoded = btoa(binary);
    assertEquals(encoded, referenceEncode(binary), `btoa of ${binary.length} bytes`);
    assertEquals(atob(encoded), binary, `atob(btoa(x)) of ${binary.length} bytes`);
  }
});

await test('btoa rejects code units above 0xFF wherever they are', () => {
  for (const text of ['\u0100', 'ab\u0100', `${'a'.repeat(1000)}\u20ac`, '\ud83d\ude00']) {
    let error;
    try {
      btoa(text);
    } catch (caught) {
      error = caught;
    }
    assert(error instanceof DOMException && error.name === 'InvalidCharacterError', `btoa(${JSON.stringify(text)})`);
  }
});

await test('atob agrees with the reference on generated inputs', () => {
  const pieces = [...alphabet, '=', '==', ' ', '\t', '\n', '\f', '\r', '\v', '-', '_', '.', '\0', '\xe9', '\u0100', '\u{1F600}'];
  let failures = 0;
  for (let round = 0; round < 20_000; round++) {
    let data = '';
    const length = random(14);
    // Mostly base64 characters, so that many inputs are valid.
    for (let i = 0; i < length; i++) data += random(4) === 0 ? pieces[random(pieces.length)] : alphabet[random(64)];
    const expected = referenceDecode(data);
    if (expected === null) failures++;
    assertEquals(atobOrNull(data), expected, `atob(${JSON.stringify(data)})`);
  }
  // Both kinds were generated.
  assert(failures > 1000 && failures < 19_000, `failures: ${failures}`);
  const long = btoa(randomBinary(30_000)).replace(/.{76}/g, '$&\r\n');
  assertEquals(atobOrNull(long), referenceDecode(long));
});
