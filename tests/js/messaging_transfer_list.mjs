// The transfer list of structuredClone and postMessage, as HTML and WebIDL
// define it:
//  - an object in the transfer list that serialization itself transfers
//    away (a getter in the value) is a DataCloneError after serializing
//    (HTML StructuredSerializeWithTransfer); a MessagePort there crashed the
//    process (a null port core was sent), an ArrayBuffer came out empty;
//  - sequence<object>: a primitive in the list is a TypeError (it was a
//    DataCloneError); the list is read through its @@iterator, once, even for
//    an Array with its own @@iterator; the options' `transfer` member is read
//    once; a function is a valid options dictionary.

import { test, assert, assertEquals, assertThrows, assertDataCloneError } from './lib/assert.mjs';

await test('a port transferred away during serialization: DataCloneError, no crash', async () => {
  const { port1 } = new MessageChannel();
  const value = {
    get a() {
      structuredClone(port1, { transfer: [port1] });
      return 1;
    },
  };
  assertDataCloneError(() => structuredClone(value, { transfer: [port1] }), 'port moved mid-clone');

  const { port1: sent } = new MessageChannel();
  const channel = new MessageChannel();
  const message = {
    get a() {
      structuredClone(sent, { transfer: [sent] });
      return 1;
    },
  };
  assertDataCloneError(() => channel.port1.postMessage(message, [sent]), 'through postMessage');
  channel.port1.close();
});

await test('an ArrayBuffer detached during serialization: DataCloneError', () => {
  const buffer = new ArrayBuffer(4);
  const value = {
    get a() {
      structuredClone(buffer, { transfer: [buffer] });
      return 1;
    },
    buffer,
  };
  assertDataCloneError(() => structuredClone(value, { transfer: [buffer] }), 'buffer detached mid-clone');
});

await test('primitives in the transfer list are a TypeError', () => {
  for (const item of [1, 'x', null, undefined, true, Symbol('s')]) {
    assertThrows(() => structuredClone(0, { transfer: [item] }), TypeError, undefined, String(item));
    const { port1 } = new MessageChannel();
    assertThrows(() => port1.postMessage(0, [item]), TypeError, undefined, `postMessage ${String(item)}`);
    port1.close();
  }
  // A non-transferable object is still a DataCloneError.
  assertDataCloneError(() => structuredClone(0, { transfer: [{}] }), 'plain object');
});

await test('the transfer member and @@iterator are read once', () => {
  let reads = 0;
  const buffer = new ArrayBuffer(4);
  structuredClone(buffer, {
    get transfer() {
      reads++;
      return [buffer];
    },
  });
  assertEquals(reads, 1, 'transfer getter reads');
  assertEquals(buffer.byteLength, 0, 'transferred');

  let iteratorReads = 0;
  const other = new ArrayBuffer(4);
  const iterable = {
    get [Symbol.iterator]() {
      iteratorReads++;
      return function* () {
        yield other;
      };
    },
  };
  structuredClone(other, { transfer: iterable });
  assertEquals(iteratorReads, 1, '@@iterator reads');
  assertEquals(other.byteLength, 0);
});

await test('an Array with its own @@iterator is read through it', () => {
  const buffer = new ArrayBuffer(4);
  const list = [];
  list[Symbol.iterator] = function* () {
    yield buffer;
  };
  structuredClone(buffer, { transfer: list });
  assertEquals(buffer.byteLength, 0, 'the iterator supplied the buffer');
});

await test('a function is a valid options dictionary', () => {
  const buffer = new ArrayBuffer(4);
  const options = () => {};
  options.transfer = [buffer];
  structuredClone(buffer, options);
  assertEquals(buffer.byteLength, 0);
  assertThrows(() => structuredClone(0, 5), TypeError);
  assertThrows(() => structuredClone(0, { transfer: 5 }), TypeError);
});

assert(true);

await test("a WebAssembly.Memory's buffer cannot be transferred: TypeError, and nothing moves", () => {
  // HTML's transfer steps "? DetachArrayBuffer" it, and its detach key is
  // not undefined. (It was a DataCloneError saying the buffer was detached.)
  const memory = new WebAssembly.Memory({ initial: 1 });
  const other = new ArrayBuffer(8);
  const { port1, port2 } = new MessageChannel();
  try {
    assertThrows(() => structuredClone(memory.buffer, { transfer: [other, memory.buffer] }), TypeError);
    assertThrows(() => port1.postMessage(0, [memory.buffer]), TypeError);
    assertEquals(memory.buffer.byteLength, 65536);
    assertEquals(other.byteLength, 8, 'the other buffer stays');
    // A detached buffer is still a DataCloneError.
    structuredClone(other, { transfer: [other] });
    assertDataCloneError(() => structuredClone(other, { transfer: [other] }));
  } finally {
    port1.close();
    port2.close();
  }
});

await test('a closed MessagePort is detached: transferring it is a DataCloneError', () => {
  // HTML: close() sets [[Detached]]; StructuredSerializeWithTransfer throws
  // for a detached transferable (it was sent, and arrived dead).
  const { port1, port2 } = new MessageChannel();
  const carrier = new MessageChannel();
  port1.close();
  assertDataCloneError(() => structuredClone(port1, { transfer: [port1] }), 'structuredClone');
  assertDataCloneError(() => carrier.port1.postMessage(port1, [port1]), 'postMessage');
  // Its partner is only disentangled, not detached: it still moves.
  const moved = structuredClone(port2, { transfer: [port2] });
  assert(moved instanceof MessagePort, 'the partner of a closed port is transferable');
  moved.close();
  carrier.port1.close();
});

await test('a port closed by a getter during serialization still posts to its former partner', async () => {
  // HTML "message port post message steps": the target port is taken before
  // serializing, and the message is queued on it whatever the getter did.
  const { port1, port2 } = new MessageChannel();
  const received = new Promise((resolve) => { port2.onmessage = (event) => resolve(event.data); });
  port1.postMessage({ get a() { port1.close(); return 'after-close'; } });
  assertEquals((await received).a, 'after-close');
  port2.close();
});

await test('a listed port closed by a getter during serialization: DataCloneError, nothing sent', async () => {
  // HTML StructuredSerializeWithTransfer checks [[Detached]] of every
  // transferable after serializing the value; close() sets it. (The port
  // was transferred and arrived dead.)
  const carrier = new MessageChannel();
  let received = 0;
  carrier.port2.onmessage = () => { received++; };
  const closing = (port) => ({ get x() { port.close(); return 0; } });
  const a = new MessageChannel();
  assertDataCloneError(() => structuredClone(closing(a.port1), { transfer: [a.port1] }), 'structuredClone');
  const b = new MessageChannel();
  assertDataCloneError(() => carrier.port1.postMessage(closing(b.port1), [b.port1]), 'postMessage');
  carrier.port1.postMessage('marker');
  await new Promise((resolve) => setTimeout(resolve, 20));
  assertEquals(received, 1, 'only the marker message arrives');
  a.port2.close();
  b.port2.close();
  carrier.port1.close();
  carrier.port2.close();
});
