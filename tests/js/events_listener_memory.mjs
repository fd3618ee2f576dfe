// hostloop-flags: --v8-flags=--expose-gc
// timeout: 60
//
// Listeners and abort algorithms in bulk and their memory:
// - a removed listener is collectable at once (the target's cache of its
//   last dispatched list kept the old list, and so the listener, until an
//   event of another type was dispatched);
// - many listeners added with one shared `signal`, and many postTask calls
//   sharing one TaskController's signal, are not O(n^2) (the signal's abort
//   algorithms were an array scanned on every add and copied on every
//   removal: 20,000 removals took 9 s, 100,000 several minutes; the test's timeout
//   catches that), and the algorithms still run in order on abort.

import { test, assertEquals } from './lib/assert.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

await test('a removed listener is collectable right after it was dispatched to', async () => {
  const target = new EventTarget();
  let collected = false;
  const registry = new FinalizationRegistry(() => { collected = true; });
  (function () {
    const payload = { bytes: new Uint8Array(1 << 20) };
    const listener = () => payload;
    registry.register(payload, 'payload');
    target.addEventListener('x', listener);
    target.dispatchEvent(new Event('x'));
    target.removeEventListener('x', listener);
  })();
  for (let i = 0; i < 4 && !collected; i++) {
    gc();
    await sleep(0);
  }
  assertEquals(collected, true);
});

const N = 50_000;

await test('100,000 listeners on 100,000 targets share one signal', () => {
  const N = 100_000;
  const controller = new AbortController();
  const listener = () => {};
  const targets = Array.from({ length: N }, () => new EventTarget());
  for (const target of targets) target.addEventListener('x', listener, { signal: controller.signal });
  for (let i = 0; i < N; i += 2) targets[i].removeEventListener('x', listener);
  let calls = 0;
  const counter = () => calls++;
  for (const target of targets) target.addEventListener('y', counter, { signal: controller.signal });
  controller.abort();
  for (const target of targets) {
    target.dispatchEvent(new Event('x'));
    target.dispatchEvent(new Event('y'));
  }
  assertEquals(calls, 0);
});

await test('50,000 postTask tasks share one signal; an abort rejects the rest in order', async () => {
  const controller = new TaskController();
  let ran = 0;
  const done = [];
  for (let i = 0; i < N; i++) done.push(scheduler.postTask(() => { ran++; }, { signal: controller.signal }));
  await Promise.all(done);
  assertEquals(ran, N);
  const order = [];
  const pending = [];
  for (let i = 0; i < 1000; i++) {
    pending.push(scheduler.postTask(() => {}, { signal: controller.signal, delay: 60_000 })
      .catch((e) => order.push(`${i} ${e.name}`)));
  }
  controller.abort();
  await Promise.all(pending);
  assertEquals(order.length, 1000);
  assertEquals(order.every((entry, i) => entry === `${i} AbortError`), true);
});
