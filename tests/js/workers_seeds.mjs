// The worker specs of the seed documents (/work/shared/seeds/000 and 001:
// "worker specs (message ordering, waitAsync inside a worker's own loop,
// reply racing an overdue waitAsync timeout, terminate-with-queued-work, 8x
// churn exercising the registry-refresh path)"), as hostloop contracts:
// W3 (order), J2 (platform tasks in workers), L8 (no lost wakeups), W4/L7
// (terminate drops queued work), L11/W5 (new runtimes never inherit a dead
// one's loop).
//
// A lost wakeup shows up as a hang; every wait has a generous failure bound
// so the test fails with a reason instead (the runner's timeout is the last
// resort).

import { test, assert, assertEquals } from './lib/assert.mjs';
import { fixture, nextMessage, request, collect, within, recordEvents, settle, spin } from './fixtures/workers/harness.mjs';

function waitAsyncWorker(name = '') {
  return new Worker(fixture('wait_async.mjs'), { type: 'module', name });
}

await test('W3 an echo worker returns 1, 2, 3 in order', async () => {
  const worker = new Worker(fixture('echo.mjs'), { type: 'module' });
  try {
    const replies = collect(worker, 3);
    worker.postMessage(1);
    worker.postMessage(2);
    worker.postMessage(3);
    assertEquals(await replies, [1, 2, 3]);
  } finally {
    worker.terminate();
  }
});

await test('W3 500 messages each way keep their order', async () => {
  const worker = new Worker(fixture('echo.mjs'), { type: 'module' });
  try {
    const expected = Array.from({ length: 500 }, (_, i) => i);
    const replies = collect(worker, expected.length);
    for (const value of expected) worker.postMessage(value);
    assertEquals(await replies, expected);
  } finally {
    worker.terminate();
  }
});

await test('J2 Atomics.waitAsync inside a worker resolves when the worker notifies itself', async () => {
  const worker = waitAsyncWorker();
  try {
    const reply = await request(worker, { op: 'self-notify' });
    assertEquals(reply.async, true);
    // The resolution's reaction runs before the task the notifier queued
    // after it (L5: a natively resolved promise beats later macrotasks).
    assertEquals(reply.order, ['notify', 'woke 1', 'resolved ok', 'later task']);
  } finally {
    worker.terminate();
  }
});

await test('J2 Atomics.waitAsync inside a worker resolves when main notifies through a SharedArrayBuffer', async () => {
  const worker = waitAsyncWorker();
  try {
    const ints = new Int32Array(new SharedArrayBuffer(8));
    assertEquals(await request(worker, { op: 'main-notify', ints }), 'waiting');
    const reply = nextMessage(worker);
    Atomics.store(ints, 1, 42);
    Atomics.store(ints, 0, 1);
    // The waiter registered before 'waiting' was posted, so exactly one wakes.
    assertEquals(Atomics.notify(ints, 0), 1, 'one waiter woken');
    assertEquals(await reply, { result: 'ok', value: 42 });
  } finally {
    worker.terminate();
  }
});

await test('J2 Atomics.waitAsync with a timeout resolves "timed-out" inside a worker', async () => {
  const worker = waitAsyncWorker();
  try {
    assertEquals(await request(worker, { op: 'timeout', ms: 5 }), 'timed-out');
  } finally {
    worker.terminate();
  }
});

await test('L8 a worker reply racing an overdue Atomics.waitAsync timeout on main is still delivered', async () => {
  const worker = waitAsyncWorker();
  try {
    assertEquals(await request(worker, 'warm up'), 'warm up');
    for (let round = 0; round < 5; round++) {
      const ints = new Int32Array(new SharedArrayBuffer(4));
      const wait = Atomics.waitAsync(ints, 0, 0, 10).value;
      const reply = nextMessage(worker);
      worker.postMessage(`ping ${round}`);
      // Main is busy while the worker's reply arrives and the 10 ms timeout
      // becomes overdue: both are due when the loop next looks.
      spin(40);
      const [waitResult, replyData] = await within(Promise.all([wait, reply]), 10000, `round ${round}: the timeout and the reply`);
      assertEquals(waitResult, 'timed-out', `round ${round}`);
      assertEquals(replyData, `ping ${round}`, `round ${round}`);
    }
  } finally {
    worker.terminate();
  }
});

await test('L8 a parent message racing an overdue Atomics.waitAsync timeout inside the worker is still delivered', async () => {
  const worker = waitAsyncWorker();
  try {
    for (let round = 0; round < 5; round++) {
      assertEquals(await request(worker, { op: 'race', ms: 10, spinMs: 40 }), 'spinning');
      const result = nextMessage(worker);
      worker.postMessage('poke');
      assertEquals(await result, { wait: 'timed-out', poked: 'poke' }, `round ${round}`);
    }
  } finally {
    worker.terminate();
  }
});

await test('W4 terminating a worker with queued timers, tasks and messages neither crashes nor hangs', async () => {
  for (let round = 0; round < 3; round++) {
    const ints = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(fixture('queued_work.mjs'), { type: 'module' });
    const events = recordEvents(worker);
    assertEquals(await request(worker, { ints }), 'armed');
    for (let i = 0; i < 200; i++) worker.postMessage(i);
    // Let the worker get through a few of them, so some replies are queued
    // on main's side too.
    await within((async () => { while (Atomics.load(ints, 0) < 3) await settle(1); })(), 10000, 'the first handled messages');
    const before = events.length;
    worker.terminate();
    const handled = Atomics.load(ints, 0);
    await settle(50);
    assertEquals(events.length, before, 'no event after terminate()');
    // (How promptly the worker stops is w4_terminate.mjs's business.)
    assert(Atomics.load(ints, 0) < 200, `queued messages were dropped (handled ${handled} before terminate(), ${Atomics.load(ints, 0)} in all)`);
  }
  // The main loop is healthy: a new worker echoes.
  const worker = new Worker(fixture('echo.mjs'), { type: 'module' });
  try {
    assertEquals(await request(worker, 'after'), 'after');
  } finally {
    worker.terminate();
  }
});

await test('W4 terminating a worker at every stage of its start-up neither crashes nor hangs', async () => {
  // Right after construction (the thread may not exist yet), with messages
  // queued for it; after its first reply; while its script is still loading.
  const events = [];
  for (let i = 0; i < 4; i++) {
    const worker = new Worker(fixture('queued_work.mjs'), { type: 'module' });
    events.push(recordEvents(worker));
    for (let j = 0; j < 10; j++) worker.postMessage(j);
    if (i % 2 === 1) await settle(i);
    worker.terminate();
  }
  await settle(50);
  assertEquals(events.flat(), [], 'no event after terminate()');
});

await test('W5 8 create/terminate cycles keep the loops healthy: each new worker echoes and runs platform tasks', async () => {
  for (let cycle = 0; cycle < 8; cycle++) {
    const worker = waitAsyncWorker(`cycle ${cycle}`);
    try {
      assertEquals(await request(worker, cycle), cycle, `cycle ${cycle} echo`);
      const reply = await request(worker, { op: 'self-notify' });
      assertEquals(reply.order, ['notify', 'woke 1', 'resolved ok', 'later task'], `cycle ${cycle} waitAsync`);
      assertEquals(await request(worker, { op: 'timeout', ms: 1 }), 'timed-out', `cycle ${cycle} delayed task`);
    } finally {
      worker.terminate();
    }
  }
  // And main's own platform tasks still run.
  const ints = new Int32Array(new SharedArrayBuffer(4));
  assertEquals(await within(Atomics.waitAsync(ints, 0, 0, 1).value, 5000, 'main waitAsync'), 'timed-out');
});
