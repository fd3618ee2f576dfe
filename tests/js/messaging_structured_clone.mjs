// Spec tests for structuredClone and MessagePort transfer (contract W2):
// https://html.spec.whatwg.org/multipage/structured-data.html#structured-cloning
// https://html.spec.whatwg.org/multipage/structured-data.html#dom-structuredclone
// https://html.spec.whatwg.org/multipage/web-messaging.html#message-ports

import { test, assert, assertDataCloneError, assertEquals, assertThrows, waitFor } from './lib/assert.mjs';

// ---------------------------------------------------------------------------
// Round trips
// ---------------------------------------------------------------------------

await test('W2 structuredClone round-trips primitives and BigInt', () => {
  const values = [undefined, null, true, false, 0, 1.5, -1e300, NaN, Infinity, -Infinity,
    '', 'text', '\u{1f600} and a lone \ud800 surrogate', 0n, 12345678901234567890123n, -1n];
  for (const value of values) {
    assert(Object.is(structuredClone(value), value), `round trip of ${String(value)}`);
  }
  assert(Object.is(structuredClone(-0), -0), '-0 stays -0');
});

await test('W2 structuredClone round-trips primitive wrapper objects', () => {
  const clone = structuredClone([new Number(3), new String('s'), new Boolean(false), Object(5n)]);
  assert(clone[0] instanceof Number && clone[0].valueOf() === 3);
  assert(clone[1] instanceof String && clone[1].valueOf() === 's');
  assert(clone[2] instanceof Boolean && clone[2].valueOf() === false);
  assertEquals(typeof clone[3], 'object');
  assertEquals(clone[3].valueOf(), 5n);
});

await test('W2 structuredClone copies plain objects and arrays (own enumerable string keys, no prototype)', () => {
  class Point {
    constructor() { this.x = 1; this.y = 2; }
    get sum() { return this.x + this.y; }
  }
  const source = {
    nested: { deep: { deeper: [1, 2, { three: 3 }] } },
    point: new Point(),
    get computed() { return 'getter value'; },
    [Symbol('dropped')]: 1,
  };
  Object.defineProperty(source, 'hidden', { value: 'not enumerable', enumerable: false });
  const clone = structuredClone(source);
  assert(clone !== source && clone.nested !== source.nested, 'a copy');
  assertEquals(clone.nested, { deep: { deeper: [1, 2, { three: 3 }] } });
  assertEquals(Object.getPrototypeOf(clone.point), Object.prototype);
  assertEquals(clone.point, { x: 1, y: 2 });
  assertEquals(clone.computed, 'getter value');
  assertEquals(Object.getOwnPropertySymbols(clone).length, 0);
  assertEquals('hidden' in clone, false);

  const sparse = [1, , 3];
  sparse.extra = 'prop';
  const sparseClone = structuredClone(sparse);
  assertEquals(sparseClone.length, 3);
  assertEquals(1 in sparseClone, false, 'holes stay holes');
  assertEquals(sparseClone.extra, 'prop');
});

await test('W2 structuredClone round-trips Date and RegExp', () => {
  const date = new Date(Date.UTC(2020, 1, 29, 12, 34, 56, 789));
  const dateClone = structuredClone(date);
  assert(dateClone instanceof Date && dateClone !== date);
  assertEquals(dateClone.getTime(), date.getTime());
  assert(Number.isNaN(structuredClone(new Date(NaN)).getTime()), 'an invalid date stays invalid');

  const regexp = /a(b+)c/giu;
  regexp.lastIndex = 3;
  const regexpClone = structuredClone(regexp);
  assert(regexpClone instanceof RegExp && regexpClone !== regexp);
  assertEquals(regexpClone.source, 'a(b+)c');
  assertEquals(regexpClone.flags, 'giu');
  assertEquals(regexpClone.lastIndex, 0, 'lastIndex is not serialized');
});

await test('W2 structuredClone round-trips Map and Set, keys and values cloned', () => {
  const key = { k: 1 };
  const map = new Map([[key, 'object key'], ['s', { v: [1, 2] }], [1n, new Set([1])]]);
  const clone = structuredClone(map);
  assert(clone instanceof Map && clone !== map);
  assertEquals(clone.size, 3);
  const [[clonedKey, first], second, third] = [...clone];
  assert(clonedKey !== key, 'object keys are cloned');
  assertEquals(clonedKey, { k: 1 });
  assertEquals(first, 'object key');
  assertEquals(second, ['s', { v: [1, 2] }]);
  assertEquals(third[0], 1n);
  assert(third[1] instanceof Set && third[1].has(1));
  const set = new Set(['a', 1, { o: true }]);
  const setClone = structuredClone(set);
  assertEquals([...setClone], ['a', 1, { o: true }]);
});

