// Spec tests for contract J6 (macrotasks) and L3 (ordered lane order):
// scheduler.postTask and scheduler.yield (https://wicg.github.io/scheduling-apis/),
// queueMicrotask (https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#microtask-queuing),
// and MessageChannel deliveries as tasks
// (https://html.spec.whatwg.org/multipage/web-messaging.html#channel-messaging).

import { test, assert, assertEquals, assertRejects, assertThrows, collectErrors, delay, waitFor } from './lib/assert.mjs';

// Resolves after `count` microtask hops.
async function microtaskHops(count) {
  for (let i = 0; i < count; i++) await null;
}

// ---------------------------------------------------------------------------
// scheduler.postTask
// ---------------------------------------------------------------------------

await test('J6 postTask runs after the current turn\'s microtasks', async () => {
  const log = [];
  const done = scheduler.postTask(() => log.push('task'));
  queueMicrotask(() => log.push('microtask'));
  Promise.resolve().then(() => log.push('promise')).then(() => log.push('promise2'));
  await done;
  assertEquals(log, ['microtask', 'promise', 'promise2', 'task']);
});

await test('L3 default-priority postTask is FIFO with setTimeout(0): postTask(a); setTimeout(b, 0); postTask(c) => a b c', async () => {
  const log = [];
  scheduler.postTask(() => log.push('a'));
  setTimeout(() => log.push('b'), 0);
  scheduler.postTask(() => log.push('c'));
  await waitFor(() => log.length === 3);
  assertEquals(log, ['a', 'b', 'c']);

  // The same, interleaved 100 times.
  const many = [];
  for (let i = 0; i < 100; i++) {
    if (i % 2 === 0) scheduler.postTask(() => many.push(i));
    else setTimeout(() => many.push(i), 0);
  }
  await waitFor(() => many.length === 100);
  assertEquals(many, Array.from({ length: 100 }, (_, i) => i));
});

await test('J6 priorities: among due tasks user-blocking first, then user-visible, then background; FIFO within one', async () => {
  const log = [];
  const posts = [
    ['bg1', 'background'], ['uv1', 'user-visible'], ['ub1', 'user-blocking'],
    ['bg2', 'background'], ['uv2', undefined], ['ub2', 'user-blocking'],
  ].map(([name, priority]) => scheduler.postTask(() => log.push(name), priority ? { priority } : {}));
  await Promise.all(posts);
  assertEquals(log, ['ub1', 'ub2', 'uv1', 'uv2', 'bg1', 'bg2']);
});

await test('J6 a TaskController signal carries its priority; setPriority moves queued tasks', async () => {
  const log = [];
  const controller = new TaskController({ priority: 'background' });
  const posts = [
    scheduler.postTask(() => log.push('uv'), {}),
    scheduler.postTask(() => log.push('followsSignal'), { signal: controller.signal }),
  ];
  let changes = 0;
  controller.signal.addEventListener('prioritychange', (event) => {
    changes++;
    assertEquals(event.previousPriority, 'background');
  });
  controller.setPriority('user-blocking');
  await Promise.all(posts);
  assertEquals(log, ['followsSignal', 'uv']);
  assertEquals(changes, 1);
});

await test('J6 the delay option: not before the delay, and due order among delayed tasks', async () => {
  const log = [];
  const started = performance.now();
  let ranAt = 0;
  const posts = [
    scheduler.postTask(() => { log.push('late'); ranAt = performance.now(); }, { delay: 30 }),
    scheduler.postTask(() => log.push('early'), { delay: 5 }),
    scheduler.postTask(() => log.push('now')),
  ];
  await Promise.all(posts);
  assertEquals(log, ['now', 'early', 'late']);
  assert(ranAt - started >= 30 - 0.5, `a 30 ms delayed task ran after ${(ranAt - started).toFixed(2)} ms`);
});

await test('J6 aborting the signal rejects with the reason and the callback never runs', async () => {
  const controller = new AbortController();
  let ran = false;
  const reason = new Error('J6 abort reason');
  const promise = scheduler.postTask(() => { ran = true; }, { signal: controller.signal });
  controller.abort(reason);
  const error = await assertRejects(promise);
  assert(error === reason, 'rejected with the abort reason');
  // Also for a delayed task, and with the default reason.
  const delayed = new TaskController();
  const delayedPromise = scheduler.postTask(() => { ran = true; }, { signal: delayed.signal, delay: 5 });
  await delay(1);
  delayed.abort();
  const defaultReason = await assertRejects(delayedPromise);
  assert(defaultReason instanceof DOMException, 'the default reason is a DOMException');
  assertEquals(defaultReason.name, 'AbortError');
  await delay(20);
  assertEquals(ran, false, 'an aborted callback never runs');
});

