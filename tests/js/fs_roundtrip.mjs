// hostloop:fs round trips: what writeFile/appendFile put in a file is what
// readFile gives back, as bytes and as UTF-8 text: non-ASCII text, bytes with
// zeros, ArrayBuffers and typed-array/DataView views with offsets, empty
// files, a 10 MB file, and files whose stat size is 0 (procfs). (Strings with
// lone surrogates: fs_write_lone_surrogate.mjs.)
//
// Everything happens in a fresh directory under /tmp, created with
// hostloop:fs itself and removed at the end (also when a test fails).

import { readFile, writeFile, appendFile, stat, mkdir, rm } from 'hostloop:fs';
import { test, assert, assertEquals } from './lib/assert.mjs';

const root = `/tmp/hostloop-fs-test-${performance.timeOrigin}-${Math.random()}`;
await mkdir(root);
const at = (name) => `${root}/${name}`;
const utf8 = (text) => new TextEncoder().encode(text);
const bytes = (...values) => new Uint8Array(values);

// Compares two byte sequences without building a giant failure message.
function assertBytes(actual, expected, what) {
  assert(actual instanceof Uint8Array, `${what}: readFile returns a Uint8Array, got ${Object.prototype.toString.call(actual)}`);
  assertEquals(actual.byteLength, expected.byteLength, `${what}: length`);
  for (let i = 0; i < expected.length; i++) {
    if (actual[i] !== expected[i]) {
      assert(false, `${what}: byte ${i} is ${actual[i]}, expected ${expected[i]}`);
    }
  }
}