await test('W2 structuredClone round-trips the Error types (name and message)', () => {
  const types = [Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError];
  for (const Type of types) {
    const clone = structuredClone(new Type(`a ${Type.name}`));
    assert(clone instanceof Type, `${Type.name}: prototype`);
    assertEquals(clone.name, Type.name);
    assertEquals(clone.message, `a ${Type.name}`);
  }
  // A name that is not one of the standard ones becomes "Error".
  const custom = new Error('custom');
  custom.name = 'CustomError';
  const customClone = structuredClone(custom);
  assert(customClone instanceof Error);
  assertEquals(customClone.name, 'Error');
  assertEquals(customClone.message, 'custom');
  // No message stays no message.
  assertEquals(Object.prototype.hasOwnProperty.call(structuredClone(new Error()), 'message'), false);
});

await test('W2 structuredClone round-trips ArrayBuffer, every typed array and DataView', () => {
  const buffer = new ArrayBuffer(16);
  new Uint8Array(buffer).set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
  const bufferClone = structuredClone(buffer);
  assert(bufferClone instanceof ArrayBuffer && bufferClone !== buffer);
  assertEquals(new Uint8Array(bufferClone), new Uint8Array(buffer));
  new Uint8Array(bufferClone)[0] = 99;
  assertEquals(new Uint8Array(buffer)[0], 1, 'the clone is a copy');

  const types = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array,
    Uint32Array, Float32Array, Float64Array, BigInt64Array, BigUint64Array];
  for (const Type of types) {
    const source = new Type(4);
    for (let i = 0; i < 4; i++) source[i] = Type.name.startsWith('Big') ? BigInt(i * 3) : i * 3;
    const clone = structuredClone(source);
    assert(clone instanceof Type, `${Type.name}: type`);
    assertEquals(clone.length, 4);
    assertEquals([...clone], [...source], `${Type.name}: content`);
  }
  const view = new DataView(buffer, 4, 8);
  const viewClone = structuredClone(view);
  assert(viewClone instanceof DataView);
  assertEquals(viewClone.byteOffset, 4);
  assertEquals(viewClone.byteLength, 8);
  assertEquals(viewClone.getUint8(0), 5);
});

await test('W2 structuredClone preserves cycles and shared references', () => {
  const shared = { shared: true };
  const source = { a: shared, b: shared, list: [shared] };
  source.self = source;
  source.list.push(source.list);
  const map = new Map();
  map.set('me', map);
  source.map = map;
  const clone = structuredClone(source);
  assert(clone.self === clone, 'a self-cycle');
  assert(clone.a === clone.b && clone.list[0] === clone.a, 'shared references stay shared');
  assert(clone.a !== shared, 'but are copies');
  assert(clone.list[1] === clone.list, 'an array containing itself');
  assert(clone.map.get('me') === clone.map, 'a Map containing itself');

  // Views over one buffer still share one (cloned) buffer.
  const buffer = new ArrayBuffer(8);
  const pair = structuredClone([new Uint8Array(buffer), new Uint16Array(buffer, 2, 1)]);
  assert(pair[0].buffer === pair[1].buffer, 'two views keep one buffer');
  pair[0][2] = 0xff;
  pair[0][3] = 0xff;
  assertEquals(pair[1][0], 0xffff);
});

await test('W2 a SharedArrayBuffer is shared, not copied', () => {
  const sab = new SharedArrayBuffer(8);
  const clone = structuredClone(sab);
  assert(clone instanceof SharedArrayBuffer);
  new Int32Array(clone)[0] = 42;
  assertEquals(new Int32Array(sab)[0], 42, 'writes through the clone are visible in the source');
});

// ---------------------------------------------------------------------------
// DataCloneError
// ---------------------------------------------------------------------------

await test('W2 functions, symbols and other uncloneables throw DataCloneError (a DOMException)', () => {
  assertDataCloneError(() => structuredClone(() => {}), 'a function');
  assertDataCloneError(() => structuredClone({ nested: { f: function named() {} } }), 'a nested function');
  assertDataCloneError(() => structuredClone(Symbol('s')), 'a symbol');
  assertDataCloneError(() => structuredClone([Symbol.iterator]), 'a symbol in an array');
  assertDataCloneError(() => structuredClone(new WeakMap()), 'a WeakMap');
  assertDataCloneError(() => structuredClone(Promise.resolve()), 'a promise');
  assertDataCloneError(() => structuredClone(new MessageChannel().port1), 'a MessagePort not in transfer');
});

