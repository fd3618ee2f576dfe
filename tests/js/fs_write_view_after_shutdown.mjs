// hostloop:fs writeFile/appendFile of an ArrayBuffer or a view, pending when
// the worker that made the call is terminated (or closes itself): the write
// job holds the buffer's V8 BackingStore, and the job (with its payload) is
// destroyed on a pool thread after the worker's isolate is gone. That must
// neither crash nor leak (docs/EMBEDDING.md: "A completion that arrives after
// its runtime shut down is dropped safely"). The same calls with string data
// are covered by native_async_after_shutdown.mjs.
//
// The worker script lives in a fresh directory under /tmp, created with
// hostloop:fs and removed at the end.

import { readdir, writeFile, mkdir, rm } from 'hostloop:fs';
import { test, assert, assertEquals } from './lib/assert.mjs';

const root = `/tmp/hostloop-fs-test-${performance.timeOrigin}-${Math.random()}`;
await mkdir(`${root}/out`, { recursive: true });
const ROUNDS = 20;

function nextMessage(worker) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no message from the worker within 30 s')), 30000);
    worker.addEventListener('message', (event) => {
      clearTimeout(timer);
      resolve(event.data);
    }, { once: true });
  });
}

const source = `
import { writeFile, appendFile } from 'hostloop:fs';
self.onmessage = ({ data: { index, close } }) => {
  const dir = ${JSON.stringify(`${root}/out`)};
  const buffer = new ArrayBuffer(256 * 1024);
  for (let i = 0; i < 8; i++) {
    writeFile(dir + '/view-' + index + '-' + i, new Uint8Array(buffer, i, 1000 + i));
    writeFile(dir + '/buffer-' + index + '-' + i, new ArrayBuffer(128 * 1024));
    appendFile(dir + '/append-' + index + '-' + i, new Float64Array(4096));
  }
  if (close) self.close();
  else self.postMessage('started');
};
`;

try {
  await writeFile(`${root}/writer.mjs`, source);
  const url = new URL(`file://${root}/writer.mjs`);

  await test(`terminate() with ArrayBuffer/view writes pending, ${ROUNDS} times`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const worker = new Worker(url, { type: 'module' });
      const started = nextMessage(worker);
      worker.postMessage({ index: round, close: false });
      assertEquals(await started, 'started', `round ${round}`);
      worker.terminate();
    }
  });

  await test(`self.close() with ArrayBuffer/view writes pending, ${ROUNDS} times`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const worker = new Worker(url, { type: 'module' });
      worker.postMessage({ index: 100 + round, close: true });
    }
    // Every worker issued its 24 writes before it was terminated or closed
    // itself, and the pool finishes them all: wait for the last file (the
    // directory cannot be removed while writes still create files in it).
    const expected = 2 * ROUNDS * 24;
    const deadline = performance.now() + 60000;
    let count = 0;
    while ((count = (await readdir(`${root}/out`)).length) < expected && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assertEquals(count, expected, 'every pending write was done');
  });
} finally {
  await rm(root, { recursive: true, force: true });
}
