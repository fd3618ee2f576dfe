// A failed import inside an import cycle: a.mjs and b.mjs import each other
// and a.mjs also imports a file that does not exist. Every import of either
// module fails with the missing module's error, and nothing of a failed
// attempt counts as loaded, so once the file exists either module imports
// (each module evaluated once). Importing b.mjs after a.mjs had failed threw
// the loader's internal "module './missing.mjs' was not loaded before
// instantiation", and kept throwing it after the file was written: b.mjs was
// left marked as loaded by the failed attempt.
//
// The modules are written to a fresh directory under /tmp, removed at the end.

import { writeFile, mkdir, rm } from 'hostloop:fs';
import { test, assertEquals, assertRejects } from './lib/assert.mjs';

const root = `/tmp/hostloop-cycle-test-${performance.timeOrigin}-${Math.random()}`;
await mkdir(root);
try {
  globalThis.evaluated = [];
  await writeFile(`${root}/a.mjs`, "import './b.mjs';\nimport './missing.mjs';\nevaluated.push('a');\n");
  await writeFile(`${root}/b.mjs`, "import './a.mjs';\nevaluated.push('b');\n");
  const missing = `Cannot find module '${root}/missing.mjs' imported from ${root}/a.mjs`;

  await test('importing a, then b, fails each time with the missing module of a', async () => {
    for (const name of ['a', 'b', 'a', 'b']) {
      const error = await assertRejects(import(`${root}/${name}.mjs`), Error);
      assertEquals(error.message, missing, `import ${name}`);
    }
    assertEquals(evaluated, []);
  });

  await test('once the missing module exists, importing b first evaluates the cycle once', async () => {
    await writeFile(`${root}/missing.mjs`, "evaluated.push('missing');\n");
    const b = await import(`${root}/b.mjs`);
    assertEquals(evaluated, ['missing', 'a', 'b']);
    await import(`${root}/a.mjs`);
    assertEquals(await import(`${root}/b.mjs`), b);
    assertEquals(evaluated, ['missing', 'a', 'b']);
  });
} finally {
  await rm(root, { recursive: true });
}
