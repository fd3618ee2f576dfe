// hostloop:fs under concurrency: many operations in flight at once on the
// native thread pool each settle with their own result: 1000 files read with
// Promise.all give the right contents (as bytes and as text), 1000 reads of
// one file, mixed operations, and failures mixed with successes.
//
// Everything happens in a fresh directory under /tmp, created with
// hostloop:fs itself and removed at the end (also when a test fails).

import { readFile, writeFile, readdir, stat, mkdir, rm, rename } from 'hostloop:fs';
import { test, assert, assertEquals } from './lib/assert.mjs';

const root = `/tmp/hostloop-fs-test-${performance.timeOrigin}-${Math.random()}`;
await mkdir(root);
const at = (name) => `${root}/${name}`;
const COUNT = 1000;

// A distinct content per file, of varying length (0 to ~3 KB), non-ASCII.
const contentOf = (i) => `file ${i} ✓ ` + 'ab€'.repeat(i % 977) + (i % 3 === 0 ? '' : `\n#${i}`);

try {
  await test(`${COUNT} files written concurrently with Promise.all`, async () => {
    const results = await Promise.all(
      Array.from({ length: COUNT }, (_, i) => writeFile(at(`f${i}.txt`), contentOf(i))));
    assertEquals(results.length, COUNT);
    assert(results.every((r) => r === undefined), 'every writeFile resolves with undefined');
    assertEquals((await readdir(root)).length, COUNT, 'all files exist');
  });

  await test(`${COUNT} files read concurrently with Promise.all give the right contents (utf8)`, async () => {
    const texts = await Promise.all(Array.from({ length: COUNT }, (_, i) => readFile(at(`f${i}.txt`), 'utf8')));
    for (let i = 0; i < COUNT; i++) assertEquals(texts[i], contentOf(i), `content of f${i}.txt`);
  });

  await test(`${COUNT} files read concurrently as bytes give the right contents`, async () => {
    const encoder = new TextEncoder();
    const buffers = await Promise.all(Array.from({ length: COUNT }, (_, i) => readFile(at(`f${i}.txt`))));
    const seen = new Set();
    for (let i = 0; i < COUNT; i++) {
      const expected = encoder.encode(contentOf(i));
      assert(buffers[i] instanceof Uint8Array, `f${i}: a Uint8Array`);
      assertEquals(buffers[i].byteLength, expected.byteLength, `f${i}: length`);
      assertEquals(buffers[i], expected, `f${i}: bytes`);
      assert(!seen.has(buffers[i].buffer), `f${i}: its own ArrayBuffer`);
      seen.add(buffers[i].buffer);
    }
  });

  await test(`${COUNT} concurrent reads of the same file`, async () => {
    const content = contentOf(976);
    const texts = await Promise.all(Array.from({ length: COUNT }, () => readFile(at('f976.txt'), 'utf8')));
    assert(texts.every((t) => t === content), 'every read gives the same content');
  });

  await test('concurrent reads in reverse and interleaved order settle with their own file', async () => {
    const order = Array.from({ length: COUNT }, (_, i) => (i * 617) % COUNT);  // a permutation
    const settledOrder = [];
    const texts = await Promise.all(order.map((i) => readFile(at(`f${i}.txt`), 'utf8').then((text) => {
      settledOrder.push(i);
      return text;
    })));
    order.forEach((i, k) => assertEquals(texts[k], contentOf(i), `read #${k} (f${i})`));
    assertEquals(settledOrder.length, COUNT, 'every read settled once');
  });

  await test('failures mixed with successes each settle with their own outcome', async () => {
    const outcomes = await Promise.allSettled(Array.from({ length: COUNT }, (_, i) =>
      readFile(i % 2 === 0 ? at(`f${i}.txt`) : at(`missing-${i}.txt`), 'utf8')));
    outcomes.forEach((outcome, i) => {
      if (i % 2 === 0) {
        assertEquals(outcome.status, 'fulfilled', `#${i} status`);
        assertEquals(outcome.value, contentOf(i), `#${i} content`);
      } else {
        assertEquals(outcome.status, 'rejected', `#${i} status`);
        assertEquals([outcome.reason.code, outcome.reason.path], ['ENOENT', at(`missing-${i}.txt`)], `#${i} error`);
      }
    });
  });

  await test('mixed concurrent operations: stat, readdir, rename, writeFile, readFile', async () => {
    await mkdir(at('moved'));
    const jobs = [];
    for (let i = 0; i < 200; i++) {
      jobs.push(stat(at(`f${i}.txt`)).then((info) => assertEquals(info.size, new TextEncoder().encode(contentOf(i)).byteLength, `stat f${i}`)));
      jobs.push(rename(at(`f${200 + i}.txt`), at(`moved/g${i}.txt`)));
      jobs.push(writeFile(at(`new-${i}.bin`), new Uint8Array([i & 255, 0, 255])));
      jobs.push(readFile(at(`f${400 + i}.txt`), 'utf8').then((t) => assertEquals(t, contentOf(400 + i), `read f${400 + i}`)));
    }
    jobs.push(readdir(at('moved')).then((names) => assert(names.length <= 200, 'readdir during renames')));
    await Promise.all(jobs);
    assertEquals((await readdir(at('moved'))).length, 200, 'every rename landed');
    const moved = await Promise.all(Array.from({ length: 200 }, (_, i) => readFile(at(`moved/g${i}.txt`), 'utf8')));
    moved.forEach((text, i) => assertEquals(text, contentOf(200 + i), `moved g${i}`));
    const written = await Promise.all(Array.from({ length: 200 }, (_, i) => readFile(at(`new-${i}.bin`))));
    written.forEach((bytes, i) => assertEquals(Array.from(bytes), [i & 255, 0, 255], `new-${i}.bin`));
  });

  await test('readFile promises started in one task settle in later turns, never synchronously', async () => {
    let settled = 0;
    const all = Promise.all(Array.from({ length: 100 }, (_, i) => readFile(at(`f${i}.txt`)).then(() => settled++)));
    await Promise.resolve();
    await Promise.resolve();
    assertEquals(settled, 0, 'no read settles within the same microtask checkpoint');
    await all;
    assertEquals(settled, 100);
  });
} finally {
  await rm(root, { recursive: true, force: true });
}
