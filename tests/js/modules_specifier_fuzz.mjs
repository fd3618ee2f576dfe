// Differential test of module specifier resolution: 20,000 specifiers built
// from a fixed-seed random mix of tricky pieces (dot segments in every
// spelling, both slashes, percent signs, spaces, tabs, newlines, query and
// fragment characters, non-ASCII, localhost), each with a relative or file:
// prefix. import.meta.resolve must give what the global URL (whatwg-url)
// gives for the same input (with the importer as base for "/", "./" and
// "../" specifiers, with none for the rest, as HTML resolves them): the
// same URL, or an error for a URL hostloop
// cannot load (another host; HTML's failure). Windows drive letters ("C:")
// are left out: src/runtime/file_url.h says they are not special here.

import { assert } from './lib/assert.mjs';

const pieces = ['a', 'b.mjs', '.', '..', '%2e', '%2E', '.%2e', '%2e.', '/', '\\', '?', '#', ' ', '\t', '\n',
  '%', '%41', '^', '`', '{', '}', '"', "'", '<', '>', 'é', '😀', '|', ':', '@', '[', ']', '~', ';', '=',
  '&', '\u0000', '\u007f', '//', 'localhost', 'LocalHost'];
const prefixes = ['./', '../', '/', '//', 'file:', 'file:/', 'file://', 'file:///', 'FILE:', 'file://localhost/',
  'file://LOCALHOST/'];
let seed = 12345;
const random = (n) => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
};
const failures = [];
for (let i = 0; i < 20_000; i++) {
  let specifier = prefixes[random(prefixes.length)];
  const length = random(6);
  for (let k = 0; k < length; k++) specifier += pieces[random(pieces.length)];
  let mine;
  let expected;
  try {
    mine = import.meta.resolve(specifier);
  } catch {
    mine = 'error';
  }
  try {
    // HTML: "/", "./" and "../" specifiers are parsed against the importer,
    // any other (URL-like) with no base.
    const relative = /^(\/|\.\/|\.\.\/)/.test(specifier);
    const url = relative ? new URL(specifier, import.meta.url) : new URL(specifier);
    expected = url.protocol === 'file:' && url.host === '' ? url.href : 'error';
  } catch {
    expected = 'error';
  }
  if (mine !== expected) failures.push(`${JSON.stringify(specifier)}: ${mine} instead of ${expected}`);
}
assert(failures.length === 0, `${failures.length} mismatches, first ones:\n${failures.slice(0, 10).join('\n')}`);
