// Spec tests for import() (https://tc39.es/ecma262/#sec-import-calls) as
// hostloop implements it: the namespace it fulfils with, the module map
// (one instance per URL), rejections for modules that cannot be loaded or
// that throw, waiting for top-level await, JSON modules, and resolution of
// relative specifiers against the module that contains the import() call.
// Fixtures: tests/js/fixtures/dynamic/.

import { test, assert, assertEquals, assertRejects } from './lib/assert.mjs';

// This file's directory, from import.meta.url with string operations only.
const here = decodeURIComponent(import.meta.url.slice('file://'.length));
const dir = here.slice(0, here.lastIndexOf('/'));
const fixtures = `${dir}/fixtures/dynamic`;

await test('import() returns a promise for the module namespace', async () => {
  const promise = import('./fixtures/dynamic/value.mjs');
  assert(promise instanceof Promise, 'import() did not return a Promise');
  const ns = await promise;
  assertEquals(Object.prototype.toString.call(ns), '[object Module]');
  assertEquals(Object.getPrototypeOf(ns), null);
  assertEquals(ns.value, 42);
  assertEquals(ns.double(21), 42);
  assertEquals(ns.default, 'the default export');
  assertEquals(Object.keys(ns), ['default', 'double', 'value']);
  assert(Object.isSealed(ns), 'a namespace is not extensible');
});

await test('the same module imported twice is the same namespace object, evaluated once', async () => {
  const first = await import('./fixtures/dynamic/value.mjs');
  const second = await import('./fixtures/dynamic/value.mjs');
  // A different spelling of the same URL maps to the same module record.
  const third = await import('./fixtures/dynamic/../dynamic/./value.mjs');
  const fourth = await import(`file://${fixtures}/value.mjs`);
  assert(first === second, 'second import() gave another namespace');
  assert(first === third, 'a non-normalised specifier gave another namespace');
  assert(first === fourth, 'a file: URL specifier gave another namespace');
  assertEquals(globalThis.dynamicValueEvaluations, 1);
});

await test('concurrent imports of one module share one evaluation', async () => {
  const [x, y] = await Promise.all([
    import('./fixtures/dynamic/value.mjs'),
    import('./fixtures/dynamic/value.mjs'),
  ]);
  assert(x === y, 'concurrent imports gave different namespaces');
  assertEquals(globalThis.dynamicValueEvaluations, 1);
});

await test('import() of a missing file rejects with an Error naming the file, and can be caught', async () => {
  const error = await assertRejects(import('./fixtures/dynamic/missing.mjs'), Error);
  assert(error.message.includes(`${fixtures}/missing.mjs`),
    `message does not name ${fixtures}/missing.mjs: ${error.message}`);
  // The program goes on: a later import still works.
  const ns = await import('./fixtures/dynamic/value.mjs');
  assertEquals(ns.value, 42);
});

await test('import() rejects when a static dependency of the module is missing', async () => {
  const error = await assertRejects(import('./fixtures/dynamic/imports_missing.mjs'), Error);
  assert(error.message.includes(`${fixtures}/does_not_exist.mjs`),
    `message does not name does_not_exist.mjs: ${error.message}`);
  assert(error.message.includes(`${fixtures}/imports_missing.mjs`),
    `message does not name the importing file: ${error.message}`);
});

await test('a failed import() does not poison later attempts', async () => {
  const first = await assertRejects(import('./fixtures/dynamic/missing.mjs'), Error);
  const second = await assertRejects(import('./fixtures/dynamic/missing.mjs'), Error);
  assertEquals(second.message, first.message);
});

await test('import() of a bare specifier rejects with a TypeError', async () => {
  await assertRejects(import('lodash'), TypeError, /bare/);
});

await test('import() of a module that throws rejects with that error', async () => {
  const error = await assertRejects(import('./fixtures/dynamic/throws.mjs'), RangeError, 'thrown by throws.mjs');
  // The module stays errored: importing it again rejects with the same error.
  const again = await assertRejects(import('./fixtures/dynamic/throws.mjs'), RangeError);
  assert(again === error, 'a second evaluation error object');
});

await test('import() of a module whose top-level await rejects rejects with that error', async () => {
  await assertRejects(import('./fixtures/dynamic/tla_rejects.mjs'), TypeError, 'rejected after a top-level await');
});

await test('import() of a module with a syntax error rejects with a SyntaxError', async () => {
  await assertRejects(import('./fixtures/dynamic/syntax_error.mjs'), SyntaxError);
});

await test('import() waits for the top-level await of the imported module', async () => {
  globalThis.dynamicTlaLog = [];
  const promise = import('./fixtures/dynamic/tla.mjs').then((ns) => {
    globalThis.dynamicTlaLog.push('import settled');
    return ns;
  });
  globalThis.dynamicTlaLog.push('import() returned');
  const ns = await promise;
  assertEquals(ns.finished, true);
  assertEquals(globalThis.dynamicTlaLog,
    ['import() returned', 'tla:start', 'tla:after-timer', 'tla:end', 'import settled']);
});

await test('import() of a JSON module with assert { type: "json" }', async () => {
  const ns = await import('./fixtures/dynamic/data.json', { assert: { type: 'json' } });
  assertEquals(Object.keys(ns), ['default']);
  assertEquals(ns.default, { name: 'dynamic', list: [1, 2, 3], nested: { ok: true } });
  const again = await import('./fixtures/dynamic/data.json', { assert: { type: 'json' } });
  assert(again === ns, 'a second namespace for the JSON module');
  assert(again.default === ns.default, 'a second parse of the JSON module');
});

await test('import() of a JSON file without the type assertion rejects with a TypeError', async () => {
  await assertRejects(import('./fixtures/dynamic/data.json'), TypeError, 'data.json');
});

await test('import() with an unsupported type assertion rejects with a TypeError', async () => {
  await assertRejects(import('./fixtures/dynamic/data.json', { assert: { type: 'css' } }), TypeError, 'css');
});

await test('a relative specifier in a dynamically imported module resolves against that module', async () => {
  const inner = await import('./fixtures/dynamic/nested/inner.mjs');
  assertEquals(inner.atTopLevel.where, 'fixtures/dynamic/nested/sibling.mjs');
  // The import() call sits in inner.mjs even though this module calls it.
  const sibling = await inner.loadSibling();
  assertEquals(sibling.where, 'fixtures/dynamic/nested/sibling.mjs');
  assert(sibling === inner.atTopLevel, 'two namespaces for nested/sibling.mjs');
  const data = await inner.loadParentData();
  assertEquals(data.default.name, 'dynamic');
});

await test('the same relative specifier from here names a different module', async () => {
  const sibling = await import('./fixtures/dynamic/sibling.mjs');
  assertEquals(sibling.where, 'fixtures/dynamic/sibling.mjs');
});

await test('import() called from a timer callback and from a microtask', async () => {
  const fromTimer = await new Promise((resolve, reject) => {
    setTimeout(() => import('./fixtures/dynamic/value.mjs').then(resolve, reject), 0);
  });
  const fromMicrotask = await new Promise((resolve, reject) => {
    queueMicrotask(() => import('./fixtures/dynamic/value.mjs').then(resolve, reject));
  });
  assertEquals(fromTimer.value, 42);
  assert(fromTimer === fromMicrotask, 'different namespaces');
});

await test('import() with a non-string specifier converts it with ToString', async () => {
  const specifier = { toString: () => './fixtures/dynamic/value.mjs' };
  const ns = await import(specifier);
  assertEquals(ns.value, 42);
});
