// The assertion helper for hostloop's JS spec tests (tests/js/*.mjs).
//
// A spec file awaits its tests at top level:
//
//   import { test, assertEquals } from './lib/assert.mjs';
//   await test('J1 equal timeouts fire in schedule order', async () => { ... });
//
// A failing test throws, the module's evaluation rejects, and the process
// exits with code 1 and the failure on stderr. Works the same under node, so
// differential specs can run on both.

export class AssertionError extends Error {
  constructor(message) {
    super(message);
    this.name = 'AssertionError';
  }
}

function describe(value) {
  try {
    if (typeof value === 'string') return JSON.stringify(value);
    if (typeof value === 'bigint') return `${value}n`;
    if (typeof value === 'symbol' || typeof value === 'function') return String(value);
    if (value instanceof Error) return `${value.name}: ${value.message}`;
    const json = JSON.stringify(value, (k, v) => (typeof v === 'bigint' ? `${v}n` : v));
    return json === undefined ? String(value) : json;
  } catch {
    return String(value);
  }
}

function fail(message, detail) {
  throw new AssertionError(detail ? `${message}: ${detail}` : message);
}

export function assert(condition, message = 'assertion failed') {
  if (!condition) fail(message);
}

// Structural equality: primitives by SameValue (so NaN equals NaN), arrays,
// plain objects, Map, Set, Date, RegExp, typed arrays and ArrayBuffers by
// content; other objects by identity.
export function deepEqual(a, b, seen = new Map()) {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (seen.get(a) === b) return true;
  seen.set(a, b);
  if (a instanceof Date) return Object.is(a.getTime(), b.getTime());
  if (a instanceof RegExp) return a.source === b.source && a.flags === b.flags;
  if (a instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && a instanceof SharedArrayBuffer)) {
    return deepEqual(new Uint8Array(a), new Uint8Array(b), seen);
  }
  if (ArrayBuffer.isView(a)) {
    if (a.byteLength !== b.byteLength) return false;
    const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    return true;
  }
  if (a instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !deepEqual(v, b.get(k), seen)) return false;
    return true;
  }
  if (a instanceof Set) {
    if (a.size !== b.size) return false;
    for (const v of a) if (!b.has(v)) return false;
    return true;
  }
  if (a instanceof Error && (a.message !== b.message || a.name !== b.name)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  for (const key of keysA) {
    if (!Object.prototype.hasOwnProperty.call(b, key)) return false;
    if (!deepEqual(a[key], b[key], seen)) return false;
  }
  return true;
}

export function assertEquals(actual, expected, message = 'values differ') {
  if (!deepEqual(actual, expected)) {
    fail(message, `expected ${describe(expected)}, got ${describe(actual)}`);
  }
}

export function assertNotEquals(actual, unexpected, message = 'values are equal') {
  if (deepEqual(actual, unexpected)) fail(message, `got ${describe(actual)}`);
}

// `expected` is an error constructor, a DOMException name string, or omitted;
// `pattern` (string or RegExp) must match the message when given.
function checkError(error, expected, pattern, message) {
  if (typeof expected === 'function' && !(error instanceof expected)) {
    fail(message, `expected ${expected.name}, got ${describe(error)}`);
  }
  if (typeof expected === 'string' && (error === null || error.name !== expected)) {
    fail(message, `expected an error named ${expected}, got ${describe(error)}`);
  }
  if (pattern !== undefined) {
    const text = error && error.message !== undefined ? error.message : String(error);
    const ok = pattern instanceof RegExp ? pattern.test(text) : text.includes(pattern);
    if (!ok) fail(message, `error message ${describe(text)} does not match ${pattern}`);
  }
  return error;
}

export function assertThrows(fn, expected, pattern, message = 'expected a throw') {
  try {
    fn();
  } catch (error) {
    return checkError(error, expected, pattern, message);
  }
  fail(message, 'nothing was thrown');
}

// fn() throws a DataCloneError DOMException (structured clone refused).
export function assertDataCloneError(fn, what) {
  let caught = null;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  assert(caught !== null, `${what}: nothing was thrown`);
  assert(caught instanceof DOMException, `${what}: expected a DOMException, got ${caught}`);
  assertEquals(caught.name, 'DataCloneError', `${what}: name`);
  assertEquals(caught.code, DOMException.DATA_CLONE_ERR, `${what}: code`);
}

export async function assertRejects(promiseOrFn, expected, pattern, message = 'expected a rejection') {
  const promise = typeof promiseOrFn === 'function' ? promiseOrFn() : promiseOrFn;
  try {
    await promise;
  } catch (error) {
    return checkError(error, expected, pattern, message);
  }
  fail(message, 'the promise fulfilled');
}

// Resolves after `ms` using the host's setTimeout.
// Runs `fn(events)` with an `error` listener on the global that cancels each
// error event (so it is not reported) and collects it; returns the events.
export async function collectErrors(fn) {
  const events = [];
  const listener = (event) => {
    event.preventDefault();
    events.push(event);
  };
  addEventListener('error', listener);
  try {
    await fn(events);
  } finally {
    removeEventListener('error', listener);
  }
  return events;
}

export function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// Resolves when `predicate()` holds, polling once per macrotask turn, or
// rejects after `timeoutMs` (a generous bound, never a timing assertion).
export async function waitFor(predicate, timeoutMs = 5000, what = 'condition') {
  const start = performance.now();
  while (!predicate()) {
    if (performance.now() - start > timeoutMs) fail(`timed out waiting for ${what}`);
    await delay(1);
  }
}

let passed = 0;

// Runs one named test; a failure is rethrown with the test's name.
export async function test(name, fn) {
  try {
    await fn();
    passed++;
  } catch (error) {
    const wrapped = new AssertionError(`test failed: ${name}\n  ${error && error.stack ? error.stack : describe(error)}`);
    throw wrapped;
  }
}

export function passedCount() {
  return passed;
}
