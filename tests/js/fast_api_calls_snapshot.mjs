// timeout: 30
//
// fast_api_calls.mjs forces functions into optimized code with natives
// syntax, which needs --v8-flags, and with --v8-flags the realm is built at
// start-up. This is the default path: the realm comes from the startup
// snapshot, whose host functions carry their fast calls as external
// references, and hot functions get optimized on their own (20 rounds of
// 10,000 calls each are far past V8's tier-up). Checks that timers set and
// cleared there behave: every kept timer fires once, in the order it was
// set; no cleared one fires or keeps the process alive (they wait a minute,
// past this test's timeout); performance.now() never goes back. The same in
// a worker (its own isolate and loop: a fast call finds its runtime from the
// isolate that calls it).

import { test, assert, assertEquals } from './lib/assert.mjs';

await test('timers and performance.now from hot code on the snapshot realm', async () => {
  const fired = [];
  let next = 0;
  function round(count) {
    const ids = [];
    for (let i = 0; i < count; i++) {
      const n = next++;
      ids.push(i % 2 === 0 ? setTimeout(() => fired.push(-n), 60000) : setTimeout(() => fired.push(n), 1));
    }
    for (let i = 0; i < count; i += 2) clearTimeout(ids[i]);
    return ids;
  }
  function clockRun(count) {
    let last = performance.now();
    for (let i = 0; i < count; i++) {
      const now = performance.now();
      if (now < last) return `went back: ${last} -> ${now}`;
      last = now;
    }
    return null;
  }
  const seen = new Set();
  for (let r = 0; r < 20; r++) {
    for (const id of round(10000)) {
      assert(!seen.has(id), `id ${id} handed out twice`);
      seen.add(id);
    }
    assertEquals(clockRun(10000), null);
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
  assertEquals(fired.length, 100000);
  for (let i = 0; i < fired.length; i++) {
    if (fired[i] !== 2 * i + 1) assertEquals(fired[i], 2 * i + 1, `timer ${i} out of order`);
  }
});

await test('the same in a worker: its timers go to its own loop', async () => {
  const worker = new Worker(new URL('./fixtures/workers/hot_timers.mjs', import.meta.url), { type: 'module' });
  const report = await new Promise((resolve) => {
    worker.onmessage = (event) => resolve(event.data);
  });
  worker.terminate();
  assertEquals(report, { fired: 100000, inOrder: true, distinctIds: true });
});
