// hostloop:fs options, as node's fs/promises reads them, and nothing
// silently ignored (an exploratory run found mode, signal, withFileTypes and
// bigint dropped without a word, and a string accepted as mkdir's or rm's
// options):
//  - readdir lists names in byte order, as node (readdir(3) order depends on
//    the file system); withFileTypes gives { name, parentPath, isFile,
//    isDirectory, isSymbolicLink }; recursive and a non-utf8 encoding are
//    refused with a TypeError that says so;
//  - mkdir takes a mode (number or octal string) as its second argument or
//    as the `mode` option; recursive resolves with the first directory it
//    created (undefined when none); anything else as options is a TypeError;
//  - writeFile/appendFile take `mode` for a file they create;
//  - `signal`: an aborted AbortSignal rejects with its reason and nothing is
//    done (the file is not written); a signal aborted while readFile runs
//    rejects with its reason (also one shared by many reads, after the
//    others finished); a value that is not an AbortSignal is a TypeError;
//  - stat's bigint is refused; rm's options must be an object.

import { readFile, writeFile, appendFile, readdir, stat, mkdir, rm } from 'hostloop:fs';
import { test, assert, assertEquals, assertRejects } from './lib/assert.mjs';

const root = `/tmp/hostloop-fs-options-${performance.timeOrigin}-${Math.random()}`;
await mkdir(root);
const at = (name) => `${root}/${name}`;
const permissions = async (path) => (await stat(path)).mode & 0o777;

try {
  await test('readdir: byte order; withFileTypes entries; unsupported options refused', async () => {
    const names = ['zeta', 'alpha', 'Beta', '_x', 'éclair', 'a10', 'a9'];
    for (const name of names) await writeFile(at(name), '');
    await mkdir(at('dir'));
    const sorted = [...names, 'dir'].sort((a, b) => {
      const x = new TextEncoder().encode(a);
      const y = new TextEncoder().encode(b);
      for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
      return x.length - y.length;
    });
    assertEquals(JSON.stringify(await readdir(root)), JSON.stringify(sorted), 'byte order');
    const entries = await readdir(root, { withFileTypes: true });
    assertEquals(JSON.stringify(entries.map((e) => e.name)), JSON.stringify(sorted));
    const dir = entries.find((e) => e.name === 'dir');
    assert(dir.isDirectory && !dir.isFile && !dir.isSymbolicLink, 'a directory entry');
    const file = entries.find((e) => e.name === 'zeta');
    assert(file.isFile && !file.isDirectory && !file.isSymbolicLink, 'a file entry');
    assertEquals(file.parentPath, root);
    await assertRejects(readdir(root, { recursive: true }), TypeError, 'recursive');
    await assertRejects(readdir(root, { encoding: 'buffer' }), TypeError, 'buffer');
    for (const name of [...names, 'dir']) await rm(at(name), { recursive: true });
  });

  await test('mkdir: mode, recursive result, bad options', async () => {
    assertEquals(await mkdir(at('m1'), { mode: 0o700 }), undefined);
    assertEquals(await permissions(at('m1')), 0o700);
    await mkdir(at('m2'), 0o750);
    assertEquals(await permissions(at('m2')), 0o750);
    await mkdir(at('m3'), '711');
    assertEquals(await permissions(at('m3')), 0o711);
    assertEquals(await mkdir(at('r/s/t'), { recursive: true }), at('r'), 'first created');
    assertEquals(await mkdir(at('r/s/t'), { recursive: true }), undefined, 'all there');
    assertEquals(await mkdir(at('r/s/u/v'), { recursive: true, mode: 0o700 }), at('r/s/u'));
    assertEquals(await permissions(at('r/s/u/v')), 0o700);
    await assertRejects(mkdir(at('m4'), 'x'), TypeError, 'mode', 'not an octal string');
    await assertRejects(mkdir(at('m4'), true), TypeError, 'options', 'a boolean');
    await assertRejects(mkdir(at('m4'), { mode: -1 }), TypeError, 'mode', 'negative');
    await writeFile(at('file'), '');
    const inTheWay = await assertRejects(mkdir(at('file/x'), { recursive: true }), Error);
    assertEquals(inTheWay.code, 'ENOTDIR');
    const atPath = await assertRejects(mkdir(at('file'), { recursive: true }), Error);
    assertEquals(atPath.code, 'EEXIST');
    assertEquals((await assertRejects(mkdir(at('file/'), { recursive: true }), Error)).code, 'ENOTDIR');
  });

  await test('writeFile/appendFile: mode of a created file', async () => {
    await writeFile(at('w1'), 'x', { mode: 0o600 });
    assertEquals(await permissions(at('w1')), 0o600);
    await appendFile(at('w2'), 'x', { mode: 0o640 });
    assertEquals(await permissions(at('w2')), 0o640);
    await assertRejects(writeFile(at('w3'), 'x', { mode: 'rw' }), TypeError, 'mode');
  });

  await test('signal: aborted first, nothing done; aborted during a read; not a signal', async () => {
    await writeFile(at('s'), 'before');
    const reason = new Error('J stop');
    assertEquals(await assertRejects(writeFile(at('s'), 'after', { signal: AbortSignal.abort(reason) })),
      reason, 'rejects with the reason');
    await assertRejects(appendFile(at('s'), 'after', { signal: AbortSignal.abort() }), 'AbortError');
    assertEquals(await readFile(at('s'), 'utf8'), 'before', 'nothing written');
    await assertRejects(readFile(at('s'), { signal: AbortSignal.abort() }), 'AbortError');
    const controller = new AbortController();
    const reading = readFile(at('s'), { signal: controller.signal });
    controller.abort(reason);
    assertEquals(await assertRejects(reading), reason, 'aborted while reading');
    assertEquals(await readFile(at('s'), { encoding: 'utf8', signal: new AbortController().signal }), 'before');
    // One signal for many reads: the ones that finished are done with it;
    // its abort reaches the one still pending.
    const shared = new AbortController();
    for (let i = 0; i < 50; i++) {
      assertEquals(await readFile(at('s'), { encoding: 'utf8', signal: shared.signal }), 'before');
    }
    const lastRead = readFile(at('s'), { signal: shared.signal });
    shared.abort(reason);
    assertEquals(await assertRejects(lastRead), reason, 'the read pending at the abort');
    await assertRejects(readFile(at('s'), { signal: {} }), TypeError, 'AbortSignal');
    await assertRejects(writeFile(at('s'), 'x', { signal: 1 }), TypeError, 'AbortSignal');
    assertEquals(await readFile(at('s'), 'utf8'), 'before');
  });

  await test('stat bigint and rm options are refused, not ignored', async () => {
    await assertRejects(stat(root, { bigint: true }), TypeError, 'bigint');
    assertEquals(typeof (await stat(root, { bigint: false })).size, 'number');
    await writeFile(at('gone'), '');
    await assertRejects(rm(at('gone'), 'x'), TypeError, 'options');
    await rm(at('gone'));
  });
} finally {
  await rm(root, { recursive: true, force: true });
}
