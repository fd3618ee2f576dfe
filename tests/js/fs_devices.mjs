// timeout: 170
// hostloop:fs on character devices, which the runtime's loop reads and
// writes (src/runtime/fs_watches.h), as it does FIFOs and pipes: /dev/null
// reads as empty and takes any write; /dev/full fails a write with ENOSPC,
// an error of the usual shape; /dev/zero never ends, so readFile fills its
// buffer to the limit and rejects with ERR_FS_FILE_TOO_LARGE, as on the
// thread pool before (and as node does), while the loop goes on; and a
// signal stops such a read at once, which a pool thread could not.

import { readFile, writeFile, appendFile, stat } from 'hostloop:fs';
import { test, assert, assertEquals } from './lib/assert.mjs';

async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('resolved');
}

await test('/dev/null reads as empty, bytes and text', async () => {
  const bytes = await readFile('/dev/null');
  assert(bytes instanceof Uint8Array, 'a Uint8Array');
  assertEquals(bytes.length, 0, 'no bytes');
  assertEquals(await readFile('/dev/null', 'utf8'), '', 'no text');
  assertEquals(await readFile('/dev/null', { signal: new AbortController().signal }), new Uint8Array(0), 'with a signal');
});

await test('/dev/null takes writes and appends of any size', async () => {
  assertEquals(await writeFile('/dev/null', 'text'), undefined, 'text');
  assertEquals(await writeFile('/dev/null', new Uint8Array(5 * 1024 * 1024 + 3)), undefined, '5 MiB, more than one step');
  assertEquals(await appendFile('/dev/null', new ArrayBuffer(10)), undefined, 'append');
  assertEquals(await writeFile('/dev/null', ''), undefined, 'nothing');
  assertEquals((await stat('/dev/null')).isFile, false, 'not a regular file');
});

await test('/dev/full: a write fails with ENOSPC (code, errno, syscall, path)', async () => {
  const error = await rejection(writeFile('/dev/full', 'x'));
  assert(error instanceof Error, 'an Error');
  assertEquals([error.code, error.errno, error.syscall, error.path], ['ENOSPC', -28, 'write', '/dev/full']);
  assertEquals(error.message, "ENOSPC: no space left on device, write '/dev/full'");
});

await test('/dev/zero: readFile stops at its limit with ERR_FS_FILE_TOO_LARGE, and timers run meanwhile', async () => {
  let ticks = 0;
  const interval = setInterval(() => ticks++, 1);
  const error = await rejection(readFile('/dev/zero', 'utf8'));
  clearInterval(interval);
  assert(error instanceof RangeError, `a RangeError: ${error}`);
  assertEquals([error.code, error.path], ['ERR_FS_FILE_TOO_LARGE', '/dev/zero']);
  assert(/is greater than what readFile can return as a string/.test(error.message), error.message);
  // (Read in steps of 1 MiB on the loop: the timer got turns in between.)
  assert(ticks > 0, 'the interval ran while /dev/zero was read');
});

await test('/dev/zero and /dev/urandom: a signal stops the endless read at once', async () => {
  const order = [];
  const controller = new AbortController();
  const aborted = rejection(readFile('/dev/zero', { encoding: 'utf8', signal: controller.signal }))
    .then((error) => order.push(`aborted: ${error.message}`));
  await new Promise((resolve) => setTimeout(resolve, 20));
  controller.abort(new Error('enough zeros'));
  // The promise is rejected by abort() itself; a pool thread went on to the
  // limit, and the abort was seen only then, long after this small read.
  const small = readFile('/proc/self/stat').then(() => order.push('a small read'));
  await Promise.all([aborted, small]);
  assertEquals(order, ['aborted: enough zeros', 'a small read']);
  const error = await rejection(readFile('/dev/urandom', { encoding: 'utf8', signal: AbortSignal.timeout(20) }));
  assertEquals(error.name, 'TimeoutError', 'urandom: the timeout signal');
});
