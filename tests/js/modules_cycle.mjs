// Spec tests for module graphs with a cycle
// (https://tc39.es/ecma262/#sec-moduleevaluation, InnerModuleEvaluation):
// tests/js/fixtures/cycle/ holds a.mjs -> b.mjs -> c.mjs -> a.mjs. Checks the
// evaluation order (depth-first, post-order: c, b, a), hoisted function
// declarations callable across the cycle before their module ran, the
// temporal dead zone of `let` exports, and live bindings in every direction.

import { test, assert, assertEquals } from './lib/assert.mjs';
import * as a from './fixtures/cycle/a.mjs';
import * as b from './fixtures/cycle/b.mjs';
import * as c from './fixtures/cycle/c.mjs';
import { log } from './fixtures/cycle/log.mjs';

await test('evaluation order is depth-first post-order: log, c, b, a', () => {
  assertEquals(log, ['log', 'c:start', 'c:end', 'b (c evaluated: true)', 'a']);
});

await test('each module of the cycle is evaluated exactly once', () => {
  assertEquals(log.filter((entry) => entry === 'a').length, 1);
  assertEquals(log.filter((entry) => entry === 'c:start').length, 1);
});

await test('a hoisted function declaration of a is callable from c before a evaluated', () => {
  assertEquals(c.hoistedResult, 'hoistedInA called from c');
});

await test("a's let export is in its temporal dead zone while c evaluates", () => {
  assertEquals(c.counterWhileAUnevaluated, 'ReferenceError');
  assertEquals(c.namespaceCounterWhileAUnevaluated, 'ReferenceError');
});

await test("c already sees a's export names (bindings exist before evaluation)", () => {
  const names = c.aExportNamesSeenByC;
  for (const name of ['counter', 'increment', 'hoistedInA', 'bValueSeenByA', 'readBValue']) {
    assert(names.includes(name), `missing ${name} in ${JSON.stringify(names)}`);
  }
});

await test('the namespace c imported is the same object as the one imported here', () => {
  assert(c.aNamespace === a, 'namespace objects differ');
  assertEquals(Object.prototype.toString.call(a), '[object Module]');
});

await test('a saw b initialised (b evaluated before a)', () => {
  assertEquals(a.bValueSeenByA, 'b-initial');
});

await test('live binding: a.counter seen through c and b after a changes it', () => {
  assertEquals(a.counter, 0);
  assertEquals(c.readCounterFromC(), 0);
  assertEquals(a.increment(), 1);
  assertEquals(a.counter, 1);
  assertEquals(c.readCounterFromC(), 1);
  assertEquals(b.readCounterViaB(), 1);
  assertEquals(a.readCounterFromA(), 1);
});

await test('live binding: c changes a.counter through the imported function', () => {
  assertEquals(c.incrementFromC(), 2);
  assertEquals(a.counter, 2);
  assertEquals(a.readCounterFromA(), 2);
});

await test('live binding: b.bValue changed through a is seen by a and here', () => {
  a.setBFromA('changed by a');
  assertEquals(b.bValue, 'changed by a');
  assertEquals(a.readBValue(), 'changed by a');
  // The const snapshot taken during evaluation does not change.
  assertEquals(a.bValueSeenByA, 'b-initial');
});

await test('imported bindings are read-only views', () => {
  let error;
  try {
    a.counter = 10;
  } catch (e) {
    error = e;
  }
  assert(error instanceof TypeError, `expected a TypeError, got ${error}`);
  assertEquals(a.counter, 2);
});

await test('a dynamic import of a cycle member yields the same namespace', async () => {
  const again = await import('./fixtures/cycle/b.mjs');
  assert(again === b, 'a second namespace object for b');
  assertEquals(log.length, 5);
});
