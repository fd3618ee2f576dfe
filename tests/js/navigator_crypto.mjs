// navigator (HTML's NavigatorConcurrentHardware, NavigatorID,
// NavigatorLanguage) and crypto's getRandomValues and randomUUID (Web Crypto):
// what a program reads to size a worker pool, and the random bytes and ids
// programs tag messages with. In a worker the interface is WorkerNavigator.
// https://html.spec.whatwg.org/multipage/workers.html#navigator.hardwareconcurrency
// https://w3c.github.io/webcrypto/#Crypto-method-getRandomValues
// https://w3c.github.io/webcrypto/#Crypto-method-randomUUID
import { test, assert, assertEquals, assertThrows } from './lib/assert.mjs';
import { request } from './fixtures/workers/harness.mjs';

const kUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

await test('navigator.hardwareConcurrency is the number of CPUs the process may use', async () => {
  const count = navigator.hardwareConcurrency;
  assert(Number.isInteger(count) && count >= 1, `hardwareConcurrency ${count}`);
  // The affinity mask: /proc/self/status says which CPUs, as a list.
  const { readFile } = await import('hostloop:fs');
  const status = await readFile('/proc/self/status', 'utf8');
  const list = /^Cpus_allowed_list:\s*(.*)$/m.exec(status)[1];
  let cpus = 0;
  for (const part of list.split(',')) {
    const [from, to = from] = part.split('-').map(Number);
    cpus += to - from + 1;
  }
  assertEquals(count, cpus, 'CPUs in Cpus_allowed_list');
});

await test('navigator identifies the runtime and has the web interface shape', () => {
  assertEquals(Object.prototype.toString.call(navigator), '[object Navigator]');
  assert(navigator instanceof Navigator, 'navigator instanceof Navigator');
  assertEquals(navigator, globalThis.navigator, 'the same object each time');
  assertEquals(navigator.userAgent, `hostloop/${hostloop.version}`);
  assert(typeof navigator.language === 'string' && navigator.language.length > 0, 'language');
  assertEquals(navigator.languages, [navigator.language]);
  assert(Object.isFrozen(navigator.languages), 'languages is frozen');
  assert(navigator.languages === navigator.languages, 'languages is the same array each time');
  assert(/^Linux \S+$/.test(navigator.platform), `platform ${navigator.platform}`);
  assertThrows(() => new Navigator(), TypeError, 'Illegal constructor');
  assertThrows(() => Navigator.prototype.hardwareConcurrency, TypeError, 'Illegal invocation');
  assertEquals(typeof WorkerNavigator, 'undefined', 'no WorkerNavigator outside workers');
});

await test('crypto.getRandomValues fills integer arrays in place and returns them', () => {
  for (const Type of [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array,
    Uint32Array, BigInt64Array, BigUint64Array]) {
    const array = new Type(64);
    assert(crypto.getRandomValues(array) === array, `${Type.name}: returns its argument`);
    // 64 elements of at least 8 random bits: all zero has probability 2^-512.
    assert(array.some((x) => x !== 0 && x !== 0n), `${Type.name}: filled`);
  }
  // A view fills only its own bytes.
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(new Uint8Array(bytes.buffer, 8, 16));
  assertEquals([...bytes.subarray(0, 8), ...bytes.subarray(24)], new Array(16).fill(0), 'bytes outside the view');
  assert(bytes.subarray(8, 24).some((x) => x !== 0), 'bytes inside the view');
  // Shared memory, the 64 KiB limit itself, and empty arrays.
  const shared = new Uint32Array(new SharedArrayBuffer(64));
  crypto.getRandomValues(shared);
  assert(shared.some((x) => x !== 0), 'a SharedArrayBuffer view is filled');
  assertEquals(crypto.getRandomValues(new Uint8Array(65536)).length, 65536);
  assertEquals(crypto.getRandomValues(new Uint8Array(0)).length, 0);
  // Two draws differ.
  const a = crypto.getRandomValues(new Uint32Array(4));
  const b = crypto.getRandomValues(new Uint32Array(4));
  assert(a.some((x, i) => x !== b[i]), 'two draws of 128 bits differ');
});

await test('crypto.getRandomValues refuses what the spec refuses', () => {
  for (const value of [new Float32Array(4), new Float64Array(4), new DataView(new ArrayBuffer(4))]) {
    const error = assertThrows(() => crypto.getRandomValues(value), DOMException, 'not an integer array type');
    assertEquals(error.name, 'TypeMismatchError');
    assertEquals(error.code, DOMException.TYPE_MISMATCH_ERR);
  }
  const quota = assertThrows(() => crypto.getRandomValues(new Uint8Array(65537)), DOMException, '(65537)');
  assertEquals(quota.name, 'QuotaExceededError');
  assertThrows(() => crypto.getRandomValues(new Uint32Array(16385)), DOMException, '(65540)');
  for (const value of [undefined, [1, 2], new ArrayBuffer(8), 'abc']) {
    assertThrows(() => crypto.getRandomValues(value), TypeError, 'not of type \'ArrayBufferView\'');
  }
  assertThrows(() => crypto.getRandomValues(), TypeError, '1 argument required');
  assertThrows(() => crypto.getRandomValues.call({}, new Uint8Array(1)), TypeError, 'Illegal invocation');
  assertThrows(() => new Crypto(), TypeError, 'Illegal constructor');
  assertEquals(Object.prototype.toString.call(crypto), '[object Crypto]');
});

await test('crypto.randomUUID returns distinct version 4 UUIDs', () => {
  const seen = new Set();
  for (let i = 0; i < 1000; i++) {
    const uuid = crypto.randomUUID();
    assert(kUuid.test(uuid), `not a v4 UUID: ${uuid}`);
    seen.add(uuid);
  }
  assertEquals(seen.size, 1000, 'distinct');
  assertThrows(() => crypto.randomUUID.call(undefined), TypeError, 'Illegal invocation');
});

await test('a worker has a WorkerNavigator and crypto', async () => {
  const worker = new Worker(new URL('./fixtures/workers/navigator_crypto.mjs', import.meta.url), { type: 'module' });
  try {
    const info = await request(worker, 'go');
    assertEquals(info.tag, '[object WorkerNavigator]');
    assertEquals(info.workerNavigator, 'function');
    assertEquals(info.navigatorInterface, 'undefined');
    assert(info.navigatorIsInstance, 'navigator instanceof WorkerNavigator');
    assertEquals(info.hardwareConcurrency, navigator.hardwareConcurrency);
    assertEquals(info.userAgent, navigator.userAgent);
    assert(kUuid.test(info.uuid), `worker UUID ${info.uuid}`);
    assert(info.random.some((x) => x !== 0), 'worker random values');
  } finally {
    worker.terminate();
  }
});
