// hostloop rewrites import attributes (`from '...' with {`) to V8 10.2's
// import assertions (`assert {`) in the module's source text. Only the
// syntax of import and export declarations may change: text that merely
// looks like one inside a string, a template literal or a regular
// expression is program data and must reach the program unchanged (node
// 20+ prints these strings exactly as written).

import { test, assertEquals } from './lib/assert.mjs';

await test('a string literal that looks like an import with attributes is not rewritten', () => {
  const single = "import data from './data.json' with { type: 'json' }";
  assertEquals(single, "import data from './data.json' " + 'with' + " { type: 'json' }");
});

await test('a template literal that looks like a re-export with attributes is not rewritten', () => {
  const template = `export { x } from "./y.mjs" with {}`;
  assertEquals(template, 'export { x } from "./y.mjs" with' + ' {}');
});

await test('a regular expression that looks like an import with attributes is not rewritten', () => {
  const pattern = /import 'x' with {/;
  assertEquals(pattern.source.endsWith("'x' with {"), true, `the pattern became: ${pattern.source}`);
});

await test('function source text keeps the original spelling', () => {
  function codegen() {
    return "import './z.json' with { type: 'json' }";
  }
  assertEquals(codegen.toString().includes("with { type: 'json' }"), true, codegen.toString());
});