await test('W2 a detached ArrayBuffer throws DataCloneError', () => {
  const buffer = new ArrayBuffer(8);
  structuredClone(buffer, { transfer: [buffer] });
  assertEquals(buffer.byteLength, 0, 'detached');
  assertDataCloneError(() => structuredClone(buffer), 'a detached buffer');
  assertDataCloneError(() => structuredClone(buffer, { transfer: [buffer] }), 'transferring a detached buffer');
});

await test('W2 invalid transfer lists throw DataCloneError; a non-iterable transfer throws TypeError', () => {
  const buffer = new ArrayBuffer(4);
  assertDataCloneError(() => structuredClone(buffer, { transfer: [buffer, buffer] }), 'a duplicate in transfer');
  assertEquals(buffer.byteLength, 4, 'a failed clone detaches nothing');
  assertDataCloneError(() => structuredClone(1, { transfer: [new SharedArrayBuffer(4)] }), 'a SharedArrayBuffer in transfer');
  assertThrows(() => structuredClone(1, { transfer: 5 }), TypeError);
  assertThrows(() => structuredClone(), TypeError);
});

// ---------------------------------------------------------------------------
// Transfer
// ---------------------------------------------------------------------------

await test('W2 transfer detaches the source ArrayBuffer and moves its contents', () => {
  const buffer = new ArrayBuffer(8);
  const view = new Uint8Array(buffer);
  view.set([1, 2, 3, 4, 5, 6, 7, 8]);
  const clone = structuredClone({ view }, { transfer: [buffer] });
  assertEquals(buffer.byteLength, 0, 'the source buffer is detached');
  assertEquals(view.length, 0, 'its views are empty');
  assertEquals([...clone.view], [1, 2, 3, 4, 5, 6, 7, 8]);
  assertEquals(clone.view.buffer.byteLength, 8);
});

await test('W2 MessagePort.postMessage transfers an ArrayBuffer (the source is detached at the call)', async () => {
  const { port1, port2 } = new MessageChannel();
  let received = null;
  port2.onmessage = (event) => { received = event.data; };
  const buffer = new Uint8Array([9, 8, 7]).buffer;
  port1.postMessage({ buffer }, [buffer]);
  assertEquals(buffer.byteLength, 0);
  await waitFor(() => received !== null);
  port2.close();
  assertEquals([...new Uint8Array(received.buffer)], [9, 8, 7]);
});

await test('W2 postMessage of an uncloneable value throws DataCloneError at the call', () => {
  const { port1, port2 } = new MessageChannel();
  assertDataCloneError(() => port1.postMessage(() => {}), 'posting a function');
  assertDataCloneError(() => port1.postMessage(Symbol('x')), 'posting a symbol');
  port1.close();
  port2.close();
});

await test('W2 a MessagePort transferred through a MessageChannel arrives in event.ports and works', async () => {
  const carrier = new MessageChannel();
  const inner = new MessageChannel();
  let arrived = null;
  carrier.port2.onmessage = (event) => { arrived = event; };
  carrier.port1.postMessage({ note: 'here is a port' }, [inner.port2]);
  await waitFor(() => arrived !== null);
  assertEquals(arrived.data, { note: 'here is a port' });
  assert(Array.isArray(arrived.ports) && Object.isFrozen(arrived.ports), 'event.ports is a frozen array');
  assertEquals(arrived.ports.length, 1);
  const port = arrived.ports[0];
  assert(port instanceof MessagePort, 'a MessagePort');

  // Both directions work through the transferred port.
  const atTransferred = [];
  const atInner1 = [];
  port.onmessage = (event) => atTransferred.push(event.data);
  inner.port1.onmessage = (event) => atInner1.push(event.data);
  inner.port1.postMessage('to the transferred port');
  port.postMessage('from the transferred port');
  await waitFor(() => atTransferred.length === 1 && atInner1.length === 1);
  assertEquals(atTransferred, ['to the transferred port']);
  assertEquals(atInner1, ['from the transferred port']);

  // A port can be transferred again, and a transferred port cannot be
  // transferred a second time from its old object.
  assertDataCloneError(() => carrier.port1.postMessage(null, [inner.port2]), 'a port already transferred');
  for (const p of [carrier.port1, carrier.port2, inner.port1, port]) p.close();
});

await test('W2 structuredClone with a MessagePort in transfer gives a working port', async () => {
  const { port1, port2 } = new MessageChannel();
  const cloned = structuredClone({ port: port2 }, { transfer: [port2] });
  assert(cloned.port instanceof MessagePort && cloned.port !== port2);
  const received = [];
  cloned.port.onmessage = (event) => received.push(event.data);
  port1.postMessage('through the cloned port');
  await waitFor(() => received.length === 1);
  assertEquals(received, ['through the cloned port']);
  port1.close();
  cloned.port.close();
});
