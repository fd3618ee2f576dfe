// Spec tests for contract W2 across threads: worker.postMessage and
// self.postMessage use the structured clone algorithm; SharedArrayBuffer is
// shared, ArrayBuffers and MessagePorts in `transfer` move (the source is
// detached), anything uncloneable throws DataCloneError at the call.
// https://html.spec.whatwg.org/multipage/structured-data.html#structured-cloning
// https://html.spec.whatwg.org/multipage/workers.html#dom-worker-postmessage
// https://html.spec.whatwg.org/multipage/workers.html#dom-dedicatedworkerglobalscope-postmessage
// (Same-runtime structuredClone/MessageChannel: messaging_structured_clone.mjs.)

import { test, assert, assertDataCloneError, assertEquals } from './lib/assert.mjs';
import { fixture, nextMessage, request, collect, settle } from './fixtures/workers/harness.mjs';

const worker = new Worker(fixture('clone_echo.mjs'), { type: 'module', name: 'clone' });

function echo(value, transfer) {
  return request(worker, { op: 'echo', value }, transfer);
}

await test('W2 primitives and BigInt round-trip through a worker', async () => {
  const values = [undefined, null, true, false, 0, -0, 1.5, -1e300, NaN, Infinity, -Infinity,
    '', 'text', '\u{1f600} and a lone \ud800 surrogate', 0n, 12345678901234567890123n, -1n];
  const back = await echo(values);
  assertEquals(back.length, values.length);
  for (let i = 0; i < values.length; i++) {
    assert(Object.is(back[i], values[i]), `round trip of ${String(values[i])} (index ${i}): got ${String(back[i])}`);
  }
  // As the whole message (undefined is tested on its own at the end).
  for (const value of values.slice(1)) {
    assert(Object.is(await echo(value), value), `top-level round trip of ${String(value)}`);
  }
});

await test('W2 primitive wrappers, plain objects and arrays round-trip (own enumerable data only)', async () => {
  class Point {
    constructor() { this.x = 1; this.y = 2; }
  }
  const sparse = [1, , 3]; // eslint-disable-line no-sparse-arrays
  sparse.extra = 'kept';
  const back = await echo({
    wrappers: [new Number(3), new String('s'), new Boolean(false), Object(5n)],
    nested: { deep: { deeper: [1, 2, { three: 3 }] } },
    point: new Point(),
    get computed() { return 'getter value'; },
    [Symbol('dropped')]: 1,
    sparse,
  });
  assert(back.wrappers[0] instanceof Number && back.wrappers[0].valueOf() === 3);
  assert(back.wrappers[1] instanceof String && back.wrappers[1].valueOf() === 's');
  assert(back.wrappers[2] instanceof Boolean && back.wrappers[2].valueOf() === false);
  assertEquals(back.wrappers[3].valueOf(), 5n);
  assertEquals(back.nested, { deep: { deeper: [1, 2, { three: 3 }] } });
  assertEquals(Object.getPrototypeOf(back.point), Object.prototype, 'class instances lose their prototype');
  assertEquals(back.point, { x: 1, y: 2 });
  assertEquals(back.computed, 'getter value');
  assertEquals(Object.getOwnPropertySymbols(back).length, 0);
  assertEquals(back.sparse.length, 3);
  assert(!(1 in back.sparse), 'the hole stays a hole');
  assertEquals(back.sparse.extra, 'kept');
});

await test('W2 cycles and shared references survive the trip both ways', async () => {
  const shared = { shared: true };
  const graph = { a: shared, b: shared, list: [], map: new Map() };
  graph.self = graph;
  graph.list.push(graph.list);
  graph.map.set('me', graph.map);
  // In the worker's realm ...
  const seen = await request(worker, { op: 'inspect', value: graph, graph: true });
  assertEquals([seen.shared, seen.cycle, seen.arrayCycle, seen.mapCycle], [true, true, true, true]);
  // ... and back in main after the second clone.
  const back = await echo(graph);
  assert(back !== graph);
  assert(back.a === back.b, 'one shared object');
  assert(back.self === back, 'the object cycle');
  assert(back.list[0] === back.list, 'the array cycle');
  assert(back.map.get('me') === back.map, 'the Map cycle');
  assertEquals(back.a, { shared: true });
});

