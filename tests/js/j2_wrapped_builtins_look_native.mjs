// timeout: 30
//
// Contract J2/J3: hostloop wraps Atomics.waitAsync and WebAssembly.compile/
// instantiate to keep the runtime alive while their promise is pending, and
// the wrappers must be indistinguishable from the builtins (node 20 is the
// reference for every value below). The JS wrappers printed their own source
// for toString(), and an error thrown by the builtin carried a frame of
// hostloop's internal script ("at Atomics.waitAsync
// (hostloop:internal/bootstrap.js:284:24)") between the builtin's and the
// caller's. (Found by review.)

import { test, assert, assertEquals, assertRejects, assertThrows } from './lib/assert.mjs';

const here = import.meta.url;
const wasmHeader = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);
const shared = () => new Int32Array(new SharedArrayBuffer(16));

const wrapped = [
  [Atomics, 'waitAsync', 4, false],
  [WebAssembly, 'compile', 1, true],
  [WebAssembly, 'instantiate', 1, true],
];

await test('the wrappers have the builtins name, length, source text and attributes', () => {
  for (const [namespace, name, length, enumerable] of wrapped) {
    const f = namespace[name];
    assertEquals(String(f), `function ${name}() { [native code] }`, `${name}.toString()`);
    assertEquals(Function.prototype.toString.call(f), `function ${name}() { [native code] }`);
    assertEquals(f.name, name, `${name}.name`);
    assertEquals(f.length, length, `${name}.length`);
    assertEquals(Object.getOwnPropertyNames(f).sort().join(), 'length,name', `${name}'s own properties`);
    assertEquals('prototype' in f, false, `${name}.prototype`);
    assertEquals(Object.getPrototypeOf(f), Function.prototype);
    const descriptor = Object.getOwnPropertyDescriptor(namespace, name);
    assertEquals(descriptor.value, f);
    assertEquals(descriptor.writable, true, `${name} writable`);
    assertEquals(descriptor.enumerable, enumerable, `${name} enumerable`);
    assertEquals(descriptor.configurable, true, `${name} configurable`);
    assertThrows(() => new f(), TypeError, 'is not a constructor', `new ${name}()`);
  }
});

await test('an error the builtin throws has no frame of hostloop internals', () => {
  const error = assertThrows(() => Atomics.waitAsync(new Int32Array(4), 0, 0), TypeError,
                             'is not a shared typed array');
  assert(!error.stack.includes('hostloop:internal'), error.stack);
  const frames = error.stack.split('\n').slice(1).map((line) => line.trim());
  assertEquals(frames[0], 'at Atomics.waitAsync (<anonymous>)');
  assert(frames[1].includes(here), error.stack);
});

await test('a rejection from the builtin has no frame of hostloop internals', async () => {
  const invalid = await assertRejects(WebAssembly.compile(new Uint8Array([1, 2, 3])),
                                      WebAssembly.CompileError);
  assert(!invalid.stack.includes('hostloop:internal'), invalid.stack);
  const notBytes = await assertRejects(WebAssembly.instantiate(42), TypeError);
  assert(!notBytes.stack.includes('hostloop:internal'), notBytes.stack);
  assert(notBytes.stack.split('\n')[1].includes(here), notBytes.stack);
});

await test('the wrappers work called with any receiver, and bound', async () => {
  const ia = shared();
  assertEquals(Atomics.waitAsync.call(undefined, ia, 0, 1).value, 'not-equal');
  assertEquals(await Atomics.waitAsync.bind(null, ia, 0, 0, 1)().value, 'timed-out');
  assert((await WebAssembly.compile.call(5, wasmHeader)) instanceof WebAssembly.Module);
  const { instance } = await Reflect.apply(WebAssembly.instantiate, {}, [wasmHeader]);
  assert(instance instanceof WebAssembly.Instance);
  assert(WebAssembly.compile(wasmHeader) instanceof Promise);
});

// J3 still holds through a wrapper called unbound: nothing else keeps the
// runtime alive while this wait is pending (exit 13 if it did not).
assertEquals(await Reflect.apply(Atomics.waitAsync, undefined, [shared(), 0, 0, 50]).value,
             'timed-out');
