// hostloop-flags: --v8-flags=--expose-gc
//
// Spec tests for contract J2 (platform tasks work) and L5 (a natively
// resolved promise has its reactions run before any later macrotask):
// Atomics.waitAsync (https://tc39.es/ecma262/#sec-atomics.waitasync),
// FinalizationRegistry cleanup
// (https://tc39.es/ecma262/#sec-finalization-registry-cleanup-job), and
// asynchronous WebAssembly compilation
// (https://webassembly.github.io/spec/js-api/#dom-webassembly-compile).
// All of them settle through V8 foreground tasks that hostloop's loop runs.

import { test, assert, assertEquals, assertRejects, delay, waitFor } from './lib/assert.mjs';

function int32s(length = 4) {
  return new Int32Array(new SharedArrayBuffer(4 * length));
}

// Rejects if `promise` has not settled within `ms` (a failure bound only).
function within(promise, ms, what) {
  let timer;
  const bound = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([promise, bound]).finally(() => clearTimeout(timer));
}

// ---------------------------------------------------------------------------
// Atomics.waitAsync
// ---------------------------------------------------------------------------

await test('J2 Atomics.waitAsync resolves "ok" when notified from the same thread', async () => {
  const ia = int32s();
  const result = Atomics.waitAsync(ia, 0, 0);
  assertEquals(result.async, true);
  assert(result.value instanceof Promise, 'value is a promise');
  assertEquals(Atomics.notify(ia, 0, 1), 1, 'notify wakes the one waiter');
  assertEquals(await within(result.value, 2000, 'waitAsync'), 'ok');
});

await test('J2 Atomics.waitAsync with a timeout resolves "timed-out", not before the timeout', async () => {
  const ia = int32s();
  const started = performance.now();
  const result = Atomics.waitAsync(ia, 0, 0, 50);
  assertEquals(result.async, true);
  assertEquals(await within(result.value, 5000, 'waitAsync timeout'), 'timed-out');
  const elapsed = performance.now() - started;
  assert(elapsed >= 49, `timed out after only ${elapsed.toFixed(2)} ms`);
  // Nobody is waiting any more.
  assertEquals(Atomics.notify(ia, 0), 0);
});

await test('J2 Atomics.waitAsync returns {async: false, value: "not-equal"} on a value mismatch', () => {
  const ia = int32s();
  Atomics.store(ia, 1, 7);
  const result = Atomics.waitAsync(ia, 1, 0);
  assertEquals(result.async, false);
  assertEquals(result.value, 'not-equal');
  // A zero timeout with a matching value times out synchronously.
  const immediate = Atomics.waitAsync(ia, 1, 7, 0);
  assertEquals(immediate.async, false);
  assertEquals(immediate.value, 'timed-out');
});

await test('J2 waiters are woken in FIFO order and their promise chains run in order', async () => {
  const ia = int32s();
  const log = [];
  const waiters = [0, 1, 2].map((i) => Atomics.waitAsync(ia, 0, 0).value
    .then((value) => { log.push(`w${i}:${value}`); })
    .then(() => { log.push(`w${i}:then`); }));
  const chain = Promise.resolve().then(() => log.push('plain1')).then(() => log.push('plain2'));
  assertEquals(Atomics.notify(ia, 0, 2), 2, 'notify(count 2) wakes two waiters');
  await chain;
  await within(Promise.all(waiters.slice(0, 2)), 2000, 'the two woken waiters');
  assertEquals(log.slice(0, 2), ['plain1', 'plain2'], 'plain microtasks of the current turn run first');
  // The woken waiters settle in list order (FIFO).
  const woken = log.slice(2).filter((entry) => entry.endsWith(':ok'));
  assertEquals(woken, ['w0:ok', 'w1:ok']);
  assert(log.indexOf('w0:ok') < log.indexOf('w0:then') && log.indexOf('w1:ok') < log.indexOf('w1:then'));
  // The third waiter is still waiting; wake it.
  assertEquals(Atomics.notify(ia, 0), 1);
  await within(waiters[2], 2000, 'the third waiter');
  assertEquals(log.slice(-2), ['w2:ok', 'w2:then']);
});

await test('L5 a promise resolved by a V8 task (waitAsync notify) reacts before later macrotasks scheduled before the notify', async () => {
  const ia = int32s();
  const log = [];
  const { value } = Atomics.waitAsync(ia, 0, 0);
  value.then(() => log.push('reaction')).then(() => log.push('reaction2'));
  // Macrotasks scheduled before the notify, due later.
  setTimeout(() => log.push('timeout'), 300);
  const posted = scheduler.postTask(() => log.push('postTask'), { delay: 300 });
  Atomics.notify(ia, 0);
  await posted;
  await waitFor(() => log.length === 4);
  assertEquals(log, ['reaction', 'reaction2', 'timeout', 'postTask']);
});

await test('L5 a promise resolved by a delayed V8 task (waitAsync timeout) reacts before the next macrotask', async () => {
  const ia = int32s();
  const log = [];
  Atomics.waitAsync(ia, 0, 0, 10).value.then((v) => log.push(v));
  setTimeout(() => log.push('timeout'), 400);
  await waitFor(() => log.length === 2);
  assertEquals(log, ['timed-out', 'timeout']);
});

