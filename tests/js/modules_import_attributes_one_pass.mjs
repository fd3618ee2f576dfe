// Import attributes (`with { type: 'json' }`) are rewritten to V8 10.2's
// `assert` all at once after a module fails to compile, not one clause per
// compile: a module with 1001 clauses was a SyntaxError "Unexpected token
// 'with'" (the loader gave up after 1000 compiles; node 20 runs it). Only a
// `with` right after an import's or export's specifier and before `{` is an
// attribute clause: a `with (object) {}` statement after an import without a
// semicolon was rewritten too, and V8 reported an error in text the user did
// not write. Columns after a clause on its line stay exact when `with` has
// blanks around it (they moved by three). The same rewrite serves static
// imports, import() and module workers.
//
// The modules are written to a fresh directory under /tmp, removed at the end.

import { writeFile, mkdir, rm } from 'hostloop:fs';
import { test, assertEquals, assertRejects } from './lib/assert.mjs';

const root = `/tmp/hostloop-attributes-test-${performance.timeOrigin}-${Math.random()}`;
await mkdir(root);
try {
  await writeFile(`${root}/data.json`, '{ "value": 42 }');
  const clauses = [];
  for (let i = 0; i <= 1000; i++) clauses.push(`import d${i} from './data.json' with { type: 'json' };`);
  await writeFile(`${root}/many.mjs`, `${clauses.join('\n')}\nexport const last = d1000.value;\n`);

  await test('a module with 1001 attribute clauses loads', async () => {
    assertEquals((await import(`${root}/many.mjs`)).last, 42);
  });

  await test('a module worker with 1001 attribute clauses loads', async () => {
    await writeFile(`${root}/worker.mjs`, "import { last } from './many.mjs';\npostMessage(last);\n");
    const worker = new Worker(`file://${root}/worker.mjs`, { type: 'module' });
    const value = await new Promise((resolve, reject) => {
      worker.onmessage = (event) => resolve(event.data);
      worker.onerror = (event) => reject(new Error(event.message));
    });
    worker.terminate();
    assertEquals(value, 42);
  });

  await test("a with statement after an import is V8's error for the text as written", async () => {
    await writeFile(`${root}/empty.mjs`, '');
    const statement = "import './empty.mjs'\nwith (a) { console.log(a) }\n";
    await writeFile(`${root}/statement.mjs`, statement);
    await writeFile(`${root}/statement_and_clause.mjs`, `import './data.json' with { type: 'json' };\n${statement}`);
    for (const name of ['statement', 'statement_and_clause']) {
      await assertRejects(import(`${root}/${name}.mjs`), SyntaxError, /^Strict mode code may not include a with statement$/, name);
    }
  });

  await test('columns after a clause on its line are unchanged', async () => {
    const lines = [
      "import d from './data.json' with { type: 'json' }; export const first = new Error().stack;",
      "import e from './data.json'",
      "  with { type: 'json' }; export const second = new Error().stack;",
    ];
    await writeFile(`${root}/columns.mjs`, `${lines.join('\n')}\n`);
    const { first, second } = await import(`${root}/columns.mjs`);
    const at = (stack) => /columns\.mjs:(\d+:\d+)/.exec(stack)?.[1];
    assertEquals(at(first), `1:${lines[0].indexOf('new Error') + 1}`);
    assertEquals(at(second), `3:${lines[2].indexOf('new Error') + 1}`);
  });
} finally {
  await rm(root, { recursive: true });
}
