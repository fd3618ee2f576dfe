// import() with import attributes in the options bag (`{ with: { type:
// 'json' } }`, what node 22 and deno write). V8 10.2 reads only `assert`
// from import()'s options and gives the host no way to see `with`, so
// hostloop cannot honour it there (static `with` clauses are rewritten to
// `assert` and do work). This test pins down the documented behaviour: the
// `assert` form loads, and the `with` form fails with a message that says
// what to write instead, never by loading the file as JavaScript.
// Fixture: tests/js/fixtures/json/data.json.

import { test, assert, assertEquals, assertRejects } from './lib/assert.mjs';
import viaWith from './fixtures/json/data.json' with { type: 'json' };

await test('import(specifier, { assert: { type: "json" } }) loads the JSON module', async () => {
  const ns = await import('./fixtures/json/data.json', { assert: { type: 'json' } });
  assertEquals(ns.default.name, 'hostloop');
  assert(ns.default === viaWith, 'another instance of the JSON module');
});

await test('import(specifier, { with: { type: "json" } }) rejects with a TypeError naming the fix', async () => {
  await assertRejects(import('./fixtures/json/data.json', { with: { type: 'json' } }), TypeError,
                      "{ assert: { type: 'json' } }");
});

await test('import(specifier, { assert: { type: "css" } }) rejects with a TypeError', async () => {
  await assertRejects(import('./fixtures/json/data.json', { assert: { type: 'css' } }), TypeError, 'css');
});
