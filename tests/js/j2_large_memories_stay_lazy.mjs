// timeout: 60
//
// Large memories that a program may barely use cost address space, not RAM:
// a 1 GiB WebAssembly.Memory (and its growth by 512 MiB) and a 256 MiB
// ArrayBuffer add little to the resident set until they are written. (The
// page allocator once populated every large read-write commit: the Memory
// took ~1.8 s and 1 GiB of RAM.) The bound is generous: a populated Memory
// adds over 1000 MiB.

import { readFile } from 'hostloop:fs';
import { assert, test } from './lib/assert.mjs';

async function residentMiB() {
  const status = await readFile('/proc/self/status', 'utf8');
  return Number(status.match(/VmRSS:\s+(\d+)/)[1]) / 1024;
}

await test('a 1 GiB WebAssembly.Memory, grown by 512 MiB, stays mostly unresident', async () => {
  const before = await residentMiB();
  const memory = new WebAssembly.Memory({ initial: 16384, maximum: 32768 });
  memory.grow(8192);
  const bytes = new Uint8Array(memory.buffer);
  bytes[0] = 1;
  bytes[bytes.length - 1] = 2;
  const added = (await residentMiB()) - before;
  assert(added < 200, `resident set grew by ${added.toFixed(0)} MiB`);
  assert(bytes[0] === 1 && bytes[bytes.length - 1] === 2);
});

await test('a 256 MiB ArrayBuffer written at both ends stays mostly unresident', async () => {
  const before = await residentMiB();
  const bytes = new Uint8Array(256 * 1024 * 1024);
  bytes[0] = 1;
  bytes[bytes.length - 1] = 2;
  const added = (await residentMiB()) - before;
  assert(added < 64, `resident set grew by ${added.toFixed(0)} MiB`);
  assert(bytes[1] === 0 && bytes[bytes.length - 2] === 0);
});
