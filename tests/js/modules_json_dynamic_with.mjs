// import() with import attributes in the options bag: `{ with: { type:
// 'json' } }` (https://tc39.es/proposal-import-attributes/, what node 20.10+,
// node 22 and deno write). hostloop accepts the `with` keyword in static
// imports (rewritten to V8 10.2's `assert`), so the dynamic form should load
// the same JSON module rather than reject with "add `assert { type: 'json' }`".
// Fixture: tests/js/fixtures/json/data.json.

import { test, assert, assertEquals, assertRejects } from './lib/assert.mjs';
import viaAssert from './fixtures/json/data.json' assert { type: 'json' };

await test('import(specifier, { with: { type: "json" } }) loads the JSON module', async () => {
  const ns = await import('./fixtures/json/data.json', { with: { type: 'json' } });
  assertEquals(ns.default.name, 'hostloop');
  assert(ns.default === viaAssert, 'another instance of the JSON module');
});

await test('import(specifier, { with: { type: "css" } }) rejects with a TypeError', async () => {
  await assertRejects(import('./fixtures/json/data.json', { with: { type: 'css' } }), TypeError, 'css');
});