await test('W2 Date, RegExp, Map and Set round-trip through a worker', async () => {
  const date = new Date(Date.UTC(2020, 1, 29, 12, 34, 56, 789));
  const regexp = /a+(b)?\u{1f600}/giu;
  regexp.lastIndex = 3;
  const key = { key: true };
  const map = new Map([[1, 'one'], ['two', 2], [key, new Set([key])]]);
  const set = new Set([1, 'x', 2n, map]);
  const [d, r, m, s, invalid] = await echo([date, regexp, map, set, new Date(NaN)]);
  assert(d instanceof Date && d.getTime() === date.getTime(), 'Date');
  assert(invalid instanceof Date && Number.isNaN(invalid.getTime()), 'an invalid Date');
  assert(r instanceof RegExp && r.source === regexp.source && r.flags === regexp.flags, 'RegExp');
  assertEquals(r.lastIndex, 0, 'lastIndex is not cloned');
  assert(m instanceof Map && m.size === 3 && m.get(1) === 'one' && m.get('two') === 2, 'Map');
  const [clonedKey, clonedSet] = [...m].find(([k]) => typeof k === 'object');
  assertEquals(clonedKey, { key: true });
  assert(clonedSet.has(clonedKey), 'the Map key and the Set member are one object');
  assert(s instanceof Set && s.size === 4 && s.has(1) && s.has('x') && s.has(2n), 'Set');
  assert([...s].includes(m), 'the Set holds the same Map object as the array');
});

await test('W2 Error types round-trip with name and message, as the worker realm\'s errors', async () => {
  const errors = [new Error('plain'), new EvalError('eval'), new RangeError('range'),
    new ReferenceError('ref'), new SyntaxError('syntax'), new TypeError('type'), new URIError('uri')];
  const seen = await request(worker, { op: 'inspect', value: errors });
  assertEquals(seen.items.map((item) => [item.tag, item.proto, item.name, item.message, item.instanceOfOwnRealmError]),
    errors.map((error) => ['[object Error]', error.name, error.name, error.message, true]));
  const back = await echo(errors);
  for (let i = 0; i < errors.length; i++) {
    assertEquals(Object.getPrototypeOf(back[i]), Object.getPrototypeOf(errors[i]), `prototype of ${errors[i].name}`);
    assertEquals(back[i].message, errors[i].message);
    assertEquals(back[i].name, errors[i].name);
  }
});

await test('W2 ArrayBuffer, every typed array kind and DataView round-trip with their contents', async () => {
  const buffer = new ArrayBuffer(16);
  new Uint8Array(buffer).set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
  const kinds = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array,
    Uint32Array, Float32Array, Float64Array, BigInt64Array, BigUint64Array];
  const views = kinds.map((Kind) => new Kind(buffer, 8, 8 / Kind.BYTES_PER_ELEMENT));
  const dataView = new DataView(buffer, 4, 8);
  const [backBuffer, backViews, backDataView, sharing] = await echo([buffer, views, dataView, [views[0], views[1]]]);
  assert(backBuffer instanceof ArrayBuffer && backBuffer.byteLength === 16);
  assertEquals([...new Uint8Array(backBuffer)], [...new Uint8Array(buffer)]);
  assertEquals(buffer.byteLength, 16, 'cloning (not transferring) leaves the source intact');
  for (let i = 0; i < kinds.length; i++) {
    const view = backViews[i];
    assertEquals(Object.getPrototypeOf(view), kinds[i].prototype, kinds[i].name);
    assertEquals([view.byteOffset, view.length], [8, 8 / kinds[i].BYTES_PER_ELEMENT], kinds[i].name);
    assertEquals(view, views[i], `${kinds[i].name} contents`);
    assert(view.buffer === backBuffer, `${kinds[i].name} shares the one cloned buffer`);
  }
  assert(backDataView instanceof DataView && backDataView.byteOffset === 4 && backDataView.byteLength === 8);
  assertEquals(backDataView.getUint32(0), dataView.getUint32(0));
  assert(sharing[0].buffer === sharing[1].buffer, 'views on one buffer still share it');
});

await test('W2 uncloneable values throw DataCloneError at worker.postMessage, and nothing is sent', async () => {
  const cases = [
    ['a function', () => 1],
    ['a symbol', Symbol('s')],
    ['a WeakMap', new WeakMap()],
    ['a WeakSet', new WeakSet()],
    ['a Promise', Promise.resolve()],
    ['an object holding a function', { f() {} }],
    ['an array holding a symbol', [Symbol('x')]],
  ];
  for (const [what, value] of cases) {
    assertDataCloneError(() => worker.postMessage({ op: 'echo', value }), what);
  }
  const buffer = new ArrayBuffer(4);
  assertDataCloneError(() => worker.postMessage({ op: 'echo', value: 1 }, [buffer, buffer]), 'a buffer listed twice in transfer');
  assertEquals(buffer.byteLength, 4, 'a failed transfer does not detach');
  const sab = new SharedArrayBuffer(4);
  assertDataCloneError(() => worker.postMessage({ op: 'echo', value: sab }, [sab]), 'a SharedArrayBuffer in transfer');
  // Nothing of the failed calls reached the worker: the next reply is ours.
  assertEquals(await echo('after the failures'), 'after the failures');
});

