// Spec tests for contract W4: `worker.terminate()` stops the worker promptly,
// even inside an endless JS loop; queued messages are dropped; no event
// reaches the Worker object afterwards. `self.close()` finishes the current
// task, then stops.
// https://html.spec.whatwg.org/multipage/workers.html#dom-worker-terminate
// https://html.spec.whatwg.org/multipage/workers.html#terminate-a-worker
// https://html.spec.whatwg.org/multipage/workers.html#dom-workerglobalscope-close
// WPT: workers/Worker_terminate_event_queue.htm,
//      workers/interfaces/WorkerGlobalScope/close/{setTimeout,incoming-message}.html
// (Exit-based checks: w4_terminate_busy_exits.mjs, w4_close_releases_parent.mjs.)

import { test, assert, assertEquals } from './lib/assert.mjs';
import { fixture, nextMessage, request, within, recordEvents, settle, spin } from './fixtures/workers/harness.mjs';

// Fails the test if terminate() does not return within a generous bound.
function terminateNow(worker) {
  const start = performance.now();
  worker.terminate();
  const took = performance.now() - start;
  assert(took < 1000, `terminate() returned after ${took.toFixed(1)} ms`);
}

await test('W4 terminate() of a worker spinning in while(true) inside a handler returns at once; nothing arrives after', async () => {
  const worker = new Worker(fixture('spin_forever.mjs'), { type: 'module' });
  const events = recordEvents(worker);
  assertEquals(await request(worker, 'go'), 'spinning');
  terminateNow(worker);
  const count = events.length;
  worker.postMessage('ignored after terminate');
  await settle(50);
  assertEquals(events.length, count, 'no event after terminate()');
});

await test('W4 terminate() of a worker spinning in its entry script (never finished evaluating) returns at once', async () => {
  const worker = new Worker(fixture('spin_forever.mjs'), { type: 'module', name: 'top-level' });
  const events = recordEvents(worker);
  assertEquals(await nextMessage(worker), 'spinning');
  terminateNow(worker);
  const count = events.length;
  await settle(50);
  assertEquals(events.length, count, 'no event after terminate()');
});

await test('W4 no message event reaches the Worker object after terminate(), though a flooding worker had many queued', async () => {
  const worker = new Worker(fixture('spin_forever.mjs'), { type: 'module', name: 'flood' });
  let afterTerminate = 0;
  let terminated = false;
  let first = null;
  await within(new Promise((resolve) => {
    worker.onmessage = (event) => {
      if (terminated) {
        afterTerminate++;
        return;
      }
      first = event.data;
      // Let more of the flood pile up on this side before terminating.
      spin(20);
      terminated = true;
      terminateNow(worker);
      resolve();
    };
  }), 10000, 'the first flood message');
  assertEquals(first, 0);
  await settle(100);
  assertEquals(afterTerminate, 0, 'message events after terminate()');
});

await test('W4 no message or error event reaches the Worker object after terminate(), with both queued on the parent', async () => {
  const ints = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(fixture('errors_and_messages.mjs'), { type: 'module' });
  const events = recordEvents(worker);
  worker.postMessage({ ints });
  // Keep main's thread busy until the worker has thrown and posted all of
  // it: 20 messages and 20 error reports wait in main's queue.
  const start = performance.now();
  while (Atomics.load(ints, 0) === 0) {
    if (performance.now() - start > 10000) throw new Error('the worker did not finish posting within 10 s');
  }
  spin(10);
  terminateNow(worker);
  await settle(100);
  assertEquals(events, [], 'events after terminate()');
  // Main's own error handling was not reached either (it would have exited).
});

await test('W4 terminate() right after construction, twice, and postMessage afterwards are harmless', async () => {
  const worker = new Worker(fixture('echo.mjs'), { type: 'module' });
  const events = recordEvents(worker);
  worker.postMessage('queued before terminate');
  terminateNow(worker);
  terminateNow(worker);
  worker.postMessage('after terminate');
  await settle(50);
  assertEquals(events, []);
});

await test('W4 self.close(): the rest of the task runs, a timer set before it does not, later messages are dropped', async () => {
  const ints = new Int32Array(new SharedArrayBuffer(16));
  const worker = new Worker(fixture('close_in_task.mjs'), { type: 'module' });
  const events = recordEvents(worker);
  worker.postMessage({ ints, log: false });
  // Code after close() in the same task ran.
  const after = Atomics.waitAsync(ints, 1, 0, 10000).value;
  assert((await after) !== 'timed-out' && Atomics.load(ints, 1) === 1, 'code after close() ran');
  worker.postMessage({ ints });
  worker.postMessage({ ints });
  await settle(100);
  assertEquals(Atomics.load(ints, 2), 0, 'the timer set before close() never ran');
  assertEquals(Atomics.load(ints, 3), 0, 'no message was handled after close()');
  assertEquals(events.filter(([type]) => type === 'error'), [], 'no error event');
  worker.terminate(); // after close(): harmless
});

await test('W4 self.close() in the entry script: messages sent to it are never handled', async () => {
  const worker = new Worker(fixture('close_at_top.mjs'), { type: 'module' });
  const events = recordEvents(worker);
  worker.postMessage(1);
  worker.postMessage(2);
  await settle(100);
  assertEquals(events, []);
});

await test('W4 terminate() landing inside native work (new MessageChannel, a port transfer, DOMException clone, import.meta) ends the worker cleanly', async () => {
  // Once termination is pending, V8 refuses to make objects; these natives
  // used to stop the process on the empty result (a CHECK failure).
  const bodies = [
    'for (;;) new MessageChannel();',
    'for (;;) { const c = new MessageChannel(); structuredClone(c.port1, { transfer: [c.port1] }); }',
    'for (;;) { const c = new MessageChannel(); postMessage(null, [c.port2]); }',
    'for (;;) structuredClone(new DOMException("m", "DataCloneError"));',
    'for (;;) await import("data:text/javascript,export default import.meta.resolve(\'file:///x\')#" + Math.random());',
  ];
  for (const body of bodies) {
    for (let round = 0; round < 4; round++) {
      const worker = new Worker('data:text/javascript,' + encodeURIComponent(`postMessage('go'); ${body}`), { type: 'module' });
      await within(nextMessage(worker), 10000, 'the worker started');
      await settle(1 + round * 3);
      terminateNow(worker);
    }
  }
});

await test('W4 a new worker after all of the above still works (the loops are healthy)', async () => {
  const worker = new Worker(fixture('echo.mjs'), { type: 'module' });
  try {
    assertEquals(await request(worker, 'alive'), 'alive');
  } finally {
    worker.terminate();
  }
});

// Last, so that a failure here does not hide the tests above.
await test('W4 terminate() stops the worker promptly: queued messages are dropped, not handled', async () => {
  // Each message costs the worker ~5 ms. After terminate(), at most the one
  // in progress may finish; HTML's terminate empties the worker's task
  // queues ("terminate a worker": discard any tasks, abort the script).
  const ints = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(fixture('slow_handler.mjs'), { type: 'module' });
  assertEquals(await request(worker, { ints }), 'armed');
  for (let i = 0; i < 100; i++) worker.postMessage(i);
  await within((async () => { while (Atomics.load(ints, 0) < 2) await settle(1); })(), 10000, 'the first handled messages');
  terminateNow(worker);
  const atTerminate = Atomics.load(ints, 0);
  await settle(300);
  const later = Atomics.load(ints, 0);
  assert(later <= atTerminate + 1,
    `the worker handled ${later - atTerminate} more queued messages after terminate() returned (${atTerminate} before)`);
});
