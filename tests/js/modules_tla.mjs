// Spec tests for top-level await ordering
// (https://tc39.es/ecma262/#sec-innermoduleevaluation, async module
// evaluation): siblings start in import order, an async sibling does not
// hold back a later sibling, and a parent runs only after all of its async
// dependencies finished. Fixtures: tests/js/fixtures/tla/.

import { test, assertEquals, assertRejects } from './lib/assert.mjs';
import { log } from './fixtures/tla/log.mjs';
import './fixtures/tla/parent.mjs';

// Reached only once parent.mjs (and so both async children) finished.
log.push('importer');

await test('siblings start in order; the parent waits for both async children', () => {
  assertEquals(log, [
    'first',
    'slow:start',
    'fast:start',
    'sync',
    'fast:end',
    'slow:resumed',
    'slow:end',
    'parent (slow done: true, fast done: true)',
    'parent:end',
    'importer',
  ]);
});

await test('a module depending on an async module waits, also through a diamond', async () => {
  globalThis.tlaChainLog = [];
  const promise = import('./fixtures/tla/chain_parent.mjs');
  globalThis.tlaChainLog.push('import() returned');
  const ns = await promise;
  assertEquals(ns.done, true);
  assertEquals(globalThis.tlaChainLog, [
    'import() returned',
    'leaf:start',
    'leaf:end',
    'mid (leaf)',
    'other (leaf)',
    'chain parent',
  ]);
});

await test('an async module already evaluated is not evaluated again', async () => {
  const before = globalThis.tlaChainLog.length;
  await import('./fixtures/tla/chain_other.mjs');
  await import('./fixtures/tla/chain_leaf.mjs');
  assertEquals(globalThis.tlaChainLog.length, before);
});

await test('a rejected top-level await in a child rejects the import and skips the parent', async () => {
  globalThis.tlaRejectLog = [];
  await assertRejects(import('./fixtures/tla/reject_parent.mjs'), Error, 'child top-level await failed');
  assertEquals(globalThis.tlaRejectLog, ['reject child:start']);
});

await test('timers run while the main module is suspended in a top-level await', async () => {
  const order = [];
  setTimeout(() => order.push('timer'), 0);
  order.push('before await');
  await new Promise((resolve) => setTimeout(resolve, 5));
  order.push('after await');
  assertEquals(order, ['before await', 'timer', 'after await']);
});