await test('W2 uncloneable values throw DataCloneError at self.postMessage in the worker', async () => {
  const { report } = await request(worker, { op: 'uncloneable' });
  assertEquals(report.map((r) => r.what), ['function', 'symbol', 'WeakMap', 'object with a function', 'Promise']);
  for (const r of report) {
    assertEquals([r.threw, r.isDOMException, r.name, r.code], [true, true, 'DataCloneError', 25], r.what);
  }
  // The throwing calls sent nothing: the next message is an ordinary echo.
  assertEquals(await echo('next'), 'next');
});

await test('W2 a transferred ArrayBuffer moves to the worker and back (the source is detached each time)', async () => {
  const buffer = new ArrayBuffer(8);
  new Uint8Array(buffer)[0] = 7;
  const replies = collect(worker, 2);
  worker.postMessage({ op: 'transfer-back', buffer }, [buffer]);
  assertEquals(buffer.byteLength, 0, 'detached in main at the call');
  assertDataCloneError(() => worker.postMessage({ op: 'echo', value: buffer }, [buffer]), 'transferring a detached buffer');
  const [moved, after] = await replies;
  assertEquals(moved.received, { byteLength: 8, first: 7 });
  assertEquals(moved.buffer.byteLength, 8);
  assertEquals(new Uint8Array(moved.buffer)[0], 7);
  assertEquals(after.afterTransfer, 0, 'detached in the worker after it transferred it back');
});

await test('W2 the {transfer} options form transfers too', async () => {
  const buffer = new ArrayBuffer(4);
  const reply = nextMessage(worker);
  worker.postMessage({ op: 'echo', value: buffer }, { transfer: [buffer] });
  assertEquals(buffer.byteLength, 0);
  assertEquals((await reply).byteLength, 4);
});

await test('W2 a SharedArrayBuffer is the same memory in both threads (Atomics.wait in the worker, notify from main)', async () => {
  const ints = new Int32Array(new SharedArrayBuffer(12));
  assertEquals(await request(worker, { op: 'sab-wait', ints }), 'waiting');
  const reply = nextMessage(worker);
  Atomics.store(ints, 1, 1234);
  Atomics.store(ints, 0, 1);
  Atomics.notify(ints, 0);
  const { result, value } = await reply;
  // 'ok' if the worker was asleep in Atomics.wait, 'not-equal' if it had not
  // reached it yet; either way it sees main's write.
  assert(result === 'ok' || result === 'not-equal', `Atomics.wait result ${result}`);
  assertEquals(value, 1234, 'the worker read main\'s value');
  assertEquals(Atomics.load(ints, 2), 1235, 'main sees the worker\'s write');
});

await test('W2 a transferred MessagePort carries messages both ways between main and the worker', async () => {
  const { port1, port2 } = new MessageChannel();
  const onWorkerChannel = [];
  const workerListener = (event) => onWorkerChannel.push(event.data);
  const greeting = nextMessage(port1);
  port1.start(); // addEventListener does not start a port; onmessage would
  const ready = nextMessage(worker);
  worker.postMessage({ op: 'port', port: port2 }, [port2]);
  assertEquals(await ready, { ready: true, portsInEvent: true, isPort: true });
  worker.addEventListener('message', workerListener);
  try {
    assertEquals(await greeting, 'hello over the port', 'worker -> main over the port');
    const replies = collect(port1, 3);
    port1.postMessage(1);
    port1.postMessage({ two: 2 });
    port1.postMessage([3]);
    assertEquals(await replies, [
      { via: 'port', echo: 1 },
      { via: 'port', echo: { two: 2 } },
      { via: 'port', echo: [3] },
    ], 'main -> worker -> main over the port');
    assertEquals(onWorkerChannel, [], 'nothing went over the worker\'s own channel');
  } finally {
    worker.removeEventListener('message', workerListener);
  }
  assertEquals(await request(worker, { op: 'close-port' }), 'port closed');
  port1.close();
});

await test('W2 an uncloneable value still throws DataCloneError after terminate(); a cloneable one is ignored', async () => {
  const other = new Worker(fixture('echo.mjs'), { type: 'module' });
  assertEquals(await request(other, 1), 1);
  other.terminate();
  assertDataCloneError(() => other.postMessage(() => 1), 'a function to a terminated worker');
  let received = 0;
  other.onmessage = () => received++;
  other.postMessage('ignored');
  await settle(20);
  assertEquals(received, 0);
});

// Last, so that a failure here does not hide the tests above.
await test('W2 undefined as the whole message arrives as undefined, not null, both ways', async () => {
  // HTML: the message event's data is initialized to the deserialized clone
  // itself (https://html.spec.whatwg.org/multipage/web-messaging.html#message-port-post-message-steps);
  // only the MessageEvent constructor's dictionary defaults an absent data to null.
  assertEquals(await request(worker, null), { topLevel: 'null' });
  assertEquals(await request(worker, undefined), { topLevel: 'undefined' }, 'what the worker received');
  const back = await echo(undefined);
  assert(back === undefined, `main received ${back === null ? 'null' : String(back)} for undefined`);
});

worker.terminate();