await test('J6 an already-aborted signal rejects at once (before any task runs)', async () => {
  let ran = false;
  let rejection = null;
  const reason = 'J6 already aborted';
  const promise = scheduler.postTask(() => { ran = true; }, { signal: AbortSignal.abort(reason) });
  promise.catch((error) => { rejection = error; });
  await microtaskHops(3);
  assertEquals(rejection, reason);
  await delay(5);
  assertEquals(ran, false);
});

await test('J6 the callback\'s return value resolves the promise; its exception rejects it and is not an error event', async () => {
  const events = await collectErrors(async () => {
    const object = { v: 1 };
    assert(await scheduler.postTask(() => object) === object, 'resolved with the return value');
    const thrown = new Error('J6 thrown by a posted task');
    const error = await assertRejects(scheduler.postTask(() => { throw thrown; }));
    assert(error === thrown, 'rejected with the exception');
    await delay(5);
  });
  assertEquals(events.length, 0, 'no error event for a postTask callback exception');
});

await test('J6 a non-function callback gives a rejected promise with TypeError, not a throw', async () => {
  for (const callback of [undefined, null, 42, 'code', {}]) {
    let promise;
    try {
      promise = scheduler.postTask(callback);
    } catch (error) {
      throw new Error(`postTask(${String(callback)}) threw synchronously: ${error}`);
    }
    assert(promise instanceof Promise, 'a promise');
    await assertRejects(promise, TypeError);
  }
  // Invalid options reject too.
  await assertRejects(scheduler.postTask(() => {}, { priority: 'urgent' }), TypeError);
  await assertRejects(scheduler.postTask(() => {}, { signal: {} }), TypeError);
});

// ---------------------------------------------------------------------------
// scheduler.yield
// ---------------------------------------------------------------------------

await test('J6 scheduler.yield() resolves in a later task, after all pending microtasks', async () => {
  const log = [];
  const yielded = scheduler.yield().then(() => log.push('yield'));
  let chain = Promise.resolve();
  for (let i = 0; i < 100; i++) chain = chain.then(() => log.push(`micro${i}`));
  await yielded;
  assertEquals(log.length, 101);
  assertEquals(log[100], 'yield');
});

await test('J6 a yield continuation runs before an earlier-posted task of the same priority', async () => {
  const log = [];
  const task = scheduler.postTask(() => log.push('task'));
  const cont = scheduler.yield().then(() => log.push('continuation'));
  await Promise.all([task, cont]);
  assertEquals(log, ['continuation', 'task']);
});

// ---------------------------------------------------------------------------
// queueMicrotask
// ---------------------------------------------------------------------------

await test('J6 queueMicrotask runs before the next macrotask', async () => {
  const log = [];
  setTimeout(() => log.push('timeout'), 0);
  scheduler.postTask(() => log.push('postTask'));
  queueMicrotask(() => {
    log.push('microtask');
    queueMicrotask(() => log.push('nested microtask'));
  });
  await waitFor(() => log.length === 4);
  assertEquals(log, ['microtask', 'nested microtask', 'timeout', 'postTask']);
});

await test('J6 an exception in a queueMicrotask callback is reported via the error event; later microtasks still run', async () => {
  const log = [];
  const thrown = new Error('J6 from a microtask');
  const events = await collectErrors(async (events) => {
    queueMicrotask(() => { throw thrown; });
    queueMicrotask(() => log.push('next microtask'));
    await waitFor(() => events.length === 1);
  });
  assert(events[0].error === thrown, 'event.error is the exception');
  assertEquals(log, ['next microtask']);
});

await test('J6 queueMicrotask with a non-function throws TypeError', () => {
  assertThrows(() => queueMicrotask(), TypeError);
  assertThrows(() => queueMicrotask(42), TypeError);
  assertThrows(() => queueMicrotask('code'), TypeError);
});

// ---------------------------------------------------------------------------
// MessageChannel
// ---------------------------------------------------------------------------

await test('J6 MessageChannel deliveries are separate tasks: a microtask from message 1 runs before message 2', async () => {
  const log = [];
  const { port1, port2 } = new MessageChannel();
  port2.onmessage = (event) => {
    log.push(`message ${event.data}`);
    queueMicrotask(() => log.push(`microtask ${event.data}`));
    Promise.resolve().then(() => log.push(`promise ${event.data}`));
  };
  port1.postMessage(1);
  port1.postMessage(2);
  await waitFor(() => log.length === 6);
  port2.close();
  assertEquals(log, ['message 1', 'microtask 1', 'promise 1', 'message 2', 'microtask 2', 'promise 2']);
});