try {
  await test('text with non-ASCII characters round-trips as UTF-8', async () => {
    const text = 'héllo wörld, 日本語, ελληνικά, עברית, emoji 😀👍🏽, combining é, \u2028 and tabs\t\r\n';
    await writeFile(at('text.txt'), text);
    assertEquals(await readFile(at('text.txt'), 'utf8'), text, "readFile(path, 'utf8')");
    assertEquals(await readFile(at('text.txt'), 'utf-8'), text, "readFile(path, 'utf-8')");
    assertEquals(await readFile(at('text.txt'), { encoding: 'utf8' }), text, 'readFile(path, { encoding })');
    assertBytes(await readFile(at('text.txt')), utf8(text), 'bytes of the text');
    assertEquals((await stat(at('text.txt'))).size, utf8(text).byteLength, 'stat size is the UTF-8 length');
  });

  await test('a string with NUL characters is written whole', async () => {
    await writeFile(at('nul.txt'), 'a\0b\0\0c');
    assertBytes(await readFile(at('nul.txt')), bytes(0x61, 0, 0x62, 0, 0, 0x63), 'NULs in a string');
    assertEquals(await readFile(at('nul.txt'), 'utf8'), 'a\0b\0\0c', 'read back as text');
  });

  await test('utf8 decoding keeps a BOM and replaces invalid bytes with U+FFFD (as node)', async () => {
    await writeFile(at('bom.txt'), bytes(0xef, 0xbb, 0xbf, 0x41, 0xff, 0x42, 0xc3));
    assertEquals(await readFile(at('bom.txt'), 'utf8'), '\uFEFFA\uFFFDB\uFFFD');
  });

  await test('every byte value, zeros included, round-trips from a Uint8Array', async () => {
    const all = new Uint8Array(512);
    for (let i = 0; i < all.length; i++) all[i] = i % 256;
    await writeFile(at('all-bytes.bin'), all);
    assertBytes(await readFile(at('all-bytes.bin')), all, 'bytes 0..255 twice');
    const zeros = new Uint8Array(4096);
    await writeFile(at('zeros.bin'), zeros);
    assertBytes(await readFile(at('zeros.bin')), zeros, '4096 zero bytes');
    assertEquals((await stat(at('zeros.bin'))).size, 4096, 'stat size of the zeros');
  });

  await test('an ArrayBuffer is written whole', async () => {
    const buffer = new ArrayBuffer(6);
    new Uint8Array(buffer).set([1, 0, 2, 0, 3, 255]);
    await writeFile(at('buffer.bin'), buffer);
    assertBytes(await readFile(at('buffer.bin')), bytes(1, 0, 2, 0, 3, 255), 'ArrayBuffer');
  });

  await test('typed-array and DataView views with offsets write only their bytes', async () => {
    const buffer = new ArrayBuffer(32);
    const all = new Uint8Array(buffer);
    for (let i = 0; i < all.length; i++) all[i] = 100 + i;
    const cases = [
      ['Uint8Array(buffer, 3, 5)', new Uint8Array(buffer, 3, 5), all.slice(3, 8)],
      ['Uint8Array subarray', all.subarray(10, 12), all.slice(10, 12)],
      ['Int16Array(buffer, 2, 3)', new Int16Array(buffer, 2, 3), all.slice(2, 8)],
      ['Uint32Array(buffer, 4, 2)', new Uint32Array(buffer, 4, 2), all.slice(4, 12)],
      ['Float64Array(buffer, 8, 2)', new Float64Array(buffer, 8, 2), all.slice(8, 24)],
      ['BigInt64Array(buffer, 24)', new BigInt64Array(buffer, 24), all.slice(24, 32)],
      ['DataView(buffer, 1, 2)', new DataView(buffer, 1, 2), all.slice(1, 3)],
      ['DataView(buffer, 31)', new DataView(buffer, 31), all.slice(31, 32)],
      ['empty view at an offset', new Uint8Array(buffer, 16, 0), new Uint8Array(0)],
    ];
    for (const [name, view, expected] of cases) {
      await writeFile(at('view.bin'), view);
      assertBytes(await readFile(at('view.bin')), expected, name);
    }
  });

  await test('empty files: empty string, empty view and empty ArrayBuffer', async () => {
    for (const [name, data] of [['string', ''], ['view', new Uint8Array(0)], ['buffer', new ArrayBuffer(0)]]) {
      await writeFile(at(`empty-${name}`), data);
      const read = await readFile(at(`empty-${name}`));
      assertBytes(read, new Uint8Array(0), `empty ${name} as bytes`);
      assertEquals(await readFile(at(`empty-${name}`), 'utf8'), '', `empty ${name} as text`);
      assertEquals((await stat(at(`empty-${name}`))).size, 0, `empty ${name}: stat size`);
    }
  });

  await test('writeFile replaces (truncates) a longer existing file', async () => {
    await writeFile(at('truncate.txt'), 'a much longer first version of the file');
    await writeFile(at('truncate.txt'), 'short');
    assertEquals(await readFile(at('truncate.txt'), 'utf8'), 'short');
    await writeFile(at('truncate.txt'), '');
    assertEquals((await stat(at('truncate.txt'))).size, 0, 'truncated to nothing');
  });

  await test('a 10 MB file of bytes (zeros included) round-trips', async () => {
    const size = 10 * 1024 * 1024;
    const big = new Uint8Array(size);
    for (let i = 0; i < size; i++) big[i] = (i * 31 + (i >>> 9)) & 255;
    await writeFile(at('big.bin'), big);
    assertEquals((await stat(at('big.bin'))).size, size, 'stat size');
    assertBytes(await readFile(at('big.bin')), big, '10 MB of bytes');
    // Written from an offset view of a larger buffer.
    const framed = new Uint8Array(size + 100);
    framed.set(big, 37);
    await writeFile(at('big-view.bin'), framed.subarray(37, 37 + size));
    assertBytes(await readFile(at('big-view.bin')), big, '10 MB from an offset view');
  });

  await test('a 10 MB non-ASCII text round-trips as a string', async () => {
    const text = 'é'.repeat(4 * 1024 * 1024) + '日本'.repeat(300000) + '!';
    await writeFile(at('big.txt'), text);
    assertEquals((await stat(at('big.txt'))).size, 8 * 1024 * 1024 + 6 * 300000 + 1, 'stat size');
    const read = await readFile(at('big.txt'), 'utf8');
    assertEquals(read.length, text.length, 'string length');
    assert(read === text, 'the text read back equals the text written');
  });

  await test('appendFile creates a missing file and appends strings, buffers and views', async () => {
    const path = at('append.log');
    await appendFile(path, 'first ');
    await appendFile(path, 'ünïcode ');
    await appendFile(path, bytes(0, 1, 2));
    const buffer = new Uint8Array([9, 8, 7, 6, 5]).buffer;
    await appendFile(path, new Uint8Array(buffer, 1, 2));
    await appendFile(path, buffer);
    await appendFile(path, '');
    const expected = new Uint8Array([...utf8('first ünïcode '), 0, 1, 2, 8, 7, 9, 8, 7, 6, 5]);
    assertBytes(await readFile(path), expected, 'appended content');
  });

  await test('appendFile after writeFile keeps the existing content; writeFile after it truncates', async () => {
    const path = at('append2.txt');
    await writeFile(path, 'head');
    await appendFile(path, '-tail');
    assertEquals(await readFile(path, 'utf8'), 'head-tail');
    await writeFile(path, 'new');
    assertEquals(await readFile(path, 'utf8'), 'new');
  });

  await test('sequential appends issued without awaiting all land, in order', async () => {
    const path = at('append-many.txt');
    await writeFile(path, '');
    // Each append is awaited before the next starts, but through a chain of
    // promises built up front (no gaps on the JS side).
    let chain = Promise.resolve();
    for (let i = 0; i < 200; i++) chain = chain.then(() => appendFile(path, `${i},`));
    await chain;
    const expected = Array.from({ length: 200 }, (_, i) => `${i},`).join('');
    assertEquals(await readFile(path, 'utf8'), expected);
  });

  await test('procfs files (stat size 0) are read to their end, also beyond 64 KiB', async () => {
    assertEquals((await stat('/proc/self/status')).size, 0, 'procfs reports size 0');
    const status = await readFile('/proc/self/status', 'utf8');
    assert(/^Name:\s+\S+/m.test(status) && /^VmRSS:/m.test(status), `/proc/self/status content: ${status.slice(0, 200)}`);
    // /proc/self/smaps of a V8 process is hundreds of KiB: more than one
    // read buffer.
    const smaps = await readFile('/proc/self/smaps', 'utf8');
    assert(smaps.length > 64 * 1024, `smaps is ${smaps.length} bytes`);
    assert(smaps.endsWith('\n'), 'smaps read to its last line');
    const mappings = smaps.split('\n').filter((line) => /^[0-9a-f]+-[0-9a-f]+ /.test(line)).length;
    const flags = smaps.split('\n').filter((line) => line.startsWith('VmFlags:')).length;
    assertEquals(flags, mappings, 'every mapping in smaps is complete');
  });

  await test('sysfs files (stat size 4096, shorter content) are read to their end', async () => {
    const path = '/sys/devices/system/cpu/online';
    assertEquals((await stat(path)).size, 4096, 'sysfs reports a page');
    const online = await readFile(path, 'utf8');
    assert(/^[0-9][0-9,-]*\n$/.test(online), `${path} content: ${JSON.stringify(online)}`);
  });

  await test('a regular file is read whole whatever its size (exact, one byte more, empty)', async () => {
    for (const size of [1, 4095, 4096, 4097, 65536, 65537, 0]) {
      const path = `${root}/sized-${size}`;
      const bytes = new Uint8Array(size).map((_, i) => (i * 7) & 0xff);
      await writeFile(path, bytes);
      const back = await readFile(path);
      assertEquals(back.length, size, `length of a ${size}-byte file`);
      assert(back.every((b, i) => b === ((i * 7) & 0xff)), `content of a ${size}-byte file`);
    }
  });

  await test("writeFile and appendFile take { encoding: 'utf8', flag: 'w' | 'a' | 'wx' | 'ax' } and refuse the rest", async () => {
    // Ignored before: latin1 wrote UTF-8 and flag 'a' replaced the file.
    const path = at('options.txt');
    await writeFile(path, 'A', 'utf8');
    await writeFile(path, 'B', { flag: 'a', encoding: 'UTF-8' });
    await appendFile(path, 'C', { flag: 'a' });
    assertEquals(await readFile(path, 'utf8'), 'ABC', "flag 'a' appends");
    await appendFile(path, 'D', { flag: 'w' });
    assertEquals(await readFile(path, 'utf8'), 'D', "appendFile with flag 'w' replaces");
    const exists = await writeFile(path, 'E', { flag: 'wx' }).then(() => null, (error) => error);
    assertEquals([exists?.code, exists?.syscall], ['EEXIST', 'open'], "flag 'wx' on an existing file");
    await writeFile(at('fresh.txt'), 'F', { flag: 'ax' });
    assertEquals(await readFile(at('fresh.txt'), 'utf8'), 'F', "flag 'ax' creates");
    for (const [options, pattern] of [[{ encoding: 'latin1' }, /Unsupported encoding 'latin1'/],
      ['ascii', /Unsupported encoding 'ascii'/], [{ flag: 'r+' }, /Unsupported flag 'r\+'/], [5, /"options"/]]) {
      const error = await writeFile(path, 'x', options).then(() => null, (e) => e);
      assert(error instanceof TypeError && pattern.test(error.message), `${JSON.stringify(options)}: ${error}`);
    }
    assertEquals(await readFile(path, 'utf8'), 'D', 'a refused write changes nothing');
  });

  await test('recursive and force are converted with ToBoolean', async () => {
    await mkdir(at('truthy/a/b'), { recursive: 1 });
    assertEquals((await stat(at('truthy/a/b'))).isDirectory, true);
    await rm(at('truthy'), { recursive: 'yes' });
    await rm(at('truthy'), { force: 1 });  // gone already: no error with force
  });
} finally {
  await rm(root, { recursive: true, force: true });
}
