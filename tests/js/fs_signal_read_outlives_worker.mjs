// hostloop:fs readFile with a `signal`, pending when the worker that made
// the call is terminated (or closes itself): the read's job finishes on a
// pool thread after the worker's isolate is gone, and its completion is
// refused and destroyed there. The signal used to travel with the job (a
// v8::Global in the completion), so destroying the job touched the dead
// isolate's handles from the pool thread: a crash, or a heap-use-after-free
// under ASan. The signal now stays on the worker's thread, beside the
// promise (PendingPromises). The test passes when the program exits 0 with
// no sanitizer report and the parent's own reads, with and without a
// signal, still work. (A FIFO read with a signal, which waits on the loop
// instead of the pool, is in tests/cli_test.py.)
//
// The worker script and the large file live in a fresh directory under
// /tmp, created with hostloop:fs and removed at the end.

import { readFile, writeFile, mkdir, rm } from 'hostloop:fs';
import { test, assert, assertEquals } from './lib/assert.mjs';

const root = `/tmp/hostloop-fs-test-${performance.timeOrigin}-${Math.random()}`;
await mkdir(root);

const BIG_SIZE = 2 * 1024 * 1024;
const READS = 24;
const ROUNDS = 20;
const big = `${root}/big.bin`;

function nextMessage(worker, what) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: no message within 30 s`)), 30000);
    worker.addEventListener('message', (event) => {
      clearTimeout(timer);
      resolve(event.data);
    }, { once: true });
  });
}

// Starts READS reads of the large file, each with a signal (one shared, one
// of its own, one that a timeout aborts later, one aborted while pending),
// then posts 'started' or closes itself.
const source = `
import { readFile } from 'hostloop:fs';
self.onmessage = ({ data: { close } }) => {
  const shared = new AbortController();
  const aborted = new AbortController();
  for (let i = 0; i < ${READS}; i++) {
    const signal = [shared.signal, new AbortController().signal, AbortSignal.timeout(60000), aborted.signal][i % 4];
    readFile(${JSON.stringify(big)}, i % 2 ? { signal } : { signal, encoding: 'utf8' }).catch(() => {});
  }
  aborted.abort();
  if (close) self.close();
  else self.postMessage('started');
};
`;

try {
  await writeFile(big, new Uint8Array(BIG_SIZE).fill(0x61));
  await writeFile(`${root}/reader.mjs`, source);
  const url = new URL(`file://${root}/reader.mjs`);

  await test(`terminate() with ${READS} reads with a signal pending, ${ROUNDS} times`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const worker = new Worker(url, { type: 'module' });
      const started = nextMessage(worker, `round ${round}`);
      worker.postMessage({ close: false });
      assertEquals(await started, 'started', `round ${round}`);
      worker.terminate();
    }
  });

  await test(`self.close() with ${READS} reads with a signal pending, ${ROUNDS} times`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      new Worker(url, { type: 'module' }).postMessage({ close: true });
    }
  });

  await test('the parent\'s reads queued behind them all resolve, with and without a signal', async () => {
    // The pool runs jobs in order: when these are back, every job of the
    // workers above has finished and its completion was dropped.
    const controller = new AbortController();
    for (let i = 0; i < 3; i++) {
      const reads = await Promise.all([
        ...Array.from({ length: 8 }, () => readFile(big, { signal: controller.signal })),
        ...Array.from({ length: 8 }, () => readFile(big)),
      ]);
      assert(reads.every((bytes) => bytes.byteLength === BIG_SIZE && bytes[BIG_SIZE - 1] === 0x61),
             'the parent\'s reads are whole');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const aborted = readFile(big, { signal: controller.signal });
    controller.abort(new Error('stop'));
    await aborted.then(() => assert(false, 'an aborted read resolved'),
                       (error) => assertEquals(error.message, 'stop', 'the abort reason'));
  });
} finally {
  await rm(root, { recursive: true, force: true });
}
