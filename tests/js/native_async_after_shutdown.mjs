// A native completion that arrives after its runtime shut down is dropped
// without a crash (docs/EMBEDDING.md "Native modules"; native_module.h):
// workers start many hostloop:fs operations (readFile of a large file,
// stat, readdir, writeFile) and are stopped at once, by terminate() from the
// parent or by self.close() right after starting them, so the pool jobs
// finish and post their completions to a runtime that is gone. Repeated
// ~20 times each. The test passes when the program exits 0 with no sanitizer
// report (the ASan run of `make test` runs this same file), the parent's own
// fs calls keep working, and after self.close() no completion callback runs
// in the closed worker (HTML: nothing runs after close(); what the closing
// task posts after close() still arrives).
//
// The worker scripts and the large file live in a fresh directory under
// /tmp, created with hostloop:fs and removed at the end.

import { readFile, writeFile, mkdir, rm, stat } from 'hostloop:fs';
import { test, assert, assertEquals } from './lib/assert.mjs';

const root = `/tmp/hostloop-fs-test-${performance.timeOrigin}-${Math.random()}`;
await mkdir(root);

const BIG_SIZE = 2 * 1024 * 1024;
const READS = 24;
const ROUNDS = 20;
const big = `${root}/big.bin`;

// Rejects if `promise` has not settled within `ms` (a bound, not a timing assertion).
function within(promise, ms, what) {
  let timer;
  const bound = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  return Promise.race([promise, bound]).finally(() => clearTimeout(timer));
}

function nextMessage(worker, what) {
  return within(new Promise((resolve) => {
    worker.addEventListener('message', (event) => resolve(event.data), { once: true });
  }), 30000, what);
}

function fileUrl(path) {
  return new URL(`file://${path}`);
}

// A worker module that starts READS reads of the large file plus a few other
// operations, counts settled operations in a shared Int32Array (slot 0), and
// then either posts 'started' (the parent terminates it) or calls close().
function workerSource({ close }) {
  return `
import { readFile, stat, readdir, writeFile } from 'hostloop:fs';
self.onmessage = ({ data }) => {
  const { counter, index, write = true } = data;
  const settled = () => Atomics.add(counter, 0, 1);
  for (let i = 0; i < ${READS}; i++) readFile(${JSON.stringify(big)}).then(settled, settled);
  readFile(${JSON.stringify(big)}, 'utf8').then(settled, settled);
  readFile(${JSON.stringify(`${root}/missing`)}).then(settled, settled);
  stat(${JSON.stringify(big)}).then(settled, settled);
  readdir(${JSON.stringify(root)}).then(settled, settled);
  if (write) writeFile(${JSON.stringify(root)} + '/written-' + index, 'x'.repeat(65536)).then(settled, settled);
  ${close ? 'self.close();' : "self.postMessage('started');"}
  ${close ? "self.postMessage('after close, same task');" : ''}
};
`;
}

try {
  const content = new Uint8Array(BIG_SIZE);
  for (let i = 0; i < content.length; i++) content[i] = (i * 7) & 255;
  await writeFile(big, content);
  await writeFile(`${root}/terminated.mjs`, workerSource({ close: false }));
  await writeFile(`${root}/closing.mjs`, workerSource({ close: true }));

  await test(`terminate() right after a worker started ${READS + 5} fs operations, ${ROUNDS} times`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const worker = new Worker(fileUrl(`${root}/terminated.mjs`), { type: 'module', name: `terminated-${round}` });
      const counter = new Int32Array(new SharedArrayBuffer(4));
      const started = nextMessage(worker, `round ${round}: 'started'`);
      worker.postMessage({ counter, index: round });
      assertEquals(await started, 'started', `round ${round}`);
      worker.terminate();
    }
  });

  await test(`terminate() before the worker even ran its script, ${ROUNDS} times`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const worker = new Worker(fileUrl(`${root}/terminated.mjs`), { type: 'module' });
      worker.postMessage({ counter: new Int32Array(new SharedArrayBuffer(4)), index: 100 + round });
      worker.terminate();
    }
  });

  await test(`self.close() right after starting the operations, ${ROUNDS} times: no completion runs in the closed worker`, async () => {
    const counters = [];
    const arrivals = [];
    for (let round = 0; round < ROUNDS; round++) {
      const worker = new Worker(fileUrl(`${root}/closing.mjs`), { type: 'module', name: `closing-${round}` });
      worker.onmessage = (event) => arrivals.push(event.data);
      const counter = new Int32Array(new SharedArrayBuffer(4));
      counters.push(counter);
      worker.postMessage({ counter, index: 200 + round });
    }
    // The parent's own reads queue behind the workers' jobs on the pool; when
    // they are back, the workers' operations have at least started. Then give
    // their completions time to be posted (and dropped).
    for (let i = 0; i < 3; i++) {
      const reads = await Promise.all(Array.from({ length: 8 }, () => readFile(big)));
      assert(reads.every((bytes) => bytes.byteLength === BIG_SIZE), 'the parent\'s reads are whole');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    counters.forEach((counter, round) => assertEquals(Atomics.load(counter, 0), 0, `round ${round}: completions run after close()`));
    // What the closing task itself posts after close() is delivered (HTML:
    // close() sets the closing flag; the worker's port stays entangled until
    // the worker has ended); nothing a completion would post ever is.
    assertEquals(arrivals, Array(ROUNDS).fill('after close, same task'), 'messages of the closing tasks only');
  });

  await test('the parent\'s fs calls still work after all those dropped completions', async () => {
    const reads = await Promise.all(Array.from({ length: 50 }, () => readFile(big)));
    for (const bytes of reads) {
      assertEquals(bytes.byteLength, BIG_SIZE, 'size');
      assert(bytes[1] === 7 && bytes[BIG_SIZE - 1] === (((BIG_SIZE - 1) * 7) & 255), 'content');
    }
    assertEquals((await stat(big)).size, BIG_SIZE, 'stat');
  });

  await test('a worker terminated while its reads are in flight, then the program ends at once', async () => {
    // The last round leaves its jobs on the pool while the parent tears
    // down (the rm below and the exit queue behind them or race with them).
    // It only reads, so the rm of the directory cannot race with a write.
    const worker = new Worker(fileUrl(`${root}/terminated.mjs`), { type: 'module', name: 'last' });
    const started = nextMessage(worker, "last round: 'started'");
    worker.postMessage({ counter: new Int32Array(new SharedArrayBuffer(4)), index: 999, write: false });
    assertEquals(await started, 'started');
    worker.terminate();
  });
} finally {
  await rm(root, { recursive: true, force: true });
}
