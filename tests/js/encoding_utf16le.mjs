// differential: node
// timeout: 10
//
// TextDecoder('utf-16le') as the Encoding Standard's shared UTF-16 decoder:
// a surrogate pair is one code point (fatal: true threw on every pair), a
// lone surrogate becomes U+FFFD (it was passed through), and while
// streaming a lead surrogate at the end of a chunk waits for its trail.
// At the end, decode of a detached buffer (any encoding) is "".
// Run under node as well: the outputs must match.
// https://encoding.spec.whatwg.org/#shared-utf-16-decoder

const decoder = (options) => new TextDecoder('utf-16le', options);
const show = (text) => JSON.stringify(text);
const bytes = (...values) => new Uint8Array(values);

console.log('pair, fatal:', show(decoder({ fatal: true }).decode(bytes(0x3D, 0xD8, 0x00, 0xDE))));
console.log('lone lead:', show(decoder().decode(bytes(0x00, 0xD8, 0x41, 0x00))));
console.log('lone trail, odd byte:', show(decoder().decode(bytes(0x00, 0xDC, 0x41, 0x00, 0x3D))));
for (const input of [bytes(0x00, 0xD8, 0x41, 0x00), bytes(0x00, 0xDC), bytes(0x41)]) {
  try {
    decoder({ fatal: true }).decode(input);
    console.log('fatal: no throw for', [...input]);
  } catch (error) {
    console.log('fatal throws', error.name, 'for', [...input]);
  }
}
const split = decoder();
console.log('stream, lead at the end:', show(split.decode(bytes(0x3D, 0xD8), { stream: true })), show(split.decode()));
const rejoined = decoder();
console.log('stream, pair across chunks:', show(rejoined.decode(bytes(0x3D, 0xD8, 0x00), { stream: true })),
  show(rejoined.decode(bytes(0xDE))));

// A detached buffer, or a view on one, holds no bytes: "" (WebIDL "get a
// copy of the bytes held by the buffer source"); making a view on it threw.
const detached = new ArrayBuffer(8);
const onDetached = new Uint8Array(detached, 2, 4);
structuredClone(detached, { transfer: [detached] });
for (const [label, input] of [['buffer', detached], ['view', onDetached]]) {
  console.log(`detached ${label}:`, show(new TextDecoder().decode(input)), show(decoder().decode(input)));
}