await test('J4 an exception in a MessagePort onmessage listener is reported via the error event; delivery goes on', async () => {
  const { port1, port2 } = new MessageChannel();
  const received = [];
  const events = await collectErrors(async (events) => {
    port2.onmessage = (event) => {
      received.push(event.data);
      if (event.data === 1) throw new Error('J4 from onmessage');
    };
    port1.postMessage(1);
    port1.postMessage(2);
    await waitFor(() => events.length === 1 && received.length === 2);
  });
  port2.close();
  assertEquals(events[0].error.message, 'J4 from onmessage');
  assertEquals(received, [1, 2]);
});

await test('J6 setting onmessage starts the port; addEventListener does not until start()', async () => {
  const { port1, port2 } = new MessageChannel();
  const received = [];
  port2.addEventListener('message', (event) => received.push(event.data));
  port1.postMessage('queued');
  await delay(20);
  assertEquals(received, [], 'no delivery before start()');
  port2.start();
  await waitFor(() => received.length === 1);
  assertEquals(received, ['queued']);

  const other = new MessageChannel();
  const viaHandler = [];
  other.port1.postMessage('x');
  other.port2.onmessage = (event) => viaHandler.push(event.data);
  await waitFor(() => viaHandler.length === 1);
  assertEquals(viaHandler, ['x']);
  port2.close();
  other.port2.close();
});

await test('J6 close() stops delivery: to a closed port, and from a closed port', async () => {
  const received = [];
  const a = new MessageChannel();
  a.port1.onmessage = (event) => received.push(`a:${event.data}`);
  a.port1.close();
  a.port2.postMessage('to closed port');
  const b = new MessageChannel();
  b.port1.onmessage = (event) => received.push(`b:${event.data}`);
  b.port2.close();
  b.port2.postMessage('from closed port');
  // A control message on a live channel, posted last.
  const c = new MessageChannel();
  c.port1.onmessage = (event) => received.push(`c:${event.data}`);
  c.port2.postMessage('control');
  await waitFor(() => received.includes('c:control'));
  await delay(20);
  c.port1.close();
  assertEquals(received, ['c:control']);
});

await test('J6 messages on one port keep their order (1000 messages, both directions)', async () => {
  const { port1, port2 } = new MessageChannel();
  const atPort2 = [];
  const atPort1 = [];
  port2.onmessage = (event) => atPort2.push(event.data);
  port1.onmessage = (event) => atPort1.push(event.data);
  for (let i = 0; i < 1000; i++) {
    port1.postMessage(i);
    port2.postMessage(-i);
  }
  await waitFor(() => atPort2.length === 1000 && atPort1.length === 1000);
  port1.close();
  assertEquals(atPort2, Array.from({ length: 1000 }, (_, i) => i));
  assertEquals(atPort1, Array.from({ length: 1000 }, (_, i) => -i));
});

await test('L3 MessagePort deliveries within one runtime are FIFO with postTask', async () => {
  const log = [];
  const { port1, port2 } = new MessageChannel();
  port2.onmessage = (event) => log.push(event.data);
  scheduler.postTask(() => log.push('task 1'));
  port1.postMessage('message 1');
  scheduler.postTask(() => log.push('task 2'));
  port1.postMessage('message 2');
  await waitFor(() => log.length === 4);
  port2.close();
  assertEquals(log, ['task 1', 'message 1', 'task 2', 'message 2']);
});

// Last, so the tests above run even while it fails.
await test('J6 TaskController.signal is a TaskSignal with a priority attribute', () => {
  // https://wicg.github.io/scheduling-apis/#sec-task-signal:
  // interface TaskSignal : AbortSignal { readonly attribute TaskPriority priority; ... }
  const controller = new TaskController({ priority: 'background' });
  assert(controller.signal instanceof AbortSignal);
  assertEquals(controller.signal.priority, 'background');
  assertEquals(typeof TaskSignal, 'function', 'the TaskSignal interface is exposed');
  assert(controller.signal instanceof TaskSignal);
  assert('onprioritychange' in controller.signal, 'onprioritychange attribute');
  controller.setPriority('user-blocking');
  assertEquals(controller.signal.priority, 'user-blocking');
  assertEquals(new TaskController().signal.priority, 'user-visible');
});

await test('J6 setPriority from inside the signal\'s own prioritychange throws NotAllowedError', () => {
  // https://wicg.github.io/scheduling-apis/#tasksignal-signal-priority-change step 1
  const controller = new TaskController();
  const seen = [];
  controller.signal.onprioritychange = () => {
    try {
      controller.setPriority('background');
      seen.push('allowed');
    } catch (error) {
      seen.push(`${error.name} ${error instanceof DOMException}`);
    }
  };
  controller.setPriority('user-blocking');
  assertEquals(seen, ['NotAllowedError true'], 'one event, the nested call refused');
  assertEquals(controller.signal.priority, 'user-blocking');
  controller.setPriority('background');  // allowed again once the event is over
  assertEquals(controller.signal.priority, 'background');
  assertEquals(seen.length, 2, 'a second event');
});
