// hostloop-flags: --v8-flags=--expose-gc
// timeout: 30
//
// AbortSignal.timeout() and garbage collection
// (https://dom.spec.whatwg.org/#abort-signal-garbage-collection): a timeout
// signal nobody can observe aborting is collected before its timer fires
// (the timer held it strongly: 100k unreferenced AbortSignal.timeout(60000)
// signals kept ~110 MB alive for a minute); one whose abort is observable (an
// abort listener or onabort, a dependent AbortSignal.any with a listener, an
// addEventListener `signal` option, a postTask signal) still aborts on time
// after every reference to it was dropped and gc() ran.

import { test, assert, assertEquals } from './lib/assert.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
async function collect() {
  for (let i = 0; i < 3; i++) {
    gc();
    await sleep(0);
  }
}

await test('unobserved timeout signals are collected before their timers fire', async () => {
  let collected = 0;
  const registry = new FinalizationRegistry(() => collected++);
  (function () {
    for (let i = 0; i < 1000; i++) registry.register(AbortSignal.timeout(60_000), i);
  })();
  await collect();
  await sleep(20);
  assert(collected >= 990, `collected ${collected} of 1000`);
});

await test('observed timeout signals abort on time with no reference left', async () => {
  const seen = [];
  (function () {
    AbortSignal.timeout(30).addEventListener('abort', (event) => seen.push(`listener ${event.target.reason.name}`));
    AbortSignal.timeout(30).onabort = () => seen.push('onabort');
    AbortSignal.any([AbortSignal.timeout(30)]).addEventListener('abort', () => seen.push('any'));
    const target = new EventTarget();
    target.addEventListener('ping', () => seen.push('ping listener ran'), { signal: AbortSignal.timeout(30) });
    globalThis.pingTarget = target;
  })();
  const outcome = scheduler.postTask(() => 'ran', { signal: AbortSignal.timeout(30), delay: 60_000 })
    .then((v) => v, (e) => e.name);
  await collect();
  await sleep(100);
  await collect();
  pingTarget.dispatchEvent(new Event('ping'));
  assertEquals(seen.sort(), ['any', 'listener TimeoutError', 'onabort']);
  assertEquals(await outcome, 'TimeoutError');
});

await test('a signal whose listener is removed becomes collectable; one kept by the program still aborts', async () => {
  let collected = 0;
  const registry = new FinalizationRegistry(() => collected++);
  const kept = AbortSignal.timeout(20);
  (function () {
    const signal = AbortSignal.timeout(60_000);
    const listener = () => {};
    signal.addEventListener('abort', listener);
    signal.removeEventListener('abort', listener);
    registry.register(signal, 'removed');
  })();
  await collect();
  await sleep(50);
  assertEquals(collected, 1);
  assertEquals(kept.aborted, true);
  assertEquals(kept.reason.name, 'TimeoutError');
});

await test('a dependent signal kept by the program aborts with its timeout source, listener or not', async () => {
  // The program keeps only the dependents; the timeout sources are reachable
  // from nothing else (a dependent held its sources weakly: after a GC the
  // source was gone and `aborted` stayed false for ever).
  const direct = AbortSignal.any([AbortSignal.timeout(20)]);
  const nested = AbortSignal.any([AbortSignal.any([new AbortController().signal, AbortSignal.timeout(20)])]);
  let collected = 0;
  const registry = new FinalizationRegistry(() => collected++);
  (function () {
    // A dependent nobody keeps takes its timeout source with it.
    registry.register(AbortSignal.any([AbortSignal.timeout(60_000)]), 'dependent');
  })();
  await collect();
  await sleep(100);
  await collect();
  assertEquals([direct.aborted, direct.reason?.name], [true, 'TimeoutError']);
  assertEquals([nested.aborted, nested.reason?.name], [true, 'TimeoutError']);
  assertEquals(collected, 1);
});
