// hostloop:fs writeFile/appendFile of a string with a lone surrogate must
// write well-formed UTF-8: the unpaired surrogate becomes U+FFFD (EF BF BD),
// as node's fs.writeFile and TextEncoder do (WHATWG Encoding "UTF-8 encode":
// scalar values only). Encoding the surrogate itself (ED A0 80, "WTF-8")
// produces a file that is not UTF-8 at all.

import { readFile, writeFile, appendFile, mkdir, rm } from 'hostloop:fs';
import { test, assertEquals } from './lib/assert.mjs';

const root = `/tmp/hostloop-fs-test-${performance.timeOrigin}-${Math.random()}`;
await mkdir(root);

try {
  await test('writeFile: a lone high or low surrogate is written as U+FFFD', async () => {
    const text = 'x\uD800y\uDC00z';
    await writeFile(`${root}/surrogate.txt`, text);
    const expected = new TextEncoder().encode(text);  // 78 EF BF BD 79 EF BF BD 7A
    assertEquals(Array.from(await readFile(`${root}/surrogate.txt`)), Array.from(expected),
                 'bytes written for x\\uD800y\\uDC00z');
  });

  await test('appendFile: a lone surrogate is written as U+FFFD', async () => {
    await appendFile(`${root}/append.txt`, '\uDBFF!');
    assertEquals(Array.from(await readFile(`${root}/append.txt`)), [0xef, 0xbf, 0xbd, 0x21]);
  });

  await test('a surrogate pair is one 4-byte character', async () => {
    await writeFile(`${root}/pair.txt`, '\uD83D\uDE00');
    assertEquals(Array.from(await readFile(`${root}/pair.txt`)), [0xf0, 0x9f, 0x98, 0x80]);
  });
} finally {
  await rm(root, { recursive: true, force: true });
}
