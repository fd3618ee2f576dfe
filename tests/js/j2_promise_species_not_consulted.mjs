// timeout: 30
//
// The runtime's own promise plumbing (the main module's result, dynamic
// import(), Atomics.waitAsync's liveness, WebAssembly.compile/instantiate)
// never looks up Promise[Symbol.species], which a program may replace: a
// getter that throws made a correct main module report an uncaught error and
// exit 1, and left a dynamic import() pending for good (exit 13); a counting
// getter saw lookups node does not make. (Found by an exploratory run.)

import { assertEquals, test } from './lib/assert.mjs';

let lookups = 0;
let throwing = false;
Object.defineProperty(Promise, Symbol.species, {
  configurable: true,
  get() {
    lookups++;
    if (throwing) throw new Error('species getter');
    return Promise;
  },
});

await test('Atomics.waitAsync and WebAssembly.compile/instantiate look up no species', async () => {
  const bytes = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);
  const before = lookups;
  const compiled = WebAssembly.compile(bytes);
  const instantiated = WebAssembly.instantiate(bytes);
  const waited = Atomics.waitAsync(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
  assertEquals(lookups - before, 0);
  throwing = true;
  try {
    assertEquals((await compiled) instanceof WebAssembly.Module, true);
    assertEquals((await instantiated).instance instanceof WebAssembly.Instance, true);
    assertEquals(await waited.value, 'timed-out');
  } finally {
    throwing = false;
  }
});

await test('dynamic import() settles with a throwing species getter', async () => {
  throwing = true;
  try {
    const namespace = await import('data:text/javascript,export const x = 1;');
    assertEquals(namespace.x, 1);
  } finally {
    throwing = false;
  }
});

// The main module itself ends with a throwing getter still installed: it
// must settle normally (exit 0), not report an error from Promise.then.
throwing = true;
