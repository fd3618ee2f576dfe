// hostloop:fs with an options object whose getter throws: the caller gets the
// getter's error and the operation does not run (nothing is created, read or
// removed, and no second, unreachable promise rejects later). node's
// fs.promises functions reject with the getter's error and do nothing.

import { readFile, mkdir, rm, readdir, stat } from 'hostloop:fs';
import { test, assert, assertEquals } from './lib/assert.mjs';

const root = `/tmp/hostloop-fs-test-${performance.timeOrigin}-${Math.random()}`;
await mkdir(root);

// Runs `call`; the getter's error must reach the caller (a rejection, as in
// node; a synchronous throw is tolerated here, the side effects are what
// this file checks).
async function expectGetterError(call, what) {
  let caught;
  try {
    await call();
  } catch (error) {
    caught = error;
  }
  assert(caught !== undefined, `${what}: no error reached the caller`);
  assertEquals(caught.message, 'from the getter', `${what}: the getter's error`);
}

// An options object whose property `name` throws when read (others are plain).
const throwing = (name, others = {}) => Object.defineProperty({ ...others }, name, {
  get() { throw new Error('from the getter'); },
  enumerable: true,
});

try {
  await test('mkdir: a throwing `recursive` getter creates nothing', async () => {
    await expectGetterError(() => mkdir(`${root}/created`, throwing('recursive')), 'mkdir');
    // Let a pool job that was started anyway finish.
    await new Promise((resolve) => setTimeout(resolve, 200));
    assertEquals(await readdir(root), [], 'no directory was created');
  });

  await test('rm: a throwing `force` getter removes nothing', async () => {
    await mkdir(`${root}/kept`);
    await expectGetterError(() => rm(`${root}/kept`, throwing('force', { recursive: true })), 'rm');
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert((await stat(`${root}/kept`)).isDirectory, 'the directory is still there');
  });

  await test('readFile: a throwing `encoding` getter starts no read (no unhandled rejection later)', async () => {
    // If the read were started anyway, its promise (which nobody holds)
    // would reject with ENOENT and end the program as an unhandled rejection.
    await expectGetterError(() => readFile(`${root}/missing`, throwing('encoding')), 'readFile');
    await new Promise((resolve) => setTimeout(resolve, 200));
  });
} finally {
  await rm(root, { recursive: true, force: true });
}
