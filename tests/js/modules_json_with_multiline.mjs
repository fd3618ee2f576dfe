// Import attributes (`with`) on a line of their own, as formatters such as
// prettier write long imports. The import-attributes grammar allows a line
// break before `with`; node 20+ accepts this file. hostloop rewrites `with`
// to V8 10.2's `assert`, whose grammar has [no LineTerminator here] before
// `assert`, so the rewritten source must not leave the line break there.
// Fixtures: tests/js/fixtures/json/.

import { test, assertEquals } from './lib/assert.mjs';
import data from './fixtures/json/list.json'
  with { type: 'json' };
export { default as text } from './fixtures/json/string.json'
  with { type: 'json' };

await test('a JSON import whose `with` clause starts on the next line', () => {
  assertEquals(data, [1, 'two', { three: 3 }]);
});

await test('line numbers after the multi-line import are unchanged', () => {
  // The Error below is created on line 20 of this file.
  const line = new Error().stack.split('\n')[1];
  const match = /:(\d+):\d+\)?$/.exec(line);
  assertEquals(match && Number(match[1]), 20, `stack line ${line}`);
});
