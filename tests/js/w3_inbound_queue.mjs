// Spec tests for contract W3: messages from one sender arrive in order; a
// worker's inbound queue opens when its entry script finishes evaluating,
// top-level await included (hostloop's deliberate deviation: HTML opens it
// at the first await and would drop those messages), so messages sent early
// wait for the script; a handler installed later than that (in a timer)
// misses what already arrived, as on the web.
// https://html.spec.whatwg.org/multipage/workers.html#worker-processing-model
// (step "Enable outside port's port message queue" / "enable the port message queue")

import { test, assertEquals } from './lib/assert.mjs';
import { fixture, nextMessage, request, collect } from './fixtures/workers/harness.mjs';

const numbers = Array.from({ length: 20 }, (_, i) => i);

await test('W3 messages sent before a top-level await of ~50 ms finished are all delivered, in order (onmessage)', async () => {
  const worker = new Worker(fixture('tla_then_listen.mjs'), { type: 'module' });
  try {
    for (const n of numbers) worker.postMessage(n);
    assertEquals(await request(worker, 'report'), numbers);
  } finally {
    worker.terminate();
  }
});

await test('W3 messages sent before a top-level await finished are all delivered, in order (addEventListener)', async () => {
  const worker = new Worker(fixture('tla_then_listen.mjs'), { type: 'module', name: 'event-listener' });
  try {
    for (const n of numbers) worker.postMessage({ n });
    assertEquals(await request(worker, 'report'), numbers.map((n) => ({ n })));
  } finally {
    worker.terminate();
  }
});

await test('W3 the queue waits for a top-level await inside a static dependency too', async () => {
  const worker = new Worker(fixture('tla_import_then_listen.mjs'), { type: 'module' });
  try {
    worker.postMessage('a');
    worker.postMessage('b');
    assertEquals(await request(worker, 'report'), ['dependency ready', 'a', 'b']);
  } finally {
    worker.terminate();
  }
});

await test('W3 messages sent while the entry script is synchronously busy are delivered after it, in order', async () => {
  const worker = new Worker(fixture('busy_then_listen.mjs'), { type: 'module' });
  try {
    for (const n of numbers) worker.postMessage(n);
    assertEquals(await request(worker, 'report'), numbers);
  } finally {
    worker.terminate();
  }
});

await test('W3 a classic worker also receives messages sent before its script ran', async () => {
  const worker = new Worker(fixture('classic_echo.js'));
  try {
    const replies = collect(worker, 3);
    worker.postMessage('x');
    worker.postMessage('y');
    worker.postMessage('z');
    assertEquals(await replies, ['x', 'y', 'z']);
  } finally {
    worker.terminate();
  }
});

await test('W3 a late onmessage (set in a timer after the entry ran) drops the early message, as on the web', async () => {
  const worker = new Worker(fixture('late_onmessage.mjs'), { type: 'module' });
  try {
    const listening = nextMessage(worker);
    worker.postMessage('early');
    assertEquals(await listening, 'listening');
    worker.postMessage('late');
    assertEquals(await request(worker, 'report'), ['late', 'report']);
  } finally {
    worker.terminate();
  }
});

await test('W3 1000 messages from a worker arrive in order, also when the worker ends right after posting them', async () => {
  const worker = new Worker(fixture('post_burst.mjs'), { type: 'module' });
  // The worker has no listener, so it ends on its own once it has posted:
  // what it posted before is still delivered.
  const received = await collect(worker, 1001);
  assertEquals(received, [...Array.from({ length: 1000 }, (_, i) => i), 'done']);
});

await test('W3 interleaved senders: each sender\'s messages keep their own order', async () => {
  const workers = [0, 1, 2].map((i) => new Worker(fixture('echo.mjs'), { type: 'module', name: `w${i}` }));
  try {
    const perWorker = workers.map((worker) => collect(worker, 100));
    for (let n = 0; n < 100; n++) {
      for (const worker of workers) worker.postMessage(n);
    }
    const expected = Array.from({ length: 100 }, (_, n) => n);
    for (const received of await Promise.all(perWorker)) assertEquals(received, expected);
  } finally {
    for (const worker of workers) worker.terminate();
  }
});
