// Row "fs_read_10k": reading many small files at once.
//
// Untimed set-up: a fresh directory under /tmp with 10,000 files of about
// 1 KB each (distinct contents), written 500 at a time, then one untimed
// warm-up pass that reads them all the same way as the timed pass. Timed:
// one pass that starts all 10,000 reads at once and awaits them with
// Promise.all, each read giving the file's bytes. The directory is removed
// afterwards (also on failure).
//
// Prints one line of JSON: {"ms": ..., "files_per_s": ...}: the wall time of
// the timed pass from performance.now(), and 10,000 / that time.
//
// Each runtime's own asynchronous whole-file read:
//   hostloop  readFile(path)          from import('hostloop:fs')  -> Uint8Array
//   node      readFile(path)          from node:fs/promises       -> Buffer
//   deno      Deno.readFile(path)                                 -> Uint8Array
//   bun       Bun.file(path).bytes()  (arrayBuffer() if bytes() is missing)
// Set-up and clean-up use node:fs/promises where the runtime has it (node,
// bun), Deno's API in deno, hostloop:fs in hostloop.

const FILES = 10_000;
const SIZE = 1024;
const BATCH = 500;

async function runtimeApi() {
  if (typeof Deno !== 'undefined') {
    return {
      name: 'deno',
      read: (path) => Deno.readFile(path),
      write: (path, bytes) => Deno.writeFile(path, bytes),
      mkdir: (path) => Deno.mkdir(path, { recursive: true }),
      removeTree: (path) => Deno.remove(path, { recursive: true }),
    };
  }
  if (typeof Bun !== 'undefined') {
    const fs = await import('node:fs/promises');
    const probe = Bun.file('/dev/null');
    const read = typeof probe.bytes === 'function'
      ? (path) => Bun.file(path).bytes()
      : (path) => Bun.file(path).arrayBuffer();
    return {
      name: 'bun',
      read,
      write: (path, bytes) => fs.writeFile(path, bytes),
      mkdir: (path) => fs.mkdir(path, { recursive: true }),
      removeTree: (path) => fs.rm(path, { recursive: true, force: true }),
    };
  }
  let hostloopFs = null;
  try {
    hostloopFs = await import('hostloop:fs');
  } catch {
    // Not hostloop.
  }
  if (hostloopFs !== null) {
    return {
      name: 'hostloop',
      read: (path) => hostloopFs.readFile(path),
      write: (path, bytes) => hostloopFs.writeFile(path, bytes),
      mkdir: (path) => hostloopFs.mkdir(path, { recursive: true }),
      removeTree: (path) => hostloopFs.rm(path, { recursive: true, force: true }),
    };
  }
  const fs = await import('node:fs/promises');
  return {
    name: 'node',
    read: (path) => fs.readFile(path),
    write: (path, bytes) => fs.writeFile(path, bytes),
    mkdir: (path) => fs.mkdir(path, { recursive: true }),
    removeTree: (path) => fs.rm(path, { recursive: true, force: true }),
  };
}

const api = await runtimeApi();
const dir = `/tmp/hostloop-bench-fs-read-${api.name}-${Math.round(performance.timeOrigin)}-${Math.random().toString(36).slice(2)}`;
const paths = Array.from({ length: FILES }, (_, i) => `${dir}/file-${i}.txt`);

// The byte length of what a read gave (Uint8Array, Buffer or ArrayBuffer).
const lengthOf = (data) => data.byteLength;

async function readAll() {
  const results = await Promise.all(paths.map((path) => api.read(path)));
  let total = 0;
  for (const data of results) total += lengthOf(data);
  return total;
}

await api.mkdir(dir);
try {
  const expected = FILES * SIZE;
  for (let start = 0; start < FILES; start += BATCH) {
    const writes = [];
    for (let i = start; i < Math.min(start + BATCH, FILES); i++) {
      const bytes = new Uint8Array(SIZE);
      for (let j = 0; j < SIZE; j++) bytes[j] = 32 + ((i * 7 + j) % 95);
      writes.push(api.write(paths[i], bytes));
    }
    await Promise.all(writes);
  }

  const warm = await readAll();
  if (warm !== expected) throw new Error(`warm-up read ${warm} bytes, expected ${expected}`);

  const t0 = performance.now();
  const total = await readAll();
  const ms = performance.now() - t0;
  if (total !== expected) throw new Error(`read ${total} bytes, expected ${expected}`);

  console.log(JSON.stringify({ ms: +ms.toFixed(2), files_per_s: Math.round(FILES / (ms / 1000)) }));
} finally {
  await api.removeTree(dir);
}
