// hostloop:fs directories and metadata: readdir (many entries, non-ASCII
// names), stat of files and directories, mkdir (plain and recursive: the first
// directory created comes back, existing directories are fine, a file in the
// way fails), rm (files, nested trees, force on a missing path) and rename
// (files and directories, in a directory and across directories).
//
// Everything happens in a fresh directory under /tmp, created with
// hostloop:fs itself and removed at the end (also when a test fails).

import { readFile, writeFile, readdir, stat, mkdir, rm, rename } from 'hostloop:fs';
import { test, assert, assertEquals, assertRejects } from './lib/assert.mjs';

const root = `/tmp/hostloop-fs-test-${performance.timeOrigin}-${Math.random()}`;
assertEquals(await mkdir(root), undefined, 'mkdir (not recursive) resolves with undefined');
const at = (name) => `${root}/${name}`;

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

async function exists(path) {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if (error.code === 'ENOENT') return false;
    throw error;
  }
}

async function assertMissing(path, what = path) {
  const error = await assertRejects(stat(path), Error, undefined, `${what} should be gone`);
  assertEquals(error.code, 'ENOENT', `${what}: stat error code`);
}

try {
  await test('readdir lists every entry of a directory with 3000 entries, without . and ..', async () => {
    const dir = at('many');
    await mkdir(dir);
    const names = [];
    for (let i = 0; i < 3000; i++) names.push(`entry-${i}${i % 7 === 0 ? '.txt' : ''}`);
    // Written in batches so the test does not depend on a large fd limit.
    for (let i = 0; i < names.length; i += 250) {
      await Promise.all(names.slice(i, i + 250).map((name) => writeFile(`${dir}/${name}`, name)));
    }
    await mkdir(`${dir}/a-subdirectory`);
    const listed = await readdir(dir);
    assert(Array.isArray(listed), 'readdir resolves with an array');
    assert(listed.every((name) => typeof name === 'string'), 'names are strings');
    assertEquals(listed.length, 3001, 'entry count');
    assertEquals([...listed].sort(), [...names, 'a-subdirectory'].sort(), 'the names');
    assert(!listed.includes('.') && !listed.includes('..'), '. and .. are not listed');
  });

  await test('readdir of an empty directory is []', async () => {
    await mkdir(at('empty'));
    assertEquals(await readdir(at('empty')), []);
  });

  await test('non-ASCII and unusual file names round-trip through readdir, stat and readFile', async () => {
    const dir = at('names');
    await mkdir(dir);
    const names = ['ünïcødé.txt', '日本語のファイル', 'emoji 😀.bin', 'space and \'quote\'', '-dash', '.hidden', 'a\nnewline'];
    for (const name of names) await writeFile(`${dir}/${name}`, `content of ${name}`);
    assertEquals((await readdir(dir)).sort(), [...names].sort());
    for (const name of names) {
      assertEquals(await readFile(`${dir}/${name}`, 'utf8'), `content of ${name}`, name);
      assert((await stat(`${dir}/${name}`)).isFile, `${name} is a file`);
    }
  });

  await test('stat of a file: size, mode, isFile, isDirectory, times', async () => {
    const before = Date.now();
    await writeFile(at('stat.txt'), 'twelve bytes');
    const info = await stat(at('stat.txt'));
    assertEquals(Object.getPrototypeOf(info), Object.prototype, 'a plain object');
    assertEquals(info.size, 12, 'size');
    assertEquals(info.isFile, true, 'isFile');
    assertEquals(info.isDirectory, false, 'isDirectory');
    assertEquals(info.isSymbolicLink, false, 'isSymbolicLink');
    assertEquals(info.mode & S_IFMT, S_IFREG, 'mode has S_IFREG');
    assert((info.mode & 0o777) !== 0, `permission bits: ${(info.mode & 0o777).toString(8)}`);
    assertEquals(info.nlink, 1, 'nlink');
    for (const key of ['mtimeMs', 'atimeMs', 'ctimeMs', 'ino', 'dev', 'uid', 'gid']) {
      assertEquals(typeof info[key], 'number', `${key} is a number`);
    }
    // A generous window (file system timestamp granularity, clock skew).
    assert(Math.abs(info.mtimeMs - before) < 60_000, `mtimeMs ${info.mtimeMs} is near ${before}`);
    assert(Math.abs(info.ctimeMs - before) < 60_000, `ctimeMs ${info.ctimeMs} is near ${before}`);
  });

  await test('stat of a directory and of a 0-byte file', async () => {
    await mkdir(at('stat-dir'));
    await writeFile(at('stat-dir/inner'), '');
    const info = await stat(at('stat-dir'));
    assertEquals(info.isDirectory, true, 'isDirectory');
    assertEquals(info.isFile, false, 'isFile');
    assertEquals(info.mode & S_IFMT, S_IFDIR, 'mode has S_IFDIR');
    assert(info.nlink >= 2, `nlink ${info.nlink}`);
    const empty = await stat(at('stat-dir/inner'));
    assertEquals([empty.size, empty.isFile, empty.isDirectory], [0, true, false], 'empty file');
    // stat follows symbolic links: /proc/self is a link to a directory.
    const self = await stat('/proc/self');
    assertEquals([self.isDirectory, self.isSymbolicLink], [true, false], 'stat(/proc/self)');
  });

  await test('stat sees a change of size after writeFile and appendFile', async () => {
    await writeFile(at('grow.txt'), 'abc');
    assertEquals((await stat(at('grow.txt'))).size, 3);
    await writeFile(at('grow.txt'), 'abcdefgh');
    assertEquals((await stat(at('grow.txt'))).size, 8);
  });

  await test('mkdir recursive resolves with the first directory it created', async () => {
    const base = at('mk');
    assertEquals(await mkdir(`${base}/a/b/c`, { recursive: true }), base, 'all of mk/a/b/c was missing');
    assert((await stat(`${base}/a/b/c`)).isDirectory, 'the leaf exists');
    assertEquals(await mkdir(`${base}/a/b/x/y`, { recursive: true }), `${base}/a/b/x`, 'mk/a/b existed');
    assertEquals(await mkdir(`${base}/a/b/x/y/z`, { recursive: true }), `${base}/a/b/x/y/z`, 'only the leaf was missing');
  });

  await test('mkdir recursive of existing directories is fine and resolves with undefined', async () => {
    await mkdir(at('mk-existing/a'), { recursive: true });
    assertEquals(await mkdir(at('mk-existing/a'), { recursive: true }), undefined, 'whole path exists');
    assertEquals(await mkdir(at('mk-existing'), { recursive: true }), undefined, 'a prefix exists');
    assertEquals(await mkdir('/tmp', { recursive: true }), undefined, '/tmp');
    assertEquals(await mkdir('/', { recursive: true }), undefined, '/');
  });

  await test('mkdir recursive accepts a trailing slash and repeated slashes', async () => {
    await mkdir(at('mk-slashes//a///b/'), { recursive: true });
    assert((await stat(at('mk-slashes/a/b'))).isDirectory, 'created');
  });

  await test('mkdir recursive with a file in the way: EEXIST at the path itself, ENOTDIR below it (as node)', async () => {
    await mkdir(at('mk-file'));
    await writeFile(at('mk-file/plain'), 'a file');
    for (const [path, code] of [[at('mk-file/plain'), 'EEXIST'], [at('mk-file/plain/'), 'ENOTDIR'],
      [at('mk-file/plain/below'), 'ENOTDIR'], [at('mk-file/plain/below/deeper'), 'ENOTDIR']]) {
      const error = await assertRejects(mkdir(path, { recursive: true }), Error, undefined, path);
      assertEquals(error.code, code, `${path}: code`);
      assertEquals(error.syscall, 'mkdir', `${path}: syscall`);
      assertEquals(typeof error.errno, 'number', `${path}: errno`);
    }
    assertEquals(await readFile(at('mk-file/plain'), 'utf8'), 'a file', 'the file is untouched');
  });

  await test('mkdir of an empty path is ENOENT, recursive or not (as node)', async () => {
    for (const recursive of [false, true]) {
      const error = await assertRejects(mkdir('', { recursive }), Error, undefined, `recursive: ${recursive}`);
      assertEquals(error.code, 'ENOENT', `recursive: ${recursive}`);
    }
  });

  await test('rm removes a file, and with recursive a nested tree', async () => {
    await writeFile(at('rm-file'), 'x');
    assertEquals(await rm(at('rm-file')), undefined, 'rm of a file resolves with undefined');
    await assertMissing(at('rm-file'));

    // A tree: 30 levels deep, each level with files and an empty directory.
    let path = at('rm-tree');
    for (let depth = 0; depth < 30; depth++) {
      path += `/level-${depth}`;
      await mkdir(path, { recursive: true });
      await writeFile(`${path}/file-a`, 'a');
      await writeFile(`${path}/file-b`, new Uint8Array(1000));
      await mkdir(`${path}/empty-dir`);
    }
    // Plus a wide directory.
    await mkdir(at('rm-tree/wide'));
    await Promise.all(Array.from({ length: 300 }, (_, i) => writeFile(at(`rm-tree/wide/${i}`), `${i}`)));
    assertEquals(await rm(at('rm-tree'), { recursive: true }), undefined, 'rm recursive resolves with undefined');
    await assertMissing(at('rm-tree'));
    assertEquals(await exists(root), true, 'the parent stays');
  });

  await test('rm recursive of a single file and of an empty directory', async () => {
    await writeFile(at('rm-r-file'), 'x');
    await rm(at('rm-r-file'), { recursive: true });
    await assertMissing(at('rm-r-file'));
    await mkdir(at('rm-r-empty'));
    await rm(at('rm-r-empty'), { recursive: true });
    await assertMissing(at('rm-r-empty'));
  });

  await test('rm without recursive refuses a directory and leaves it', async () => {
    await mkdir(at('rm-dir'));
    await writeFile(at('rm-dir/kept'), 'kept');
    const error = await assertRejects(rm(at('rm-dir')), Error);
    assert(['EISDIR', 'ERR_FS_EISDIR'].includes(error.code), `code ${error.code}`);
    assertEquals(await readFile(at('rm-dir/kept'), 'utf8'), 'kept', 'the directory and its content stay');
  });

  await test('rm with force of a missing path resolves', async () => {
    assertEquals(await rm(at('never-existed'), { force: true }), undefined, 'force');
    assertEquals(await rm(at('never-existed'), { force: true, recursive: true }), undefined, 'force + recursive');
    assertEquals(await rm(at('never/existed/deeper'), { force: true, recursive: true }), undefined, 'missing parents');
  });

  await test('rename moves a file within a directory', async () => {
    await writeFile(at('old-name'), 'moving');
    assertEquals(await rename(at('old-name'), at('new-name')), undefined, 'resolves with undefined');
    await assertMissing(at('old-name'));
    assertEquals(await readFile(at('new-name'), 'utf8'), 'moving');
  });

  await test('rename moves files and directories across directories', async () => {
    await mkdir(at('from/sub'), { recursive: true });
    await mkdir(at('to/deeper'), { recursive: true });
    await writeFile(at('from/file'), 'file content');
    await writeFile(at('from/sub/inner'), 'inner content');
    await rename(at('from/file'), at('to/deeper/file-moved'));
    assertEquals(await readFile(at('to/deeper/file-moved'), 'utf8'), 'file content', 'file across directories');
    await assertMissing(at('from/file'));
    await rename(at('from/sub'), at('to/sub-moved'));
    assertEquals(await readFile(at('to/sub-moved/inner'), 'utf8'), 'inner content', 'directory with its content');
    await assertMissing(at('from/sub'));
    assertEquals(await readdir(at('from')), [], 'the source directory is empty');
  });

  await test('rename replaces an existing file', async () => {
    await writeFile(at('replace-src'), 'new');
    await writeFile(at('replace-dst'), 'old and longer');
    await rename(at('replace-src'), at('replace-dst'));
    assertEquals(await readFile(at('replace-dst'), 'utf8'), 'new');
    await assertMissing(at('replace-src'));
  });

  await test('rename to the same path is a no-op', async () => {
    await writeFile(at('same'), 'same');
    await rename(at('same'), at('same'));
    assertEquals(await readFile(at('same'), 'utf8'), 'same');
  });
} finally {
  await rm(root, { recursive: true, force: true });
}
