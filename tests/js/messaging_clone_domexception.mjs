// DOMException is [Serializable] (WebIDL): structuredClone, MessagePort and
// Worker postMessage copy it as a DOMException with its name, message and
// code, also nested in other values (it came out as a plain {}: a
// JS-implemented class is an ordinary object to V8's serializer; it is now
// an API object that serializer.cc writes and reads).

import { test, assert, assertEquals } from './lib/assert.mjs';

const describe = (e) => [e instanceof DOMException, e instanceof Error, e.name, e.message, e.code,
  Object.prototype.toString.call(e)];
const expected = [true, true, 'AbortError', 'stopped', 20, '[object DOMException]'];

await test('structuredClone copies a DOMException, alone and nested', () => {
  const original = new DOMException('stopped', 'AbortError');
  const copy = structuredClone(original);
  assert(copy !== original, 'a new object');
  assertEquals(describe(copy), expected);
  const nested = structuredClone({ list: [original, original], other: new DOMException('x', 'NotFoundError') });
  assertEquals(describe(nested.list[0]), expected);
  assert(nested.list[0] === nested.list[1], 'shared references stay shared');
  assertEquals([nested.other.name, nested.other.code], ['NotFoundError', 8]);
  // A custom name keeps its name (code 0); a subclass arrives as DOMException.
  class Mine extends DOMException {}
  const custom = structuredClone(new Mine('m', 'Custom'));
  assertEquals([custom.constructor.name, custom.name, custom.code], ['DOMException', 'Custom', 0]);
});

await test('a DOMException keeps a name and message with lone surrogates (copied as UTF-16)', async () => {
  const original = new DOMException('msg \uD800 end', 'Custom\uDC00Name');
  const copy = structuredClone(original);
  assertEquals([copy.message, copy.name], [original.message, original.name]);
  const { port1, port2 } = new MessageChannel();
  const received = new Promise((resolve) => { port2.onmessage = (e) => resolve(e.data); });
  port1.postMessage(original);
  const posted = await received;
  port1.close();
  assertEquals([posted.message, posted.name], [original.message, original.name]);
});

await test('MessagePort and Worker postMessage copy a DOMException', async () => {
  const { port1, port2 } = new MessageChannel();
  const viaPort = await new Promise((resolve) => {
    port2.onmessage = (event) => resolve(event.data);
    port1.postMessage(new DOMException('stopped', 'AbortError'));
  });
  port1.close();
  assertEquals(describe(viaPort), expected);

  const worker = new Worker(new URL('./fixtures/workers/clone_echo.mjs', import.meta.url), { type: 'module' });
  const echoed = await new Promise((resolve) => {
    worker.onmessage = (event) => resolve(event.data);
    worker.postMessage({ op: 'echo', value: new DOMException('stopped', 'AbortError') });
  });
  worker.terminate();
  assertEquals(describe(echoed), expected);
});
