// timeout: 60
//
// TextDecoder.decode() of shared memory that another thread rewrites at the
// same time. decode() takes an [AllowShared] BufferSource and decodes "a copy
// of the bytes held by the buffer source"
// (https://encoding.spec.whatwg.org/#dom-textdecoder-decode): the text may be
// any mix of the two patterns, but the process must not crash. (V8's UTF-8
// decoder reads its input twice, to size the string and to fill it; a 4-byte
// sequence (2 UTF-16 units) that turned into 4 invalid bytes (4 U+FFFD)
// between the reads wrote past the string: a segfault within about a second.)

import { test, assert } from './lib/assert.mjs';

await test('decoding a SharedArrayBuffer view while a worker rewrites it', async () => {
  const sab = new SharedArrayBuffer(1 << 16);
  const control = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker('data:text/javascript,' + encodeURIComponent(`
    onmessage = ({ data: [sab, control] }) => {
      const words = new Uint32Array(sab);
      postMessage('writing');
      // U+1F600 (F0 9F 98 80) everywhere, then bytes that are all invalid,
      // until main says stop.
      while (Atomics.load(control, 0) === 0) {
        words.fill(0x80989FF0);
        words.fill(0xFFFFFFFF);
      }
      postMessage('stopped');
    };`));
  const replies = [];
  let wake = null;
  worker.onmessage = ({ data }) => { replies.push(data); wake?.(); };
  worker.postMessage([sab, control]);
  await new Promise((resolve) => { wake = resolve; });

  const view = new Uint8Array(sab);
  const decoder = new TextDecoder();
  const streaming = new TextDecoder();
  const started = performance.now();
  let decodes = 0;
  while (performance.now() - started < 2500) {
    const text = decoder.decode(view);
    // Every byte decodes to U+1F600 (two units per 4 bytes) or U+FFFD (one
    // per byte), so the length stays within these bounds.
    assert(text.length >= view.length / 2 && text.length <= view.length, `length ${text.length}`);
    streaming.decode(view.subarray(0, 4097), { stream: true });
    decodes++;
  }
  Atomics.store(control, 0, 1);
  await new Promise((resolve) => { wake = resolve; if (replies.length > 1) resolve(); });
  assert(decodes > 0, 'no decode ran');
  assert(replies.includes('stopped'), `worker replies: ${replies}`);
  worker.terminate();
});