await test('L5 each V8 task is followed by a checkpoint: microtasks queued by a reaction run before the next macrotask', async () => {
  const ia = int32s();
  const log = [];
  Atomics.waitAsync(ia, 0, 0).value.then(() => {
    log.push('reaction');
    queueMicrotask(() => log.push('microtask from reaction'));
  });
  setTimeout(() => log.push('timeout'), 300);
  Atomics.notify(ia, 0);
  await waitFor(() => log.length === 3);
  assertEquals(log, ['reaction', 'microtask from reaction', 'timeout']);
});

// ---------------------------------------------------------------------------
// FinalizationRegistry
// ---------------------------------------------------------------------------

await test('J2 a FinalizationRegistry cleanup callback runs after gc()', async () => {
  assertEquals(typeof gc, 'function', 'this test needs --expose-gc');
  const held = [];
  const registry = new FinalizationRegistry((token) => held.push(token));
  (() => {
    for (let i = 0; i < 10; i++) registry.register({ payload: new Array(100).fill(i) }, `token${i}`);
  })();
  // Collect from a later task, when no stack frame can hold the targets.
  const started = performance.now();
  while (held.length === 0 && performance.now() - started < 5000) {
    await delay(10);
    gc();
  }
  await waitFor(() => held.length === 10, 5000, 'all ten cleanup callbacks');
  assertEquals(held.slice().sort(), Array.from({ length: 10 }, (_, i) => `token${i}`).sort());
  // The registry itself stays alive until here.
  assert(registry instanceof FinalizationRegistry);
});

await test('J2 a WeakRef target is released after gc() in a later task', async () => {
  let ref = (() => new WeakRef({ big: new Array(1000).fill(1) }))();
  const started = performance.now();
  while (ref.deref() !== undefined && performance.now() - started < 5000) {
    await delay(10);
    gc();
  }
  assertEquals(ref.deref(), undefined);
  ref = null;
});

// ---------------------------------------------------------------------------
// WebAssembly
// ---------------------------------------------------------------------------

// (module (func (export "add") (param i32 i32) (result i32)
//   local.get 0 local.get 1 i32.add))
const addModule = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x07, 0x01, 0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7f,
  0x03, 0x02, 0x01, 0x00,
  0x07, 0x07, 0x01, 0x03, 0x61, 0x64, 0x64, 0x00, 0x00,
  0x0a, 0x09, 0x01, 0x07, 0x00, 0x20, 0x00, 0x20, 0x01, 0x6a, 0x0b,
]);

await test('J2 WebAssembly.compile resolves with a Module', async () => {
  const module = await within(WebAssembly.compile(addModule), 2000, 'WebAssembly.compile');
  assert(module instanceof WebAssembly.Module);
  assertEquals(WebAssembly.Module.exports(module), [{ name: 'add', kind: 'function' }]);
  const instance = await within(WebAssembly.instantiate(module), 2000, 'WebAssembly.instantiate(module)');
  assert(instance instanceof WebAssembly.Instance);
  assertEquals(instance.exports.add(2, 3), 5);
});

await test('J2 WebAssembly.instantiate(bytes) resolves with {module, instance}', async () => {
  const result = await within(WebAssembly.instantiate(addModule), 2000, 'WebAssembly.instantiate(bytes)');
  assert(result.module instanceof WebAssembly.Module);
  assert(result.instance instanceof WebAssembly.Instance);
  assertEquals(result.instance.exports.add(40, 2), 42);
});

await test('J2 WebAssembly.compile of invalid bytes rejects with CompileError', async () => {
  await assertRejects(within(WebAssembly.compile(new Uint8Array([0, 1, 2, 3])), 2000, 'compile'),
    WebAssembly.CompileError);
});

await test('J2 several compiles in flight all settle', async () => {
  const modules = await within(Promise.all(Array.from({ length: 20 }, () => WebAssembly.compile(addModule))),
    5000, 'twenty compiles');
  assertEquals(modules.length, 20);
  for (const module of modules) assert(module instanceof WebAssembly.Module);
});

await test('J2 the wrapped WebAssembly.compile and instantiate keep their property shape', () => {
  // WebIDL namespace operations are enumerable; the liveness wrappers (J3)
  // were not, so Object.keys(WebAssembly) lost them. Atomics.waitAsync, an
  // ECMAScript built-in, stays non-enumerable.
  for (const name of ['compile', 'instantiate', 'validate']) {
    const descriptor = Object.getOwnPropertyDescriptor(WebAssembly, name);
    assertEquals([descriptor.writable, descriptor.enumerable, descriptor.configurable], [true, true, true], name);
  }
  assertEquals(Object.getOwnPropertyDescriptor(Atomics, 'waitAsync').enumerable, false);
  assertEquals([WebAssembly.compile.name, WebAssembly.compile.length], ['compile', 1]);
  assertEquals([WebAssembly.instantiate.name, WebAssembly.instantiate.length], ['instantiate', 1]);
});
