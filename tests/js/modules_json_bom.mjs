// A JSON module file that starts with a UTF-8 byte order mark. Module
// sources are decoded as UTF-8, which drops a leading BOM (the WHATWG
// Encoding "UTF-8 decode"; HTML and node load such JSON modules, and
// hostloop already accepts a BOM at the start of a JavaScript module).
// Fixture: tests/js/fixtures/json/bom.json (bytes EF BB BF, then {"bom": true}).

import { test, assertEquals } from './lib/assert.mjs';

await test('import() of a JSON module with a UTF-8 BOM', async () => {
  const ns = await import('./fixtures/json/bom.json', { assert: { type: 'json' } });
  assertEquals(ns.default, { bom: true });
});
