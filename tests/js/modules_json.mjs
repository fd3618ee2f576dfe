// Spec tests for JSON modules (https://tc39.es/proposal-json-modules/):
// static imports with both the import-assertions syntax (`assert`, what
// V8 10.2 parses) and the import-attributes syntax (`with`, what node 22 and
// deno write, rewritten by hostloop), re-exports, and the values they give.
// Fixtures: tests/js/fixtures/json/.

import { test, assert, assertEquals } from './lib/assert.mjs';
import dataAssert from './fixtures/json/data.json' assert { type: 'json' };
import dataWith from './fixtures/json/data.json' with { type: 'json' };
import * as dataNamespace from './fixtures/json/data.json' with { type: "json" };
import list from "./fixtures/json/list.json" with {type:"json"};
import text from './fixtures/json/string.json' with { type: 'json' };
import proto from './fixtures/json/proto.json' assert { type: 'json' };
import { data as reexportedData, list as reexportedList } from './fixtures/json/reexport.mjs';

const expected = {
  name: 'hostloop',
  numbers: [1, 2.5, -300],
  nested: { flag: true, nothing: null },
  text: 'café 😀 ü',
};

await test('a JSON module imported with assert { type: "json" } gives the parsed value', () => {
  assertEquals(dataAssert, expected);
  assertEquals(Object.getPrototypeOf(dataAssert), Object.prototype);
});

await test('a JSON module imported with with { type: "json" } gives the parsed value', () => {
  assertEquals(dataWith, expected);
});

await test('both syntaxes name the same module instance (one parse, one object)', () => {
  assert(dataWith === dataAssert, 'two objects for one JSON module');
  assert(reexportedData === dataAssert, 'the re-export gave another object');
});

await test('the namespace of a JSON module has only a default export', () => {
  assertEquals(Object.keys(dataNamespace), ['default']);
  assert(dataNamespace.default === dataAssert, 'namespace default differs');
  assertEquals(Object.prototype.toString.call(dataNamespace), '[object Module]');
});

await test('top-level arrays and strings', () => {
  assertEquals(list, [1, 'two', { three: 3 }]);
  assert(Array.isArray(list), 'not an array');
  assert(reexportedList === list, 'the re-export gave another array');
  assertEquals(text, 'just a string');
});

await test('non-ASCII text and escapes are decoded as UTF-8 / JSON', () => {
  assertEquals(dataAssert.text.length, 9);
  assertEquals(dataAssert.text.codePointAt(5), 0x1f600);
});

await test('a "__proto__" key is an own property (JSON.parse semantics), not the prototype', () => {
  assert(Object.prototype.hasOwnProperty.call(proto, '__proto__'), 'no own __proto__ property');
  assertEquals(Object.getPrototypeOf(proto), Object.prototype);
  assertEquals(proto.own, 1);
  assertEquals(({}).polluted, undefined);
});

await test('the value is shared and mutable: importers see each other\'s changes', async () => {
  dataAssert.added = 'by the importer';
  const again = await import('./fixtures/json/data.json', { assert: { type: 'json' } });
  assertEquals(again.default.added, 'by the importer');
  delete dataAssert.added;
});
